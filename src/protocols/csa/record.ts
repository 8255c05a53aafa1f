/**
 * A CSA game record (format V2.2) of one server game: the server's times (`T` lines, as charged by the
 * server), our search comments (`'** <cp> <pv>`, as shogi-server writes them in its own records), and the
 * end of the game. Pure: building the text does no I/O; `writeCsaRecord` writes it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameSummary, TimeRule } from './summary.js';

/** One entry of the record after the start position. */
export interface RecordMove {
  /** A CSA move with its sign (`+7776FU`) or a special move (`%TORYO`, `%KACHI`). */
  readonly csa: string;
  /** Units charged by the server, when known. */
  readonly time?: number;
  /** Our comment as sent (`'* 30 -3334FU`); written as `'** …` like the server does. */
  readonly comment?: string;
}

export interface CsaRecordInput {
  readonly summary: GameSummary;
  readonly startTime: Date;
  readonly endTime?: Date;
  readonly moves: readonly RecordMove[];
  /** Terminal line for the record (`%TORYO`, `%TIME_UP`, `%CHUDAN`…) when not among `moves`. */
  readonly end?: string;
  /** Free text for the `'summary:` comment line, e.g. `resign:bob lose:alice win`. */
  readonly result?: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const stamp = (d: Date): string =>
  `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

const timeComments = (rule: TimeRule, suffix: string): string[] => [
  `'Time_Unit${suffix}:${rule.unitMs % 60_000 === 0 ? `${rule.unitMs / 60_000}min` : rule.unitMs % 1000 === 0 ? `${rule.unitMs / 1000}sec` : `${rule.unitMs}msec`}`,
  `'Total_Time${suffix}:${rule.totalTime}`,
  `'Byoyomi${suffix}:${rule.byoyomi}`,
  `'Increment${suffix}:${rule.increment}`,
  `'Least_Time_Per_Move${suffix}:${rule.leastTimePerMove}`,
];

/** The record as text, lines ending in LF. */
export function formatCsaRecord(r: CsaRecordInput): string {
  const s = r.summary;
  const out: string[] = ['V2.2', `N+${s.blackName}`, `N-${s.whiteName}`, `$EVENT:${s.gameId}`, `$START_TIME:${stamp(r.startTime)}`];
  if (r.endTime) out.push(`$END_TIME:${stamp(r.endTime)}`);
  if (s.maxMoves !== undefined) out.push(`'Max_Moves:${s.maxMoves}`);
  const same = JSON.stringify(s.time.black) === JSON.stringify(s.time.white);
  if (same) out.push(...timeComments(s.time.black, ''));
  else out.push(...timeComments(s.time.black, '+'), ...timeComments(s.time.white, '-'));
  // The start position, without the moves the Position block may carry (they are in `moves`).
  for (const line of s.positionLines) {
    if (/^[+-]\d{4}[A-Z]{2}/.test(line) || /^T\d+$/.test(line)) break;
    out.push(line);
  }
  for (const m of r.moves) {
    out.push(m.csa);
    if (m.time !== undefined) out.push(`T${m.time}`);
    if (m.comment !== undefined && m.comment.startsWith("'*")) out.push(`'*${m.comment.slice(1)}`);
  }
  if (r.end !== undefined) out.push(r.end);
  if (r.result !== undefined) out.push(`'summary:${r.result}`);
  return out.join('\n') + '\n';
}

/** A file name for a game id (`wdoor+floodgate-300-10F+a+b+20240101120000` stays readable). */
export const recordFileName = (gameId: string): string => `${gameId.replace(/[^A-Za-z0-9_+.-]/g, '_')}.csa`;

/** Writes the record into `dir` (created if needed, never overwriting) and returns the path. */
export function writeCsaRecord(dir: string, r: CsaRecordInput): string {
  mkdirSync(dir, { recursive: true });
  const base = recordFileName(r.summary.gameId).slice(0, -'.csa'.length);
  let file = join(dir, `${base}.csa`);
  // Never overwrite an earlier record (a server may reuse an id within the same second).
  for (let n = 2; existsSync(file); n++) file = join(dir, `${base}-${n}.csa`);
  writeFileSync(file, formatCsaRecord(r));
  return file;
}
