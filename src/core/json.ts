/**
 * JSON for results that may hold infinite figures (an Elo of a perfect score, an unbounded rating):
 * `JSON.stringify` would turn them into `null`, losing the sign. Non-finite numbers are written as
 * the strings "Infinity", "-Infinity" and "NaN" and read back as numbers by {@link parseResultJson}.
 */
import { KishiError, Result } from './result.js';

const NON_FINITE: Readonly<Record<string, number>> = {
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  NaN: Number.NaN,
};

/** `JSON.stringify` with non-finite numbers as strings and bigints as decimal strings; 2-space indent. */
export function stringifyResultJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Map) return Object.fromEntries(v);
      return v;
    },
    2,
  );
}

/** `JSON.parse` turning "Infinity", "-Infinity" and "NaN" strings back into numbers. */
export function parseResultJson(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => (typeof v === 'string' && v in NON_FINITE ? NON_FINITE[v] : v));
}

/** `JSON.parse` of a file's text as a `Result`: `code` and "<what>: not JSON (<reason>)" when it does not parse. */
export function parseJsonText(text: string, code: string, what: string): Result<unknown, KishiError> {
  try {
    return Result.ok(JSON.parse(text) as unknown);
  } catch (e) {
    return Result.err(new KishiError(code, `${what}: not JSON (${(e as Error).message})`));
  }
}
