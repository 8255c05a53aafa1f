import { section } from './section.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogConfig {
  readonly level: LogLevel;
  readonly dir: string;
  readonly transcripts: boolean;
}

export const logSection = section('Logging.', {
  level: { enum: LOG_LEVELS, default: 'info', description: 'console and file log level' },
  dir: { type: 'string', default: 'logs', description: 'directory for kishi.log and the wire transcripts' },
  transcripts: { type: 'boolean', default: true, description: 'write a wire transcript per protocol (secrets masked)' },
});
