/**
 * Engine options as UCI and USI declare them (`option name <id> type <t> ...`) and set them
 * (`setoption name <id> [value <x>]`).
 *
 * Names are matched case-insensitively and ignoring spaces (UCI says names are case-insensitive;
 * ignoring spaces lets `Move Overhead` and `MoveOverhead` both work, and USI names never contain
 * spaces, because ShogiHome rejects such option lines). Aliases cover the names other engines use
 * (fairy-stockfish's `Hash`/`Ponder` under USI, `USI_Hash` under UCI), so a GUI configured for
 * another engine still reaches ours.
 */
import { KishiError, Result } from '../../core/result.js';

export const OPTION_TYPES = ['check', 'spin', 'combo', 'button', 'string', 'filename'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];

/** Which engine setting an option drives. */
export const OPTION_KEYS = [
  'hashMb',
  'clearHash',
  'ponder',
  'moveOverheadMs',
  'evalFile',
  'modelFile',
  'nnueFile',
  'drawScore',
  'search',
  'evalKind',
  'chess960',
  'multiPv',
  'threads',
  'searchTuning',
  'tuningParam',
  'mctsTuning',
  'policyFile',
  'nnueSimd',
] as const;
export type OptionKey = (typeof OPTION_KEYS)[number];

/** One declared option. */
export interface EngineOption {
  readonly key: OptionKey;
  readonly name: string;
  readonly type: OptionType;
  readonly default?: string | number | boolean;
  readonly min?: number;
  readonly max?: number;
  /** Combo choices. */
  readonly vars?: readonly string[];
  /** Other names accepted by `setoption` (not declared). */
  readonly aliases?: readonly string[];
  /** `tuningParam`: which search margin (src/search/alphabeta/tuning.ts) the spin sets. */
  readonly param?: string;
}

/** A value after checking it against its option. */
export type OptionValue = string | number | boolean | undefined;

/** The `option ...` line of one option (USI's `<empty>` convention for empty strings). */
export function optionLine(o: EngineOption, protocol: 'uci' | 'usi'): string {
  const parts = ['option', 'name', o.name, 'type', o.type];
  if (o.type !== 'button') {
    let d = o.default === undefined ? '' : String(o.default);
    if (d === '' && protocol === 'usi') d = '<empty>';
    parts.push('default', d);
  }
  if (o.type === 'spin') parts.push('min', String(o.min ?? 0), 'max', String(o.max ?? 0));
  if (o.type === 'combo') for (const v of o.vars ?? []) parts.push('var', v);
  return parts.join(' ').trimEnd();
}

/** The words of `setoption`, before any check. */
export interface SetOption {
  readonly name: string;
  /** undefined for buttons (no `value` part). */
  readonly value: string | undefined;
}

/** Parses the tokens after `setoption`: `name <id words> [value <value words>]`. */
export function parseSetOption(tokens: readonly string[]): Result<SetOption, KishiError> {
  if (tokens[0] !== 'name' || tokens.length < 2) {
    return Result.err(new KishiError('ERR_SETOPTION', `setoption: expected "setoption name <id> [value <x>]", got "setoption ${tokens.join(' ')}"`));
  }
  const at = tokens.indexOf('value', 1);
  const name = tokens.slice(1, at < 0 ? undefined : at).join(' ');
  if (name === '') return Result.err(new KishiError('ERR_SETOPTION', 'setoption: empty option name'));
  return Result.ok({ name, value: at < 0 ? undefined : tokens.slice(at + 1).join(' ') });
}

const normalise = (name: string): string => name.toLowerCase().replace(/\s+/g, '');

/** The option a `setoption` name refers to, by name or alias. */
export function findOption(options: readonly EngineOption[], name: string): EngineOption | undefined {
  const n = normalise(name);
  return options.find((o) => normalise(o.name) === n || (o.aliases ?? []).some((a) => normalise(a) === n));
}

/**
 * Checks a value for an option: `check` takes true/false, `spin` an integer within min..max,
 * `combo` one of its vars (case-insensitive), strings anything (USI's `<empty>` is empty).
 */
export function optionValue(o: EngineOption, raw: string | undefined): Result<OptionValue, KishiError> {
  const bad = (why: string): Result<OptionValue, KishiError> =>
    Result.err(new KishiError('ERR_SETOPTION', `setoption ${o.name}: ${why}`));
  switch (o.type) {
    case 'button':
      return Result.ok(undefined);
    case 'check': {
      const v = (raw ?? '').trim().toLowerCase();
      if (v === 'true') return Result.ok(true);
      if (v === 'false') return Result.ok(false);
      return bad(`expected true or false, got ${JSON.stringify(raw ?? '')}`);
    }
    case 'spin': {
      const v = (raw ?? '').trim();
      if (!/^[+-]?\d+$/.test(v)) return bad(`expected an integer, got ${JSON.stringify(raw ?? '')}`);
      const n = Number(v);
      if (o.min !== undefined && n < o.min) return bad(`${n} is below the minimum ${o.min}`);
      if (o.max !== undefined && n > o.max) return bad(`${n} is above the maximum ${o.max}`);
      return Result.ok(n);
    }
    case 'combo': {
      const v = (raw ?? '').trim();
      const hit = (o.vars ?? []).find((x) => x.toLowerCase() === v.toLowerCase());
      if (hit === undefined) return bad(`expected one of ${(o.vars ?? []).join(', ')}, got ${JSON.stringify(raw ?? '')}`);
      return Result.ok(hit);
    }
    case 'string':
    case 'filename': {
      const v = (raw ?? '').trim();
      return Result.ok(v === '<empty>' ? '' : v);
    }
  }
}
