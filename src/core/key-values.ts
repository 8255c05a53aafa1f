/**
 * `key=value,key=value` lists, the compact form the match CLI uses for engine specs
 * (`name=sf,cmd=/usr/games/stockfish,option.Skill Level=3`), adjudication and SPRT settings.
 * Values may contain `=` and spaces but not commas; a bare word is a key with the value "".
 */
import { KishiError, Result } from './result.js';

/** Parsed pairs in order (a key may repeat; later wins when read into a record). */
export function parseKeyValues(text: string, what: string): Result<[string, string][], KishiError> {
  const out: [string, string][] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (key === '') return Result.err(new KishiError('ERR_KEY_VALUES', `${what}: empty key in ${JSON.stringify(text)}`));
    out.push([key, eq < 0 ? '' : part.slice(eq + 1).trim()]);
  }
  return Result.ok(out);
}

/** A finite number from text, or an error naming `what`. */
export function parseNumber(text: string, what: string, check?: (x: number) => boolean): Result<number, KishiError> {
  const x = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(x) || (check !== undefined && !check(x))) {
    return Result.err(new KishiError('ERR_NUMBER', `${what}: bad number ${JSON.stringify(text)}`));
  }
  return Result.ok(x);
}

/** Reads pairs into a record, rejecting keys not in `allowed` (a prefix ending in `.` allows a family). */
export function keyValueRecord(
  pairs: readonly (readonly [string, string])[],
  allowed: readonly string[],
  what: string,
): Result<Record<string, string>, KishiError> {
  const out: Record<string, string> = {};
  for (const [k, v] of pairs) {
    const ok = allowed.some((a) => (a.endsWith('.') ? k.startsWith(a) && k.length > a.length : a === k));
    if (!ok) return Result.err(new KishiError('ERR_KEY_VALUES', `${what}: unknown key ${JSON.stringify(k)} (known: ${allowed.join(', ')})`));
    out[k] = v;
  }
  return Result.ok(out);
}
