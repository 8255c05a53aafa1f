/**
 * The CSA `Game_Summary` (protocol 1.2.1), parsed from its lines into plain data.
 *
 * Accepts everything shogi-server sends (CSA protocol 1.2.1 as shogi-server implements it) and what the spec and
 * ShogiHome also allow: `Time_Unit` of `<n>sec|msec|min`, `Time_Roundup`, `Delay`, separate
 * `BEGIN Time+` / `BEGIN Time-` blocks for unequal time, and a Position block with hands (`P+00FU`,
 * `P-00AL`), a handicap line (`PI…`) and moves already played with their times (`+7776FU,T3`).
 * Pure: no I/O.
 */
import { KishiError, Result } from '../../core/result.js';
import { makeCsaMove } from '../../games/shogi/csa-move.js';
import { makeUsiMove } from '../../games/shogi/usi.js';
import type { ShogiPosition } from './shogi-rules.js';
import { parseCsaPositionBlock, positionFromSfen } from './shogi-rules.js';

export type CsaSign = '+' | '-';

/** One side's time rule, all durations in `unitMs` units as the server counts them. */
export interface TimeRule {
  /** Length of one time unit in milliseconds (`Time_Unit:1sec` → 1000). */
  readonly unitMs: number;
  readonly totalTime: number;
  readonly byoyomi: number;
  /** Fischer increment added after each move. */
  readonly increment: number;
  /** The least time charged for a move. */
  readonly leastTimePerMove: number;
  /** `Time_Roundup:YES`: elapsed time is rounded up instead of truncated. */
  readonly roundup: boolean;
  readonly delay: number;
}

/** A move already played when the game (re)starts, with the time the server charged for it. */
export interface PlayedMove {
  readonly csa: string;
  readonly usi: string;
  /** Charged time in units (`,T3` or a following `T3` line); undefined when not given. */
  readonly time: number | undefined;
}

export interface GameSummary {
  readonly protocolVersion: string;
  readonly protocolMode: string;
  readonly format: string;
  readonly declaration: string;
  readonly gameId: string;
  readonly blackName: string;
  readonly whiteName: string;
  /** Our colour. */
  readonly yourTurn: CsaSign;
  /** The `To_Move` field (the side to move; the Position block's own `+`/`-` line decides the start position). */
  readonly toMove: CsaSign;
  readonly rematchOnDraw: boolean;
  /** The game is a draw (`#MAX_MOVES`) after this many moves; undefined when not sent. */
  readonly maxMoves: number | undefined;
  readonly time: { readonly black: TimeRule; readonly white: TimeRule };
  /** Initial position as SFEN. */
  readonly startSfen: string;
  /** Moves already played from `startSfen`. */
  readonly moves: readonly PlayedMove[];
  /** The Position block lines, as received (for the game record). */
  readonly positionLines: readonly string[];
  /** Keys this parser does not know, kept for the record. */
  readonly extra: Readonly<Record<string, string>>;
}

const DEFAULT_RULE: TimeRule = {
  unitMs: 1000,
  totalTime: 0,
  byoyomi: 0,
  increment: 0,
  leastTimePerMove: 0,
  roundup: false,
  delay: 0,
};

const bad = (message: string): Result<never, KishiError> => Result.err(new KishiError('ERR_GAME_SUMMARY', message));

/** Parses `Time_Unit` values: `1sec`, `1min`, `1msec`, `100msec`, `sec` (a missing number means 1). */
export function parseTimeUnit(value: string): number | undefined {
  const m = /^(\d*)(msec|sec|min)$/.exec(value.trim());
  if (!m) return undefined;
  const n = m[1] === '' ? 1 : Number(m[1]);
  if (!(n > 0)) return undefined;
  return n * (m[2] === 'msec' ? 1 : m[2] === 'sec' ? 1000 : 60_000);
}

