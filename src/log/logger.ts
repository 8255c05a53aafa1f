/**
 * The winston root logger and one child logger per module (`childLogger('lichess/game')`).
 * Pure layers (games/, eval/, nn encoders) never import this. Every line passes through `redact`,
 * so a secret that slips into a message or a metadata field is still masked.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import winston from 'winston';
import { redact } from './redact.js';

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    const v = (info as Record<string, unknown>)[key];
    if (typeof v === 'string') (info as Record<string, unknown>)[key] = redact(v);
    else if (v !== null && typeof v === 'object') {
      try {
        (info as Record<string, unknown>)[key] = JSON.parse(redact(JSON.stringify(v)));
      } catch {
        // Circular or non-JSON metadata: leave as is, the message itself is still masked.
      }
    }
  }
  return info;
});

const lineFormat = winston.format.printf((info) => {
  const { level, message, timestamp, module, fileOnly: _fileOnly, ...rest } = info as Record<string, unknown>;
  const meta = Object.keys(rest).filter((k) => typeof k === 'string' && !k.startsWith('Symbol'));
  const extra = meta.length > 0 ? ' ' + redact(JSON.stringify(Object.fromEntries(meta.map((k) => [k, rest[k]])))) : '';
  return `${String(timestamp)} ${String(level)} [${String(module ?? 'kishi')}] ${redact(String(message))}${extra}`;
});

/**
 * Metadata of a line for the log file only: the user already read it on stderr as the command's own
 * one-line message (`kishi run: web: port ... is in use`), and the console must not say it twice.
 */
export const FILE_ONLY: { readonly fileOnly: true } = { fileOnly: true };

const skipFileOnly = winston.format((info) => ((info as Record<string, unknown>)['fileOnly'] === true ? false : info));

/** The root logger: console (stderr, so UCI/USI stdout stays clean) until `configureLogging` adds a file. */
export const rootLogger = winston.createLogger({
  level: process.env.KISHI_LOG_LEVEL ?? 'warn',
  format: winston.format.combine(redactFormat(), winston.format.timestamp(), lineFormat),
  transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn', 'info', 'debug', 'verbose', 'silly'], format: skipFileOnly() })],
});

/** Options for `configureLogging`. */
export interface LoggingOptions {
  readonly level: string;
  /** Directory for `kishi.log`; no file when undefined. */
  readonly dir?: string;
}

/** Sets the level and adds the log file, once the config is known. */
export function configureLogging(opts: LoggingOptions): void {
  rootLogger.level = opts.level;
  if (opts.dir !== undefined) {
    mkdirSync(opts.dir, { recursive: true });
    rootLogger.add(new winston.transports.File({ filename: join(opts.dir, 'kishi.log'), maxsize: 20_000_000, maxFiles: 5 }));
  }
}

/** The child logger of one module; its lines carry `[module]`. */
export function childLogger(module: string): winston.Logger {
  return rootLogger.child({ module });
}
