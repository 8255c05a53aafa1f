/**
 * CSA records of shogi games (the CSA standard file format, V2.2 or V3.0), built on shogiops' CSA
 * notation (`shogiops/notation/csa`): the start position by `makeCsaHeader` (`PI` and `+` for the
 * standard one), every move by `makeCsaMoveOrDrop` on a shogiops position, so a move the rules do not
 * allow is an error here and never a line of the record. The callers (a `kishi match` game, a floodgate
 * game, a game on the local page) decide the names, the `$` information lines, the comments and the end;
 * this module validates and writes. Reads back with shogiops' `parseCsaHeader` / `parseCsaMovesOrDrops`.
 */
import { makeCsaHeader, makeCsaMoveOrDrop, parseCsaMoveOrDrop } from 'shogiops/notation/csa';
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { makeUsi, parseUsi } from 'shogiops/util';
import { Shogi } from 'shogiops/variant/shogi';
import { KishiError, Result } from '../core/result.js';

/** One move and what follows it. */
export interface CsaMove {
  /** The move in USI. */
  readonly usi: string;
  /** Time spent, in the record's units (`T<time>`), when known. */
  readonly time?: number;
  /**
   * The mover's search, written first as shogi-server writes it: `'** <score> <pv>`, the score in
   * centipawns from sente's view (the caller's job: see senteScore), the PV in CSA from the position
   * before the move, as far as it is legal.
   */
  readonly search?: { readonly senteScore: number; readonly pv: readonly string[] };
  /** Comment lines after the move, each starting with `'` (`'* 520ms depth 12`). */
  readonly comments?: readonly string[];
}

export interface CsaRecord {
  readonly version: '2.2' | '3.0';
  readonly names: { readonly sente: string; readonly gote: string };
  /** `$` lines in order, e.g. `['EVENT', 'kishi match']`, `['START_TIME', csaTime(date)]`. */
  readonly info: readonly (readonly [string, string])[];
  /** Comment lines before the position (`'Max_Moves:256`), each starting with `'`. */
  readonly comments?: readonly string[];
  /** `startpos` or an SFEN. */
  readonly start: string;
  readonly moves: readonly CsaMove[];
  /** The special move that ends the game (`%TORYO`, `%KACHI`...), when it ended. */
  readonly end?: string;
  /** Time spent on the special move (`T<time>` after it), when the server charged one. */
  readonly endTime?: number;
  /** Comment lines after the end. */
  readonly endComments?: readonly string[];
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY/MM/DD hh:mm:ss` in UTC (`$START_TIME`, `$END_TIME`). */
export const csaTime = (d: Date): string =>
  `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The shogiops position of a start (`startpos` or SFEN). */
export function shogiStart(start: string): Result<Shogi, KishiError> {
  if (start === 'startpos') return Result.ok(Shogi.default());
  const pos = parseSfen('standard', start);
  if (pos.isErr) return Result.err(new KishiError('ERR_SFEN', `bad SFEN ${JSON.stringify(start)}: ${pos.error.message}`));
  return Result.ok(pos.value as Shogi);
}

const STANDARD_SFEN = makeSfen(Shogi.default());

/** The record as text (LF line ends); Err at the first move that is not legal. */
export function writeCsa(r: CsaRecord): Result<string, KishiError> {
  const pos = shogiStart(r.start);
  if (pos.isErr) return Result.err(pos.error);
  const out: string[] = r.version === '3.0' ? ["'CSA encoding=UTF-8", 'V3.0'] : ['V2.2'];
  out.push(`N+${oneLine(r.names.sente)}`, `N-${oneLine(r.names.gote)}`);
  for (const [key, value] of r.info) out.push(`$${key}:${oneLine(value)}`);
  out.push(...(r.comments ?? []).map(comment));
  out.push(...(makeSfen(pos.value) === STANDARD_SFEN ? ['PI', '+'] : makeCsaHeader(pos.value).split('\n')));
  for (const [i, m] of r.moves.entries()) {
    const md = parseUsi(m.usi);
    const text = md !== undefined && pos.value.isLegal(md) ? makeCsaMoveOrDrop(pos.value, md) : undefined;
    if (md === undefined || text === undefined) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `move ${i + 1} (${m.usi}) is not legal`));
    out.push(`${pos.value.turn === 'sente' ? '+' : '-'}${text}`);
    if (m.time !== undefined) out.push(`T${m.time}`);
    if (m.search !== undefined) {
      const pv = csaLine(pos.value.clone(), m.search.pv);
      out.push(`'** ${m.search.senteScore}${pv.length > 0 ? ` ${pv.join(' ')}` : ''}`);
    }
    out.push(...(m.comments ?? []).map(comment));
    pos.value.play(md);
  }
  if (r.end !== undefined) out.push(r.end, ...(r.endTime !== undefined ? [`T${r.endTime}`] : []));
  out.push(...(r.endComments ?? []).map(comment));
  return Result.ok(`${out.join('\n')}\n`);
}

/** USI moves played on `pos` as signed CSA moves, up to the first that is not legal. */
function csaLine(pos: Shogi, usis: readonly string[]): string[] {
  const out: string[] = [];
  for (const usi of usis) {
    const md = parseUsi(usi);
    const text = md !== undefined && pos.isLegal(md) ? makeCsaMoveOrDrop(pos, md) : undefined;
    if (md === undefined || text === undefined) break;
    out.push(`${pos.turn === 'sente' ? '+' : '-'}${text}`);
    pos.play(md);
  }
  return out;
}

/** A comment line: one line, starting with `'`. */
const comment = (c: string): string => oneLine(c.startsWith("'") ? c : `'${c}`);
const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ');

/** CSA moves with their sign (`+7776FU`) from `start` as USI (shogiops); Err at the first one that is not legal. */
export function usiMoves(start: string, csaMoves: readonly string[]): Result<string[], KishiError> {
  const pos = shogiStart(start);
  if (pos.isErr) return Result.err(pos.error);
  const out: string[] = [];
  for (const [i, csa] of csaMoves.entries()) {
    const sign = pos.value.turn === 'sente' ? '+' : '-';
    const md = csa.startsWith(sign) ? parseCsaMoveOrDrop(pos.value, csa.slice(1)) : undefined;
    if (md === undefined || !pos.value.isLegal(md)) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `move ${i + 1} (${csa}) is not legal`));
    out.push(makeUsi(md));
    pos.value.play(md);
  }
  return Result.ok(out);
}
