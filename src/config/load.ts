/**
 * Loading the config: YAML text -> plain data -> validated `KishiConfig` with defaults filled in.
 * Every problem is reported at once, each with its key path (as lichess-bot's `config_assert` and
 * shogihome's `validate...()` do), so a user fixes the file in one go.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import { Result } from '../core/result.js';
import { keyHint } from './key-hints.js';
import type { KishiConfig } from './schema.js';
import { configSchema, SECRET_ENV } from './schema.js';
import type { JsonSchema } from './sections/section.js';

/** One problem with the config, at a key path such as `lichess.concurrency`. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

/** Every problem found in a config, formatted one per line by `toString`. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(`${file}: ${issues.length} config error(s):\n` + issues.map((i) => `  ${i.path || '(top)'}: ${i.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/** The compiled schema, made on first use (compiling costs a quarter of a second of start-up). */
let compiled: ValidateFunction | undefined;
const validateSchema = (): ValidateFunction => (compiled ??= new Ajv({ allErrors: true, useDefaults: true, strict: false }).compile(configSchema as object));

const SECRET_KEY = /(token|password|passwd|secret)$/i;

/** The keys the schema knows at a dotted path ('' for the top level). */
function knownKeys(base: string): string[] {
  let node: JsonSchema | undefined = configSchema as JsonSchema;
  for (const part of base === '' ? [] : base.split('.')) node = node?.properties?.[part];
  return Object.keys(node?.properties ?? {});
}

const issueOf = (e: ErrorObject): ConfigIssue => {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'additionalProperties') {
    const key = String((e.params as { additionalProperty: string }).additionalProperty);
    const path = base ? `${base}.${key}` : key;
    if (SECRET_KEY.test(key)) {
      return {
        path,
        message: `secrets are not read from the config file; set ${SECRET_ENV.lichessToken}, ${SECRET_ENV.lishogiToken} or ${SECRET_ENV.csaPassword} in the environment`,
      };
    }
    const hint = keyHint(path, knownKeys(base));
    return { path, message: hint === undefined ? 'unknown key' : `unknown key; did you mean ${hint}?` };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ');
    return { path: base, message: `must be one of ${allowed}` };
  }
  return { path: base, message: e.message ?? e.keyword };
};

/** Validates plain data (already parsed from YAML) and fills in defaults. */
export function validateConfig(data: unknown, file = '<config>'): Result<KishiConfig, ConfigError> {
  const copy: unknown = data === null || data === undefined ? {} : structuredClone(data);
  if (typeof copy !== 'object' || Array.isArray(copy)) {
    return Result.err(new ConfigError(file, [{ path: '', message: 'the config must be a mapping of sections' }]));
  }
  const validate = validateSchema();
  if (validate(copy)) return Result.ok(copy as unknown as KishiConfig);
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  const errors = validate.errors ?? [];
  // A value of the wrong type also fails its range checks: report only that it has the wrong type.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  for (const e of errors) {
    if (e.keyword !== 'type' && wrongType.has(e.instancePath)) continue;
    const issue = issueOf(e);
    const id = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      issues.push(issue);
    }
  }
  return Result.err(new ConfigError(file, issues));
}

/** Parses YAML text and validates it; YAML syntax errors are reported with their line. */
export function parseConfig(text: string, file = '<config>'): Result<KishiConfig, ConfigError> {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    return Result.err(
      new ConfigError(
        file,
        doc.errors.map((e) => ({ path: '', message: `YAML: ${e.message.split('\n')[0]}` })),
      ),
    );
  }
  return validateConfig(doc.toJS(), file);
}

/** Reads and validates a config file; a missing or unreadable file is an error, not a crash. */
export function loadConfig(file: string): Result<KishiConfig, ConfigError> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(err)})`;
    return Result.err(new ConfigError(file, [{ path: '', message: why }]));
  }
  return parseConfig(text, file);
}

/** The secrets a run needs, read from the environment only. */
export interface Secrets {
  readonly lichessToken?: string;
  readonly lishogiToken?: string;
  readonly csaPassword?: string;
}

/** Reads the secrets for the enabled servers; a missing one is an error naming its environment variable. */
export function readSecrets(config: KishiConfig, env: NodeJS.ProcessEnv = process.env): Result<Secrets, ConfigError> {
  const issues: ConfigIssue[] = [];
  const get = (name: string): string | undefined => {
    const v = env[name];
    return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
  };
  const lichessToken = get(SECRET_ENV.lichessToken);
  const lishogiToken = get(SECRET_ENV.lishogiToken);
  const csaPassword = get(SECRET_ENV.csaPassword);
  if (config.lichess.enabled && lichessToken === undefined) {
    issues.push({ path: 'lichess.enabled', message: `lichess is enabled but ${SECRET_ENV.lichessToken} is not set in the environment` });
  }
  if (config.lishogi.enabled && lishogiToken === undefined) {
    issues.push({ path: 'lishogi.enabled', message: `lishogi is enabled but ${SECRET_ENV.lishogiToken} is not set in the environment` });
  }
  if (config.csa.enabled && csaPassword === undefined) {
    issues.push({ path: 'csa.enabled', message: `the CSA server is enabled but ${SECRET_ENV.csaPassword} is not set in the environment` });
  }
  if (issues.length > 0) return Result.err(new ConfigError('environment', issues));
  return Result.ok({
    ...(lichessToken !== undefined ? { lichessToken } : {}),
    ...(lishogiToken !== undefined ? { lishogiToken } : {}),
    ...(csaPassword !== undefined ? { csaPassword } : {}),
  });
}