/** The lines of a Game_Summary, with or without its BEGIN/END lines. */
export function parseGameSummary(input: readonly string[]): Result<GameSummary, KishiError> {
  const lines = input.map((l) => l.replace(/\r$/, ''));
  const fields: Record<string, string> = {};
  const extra: Record<string, string> = {};
  const rules: { both: Partial<Record<keyof TimeRule, number | boolean>>; black: typeof rules.both; white: typeof rules.both } = {
    both: {},
    black: {},
    white: {},
  };
  const positionLines: string[] = [];
  let block: 'none' | 'time' | 'time+' | 'time-' | 'position' = 'none';
  for (const line of lines) {
    if (line === 'BEGIN Game_Summary' || line === 'END Game_Summary') continue;
    if (block === 'position') {
      if (line === 'END Position') block = 'none';
      else positionLines.push(line);
      continue;
    }
    if (block !== 'none') {
      if (line === 'END Time' || line === 'END Time+' || line === 'END Time-') {
        block = 'none';
        continue;
      }
      const target = block === 'time' ? rules.both : block === 'time+' ? rules.black : rules.white;
      const i = line.indexOf(':');
      if (i < 0) return bad(`bad line in the Time block: ${JSON.stringify(line)}`);
      const key = line.slice(0, i);
      const value = line.slice(i + 1).trim();
      const num = (): number | undefined => (/^\d+$/.test(value) ? Number(value) : undefined);
      switch (key) {
        case 'Time_Unit': {
          const ms = parseTimeUnit(value);
          if (ms === undefined) return bad(`bad Time_Unit ${JSON.stringify(value)}`);
          target.unitMs = ms;
          break;
        }
        case 'Time_Roundup':
          if (value !== 'YES' && value !== 'NO') return bad(`bad Time_Roundup ${JSON.stringify(value)}`);
          target.roundup = value === 'YES';
          break;
        case 'Total_Time':
        case 'Byoyomi':
        case 'Increment':
        case 'Least_Time_Per_Move':
        case 'Delay': {
          const n = num();
          if (n === undefined) return bad(`bad ${key} ${JSON.stringify(value)}`);
          const k = ({ Total_Time: 'totalTime', Byoyomi: 'byoyomi', Increment: 'increment', Least_Time_Per_Move: 'leastTimePerMove', Delay: 'delay' } as const)[key];
          target[k] = n;
          break;
        }
        default:
          extra[`${block}.${key}`] = value;
      }
      continue;
    }
    if (line === 'BEGIN Time') block = 'time';
    else if (line === 'BEGIN Time+') block = 'time+';
    else if (line === 'BEGIN Time-') block = 'time-';
    else if (line === 'BEGIN Position') block = 'position';
    else if (line.trim() === '') continue;
    else {
      const i = line.indexOf(':');
      if (i < 0) return bad(`bad Game_Summary line ${JSON.stringify(line)}`);
      fields[line.slice(0, i)] = line.slice(i + 1);
    }
  }
  if (block !== 'none') return bad(`the Game_Summary ends inside a ${block} block`);

  for (const key of ['Game_ID', 'Name+', 'Name-', 'Your_Turn'] as const) {
    if (fields[key] === undefined || fields[key] === '') return bad(`the Game_Summary has no ${key}`);
  }
  const sign = (key: string, v: string | undefined): Result<CsaSign, KishiError> =>
    v === '+' || v === '-' ? Result.ok(v) : bad(`bad ${key} ${JSON.stringify(v)}`);
  const yourTurn = sign('Your_Turn', fields['Your_Turn']);
  if (yourTurn.isErr) return Result.err(yourTurn.error);
  const toMoveField = sign('To_Move', fields['To_Move'] ?? '+');
  if (toMoveField.isErr) return Result.err(toMoveField.error);
  let maxMoves: number | undefined;
  if (fields['Max_Moves'] !== undefined) {
    if (!/^\d+$/.test(fields['Max_Moves'])) return bad(`bad Max_Moves ${JSON.stringify(fields['Max_Moves'])}`);
    maxMoves = Number(fields['Max_Moves']) || undefined;
  }
  const format = fields['Format'] ?? 'Shogi 1.0';
  if (!format.startsWith('Shogi')) return bad(`unsupported Format ${JSON.stringify(format)}`);
  const known = new Set(['Protocol_Version', 'Protocol_Mode', 'Format', 'Declaration', 'Game_ID', 'Name+', 'Name-', 'Your_Turn', 'To_Move', 'Rematch_On_Draw', 'Max_Moves']);
  for (const [k, v] of Object.entries(fields)) if (!known.has(k)) extra[k] = v;

  const rule = (side: Partial<Record<keyof TimeRule, number | boolean>>): TimeRule => ({ ...DEFAULT_RULE, ...rules.both, ...side }) as TimeRule;

  // Position: board lines, then moves already played (`+7776FU,T3`, or `+7776FU` then `T3`).
  if (positionLines.length === 0) return bad('the Game_Summary has no Position block');
  const parsedPosition = parseCsaPositionBlock(positionLines);
  if (parsedPosition.isErr) return Result.err(new KishiError('ERR_GAME_SUMMARY', parsedPosition.error.message));
  const startSfen = parsedPosition.value.startSfen;
  const pos: ShogiPosition = positionFromSfen(startSfen).unwrap();
  const moves: PlayedMove[] = [];
  parsedPosition.value.moves.forEach((md, i) => {
    const csa = makeCsaMove(pos, md);
    pos.play(md);
    moves.push({ csa, usi: makeUsiMove(md), time: parsedPosition.value.times[i] });
  });

  return Result.ok({
    protocolVersion: fields['Protocol_Version'] ?? '',
    protocolMode: fields['Protocol_Mode'] ?? '',
    format,
    declaration: fields['Declaration'] ?? '',
    gameId: fields['Game_ID']!,
    blackName: fields['Name+']!,
    whiteName: fields['Name-']!,
    yourTurn: yourTurn.value,
    toMove: toMoveField.value,
    rematchOnDraw: fields['Rematch_On_Draw'] === 'YES',
    maxMoves,
    time: { black: rule(rules.black), white: rule(rules.white) },
    startSfen,
    moves,
    positionLines,
    extra,
  });
}
