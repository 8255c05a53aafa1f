/**
 * The config of an empty file without the validator: every key the schema gives a default, filled
 * in as ajv's `useDefaults` fills them (a section's `{}` default, then its keys' defaults). `kishi
 * uci` and `kishi usi` without `--config` start from it, so an engine answers `uciok` without
 * compiling the schema (tests/config/defaults.test.ts checks it equals `validateConfig({})`).
 */
import type { KishiConfig } from './schema.js';
import { configSchema } from './schema.js';
import type { JsonSchema } from './sections/section.js';

/** The value ajv's `useDefaults` gives a missing key of `schema` (undefined: none). */
const defaultOf = (schema: JsonSchema): unknown => {
  if (schema.default === undefined) return undefined;
  if (schema.properties === undefined || typeof schema.default !== 'object' || schema.default === null || Array.isArray(schema.default)) return structuredClone(schema.default);
  return filled(schema, structuredClone(schema.default) as Record<string, unknown>);
};

const filled = (schema: JsonSchema, into: Record<string, unknown>): Record<string, unknown> => {
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (into[key] !== undefined) continue;
    const d = defaultOf(sub);
    if (d !== undefined) into[key] = d;
  }
  return into;
};

/** The config of an empty file (the schema's defaults). */
export const defaultConfig = (): KishiConfig => filled(configSchema, {}) as unknown as KishiConfig;
