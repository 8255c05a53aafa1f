/**
 * A CSA game record (format V2.2) of one server game: the server's times (`T` lines, as charged by the
 * server), our search comments (`'** <cp> <pv>`, as shogi-server writes them in its own records), and the
 * end of the game. Written by the records module: the start position and every move the server echoed
 * are read and written again by shogiops (src/records/csa.ts), so a record never holds a move the rules
 * refuse. Pure: building the text does no I/O; `writeCsaRecord` writes it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { csaTime, usiMoves, writeCsa } from '../../records/csa.js';
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

const timeComments = (rule: TimeRule, suffix: string): string[] => [
  `'Time_Unit${suffix}:${rule.unitMs % 60_000 === 0 ? `${rule.unitMs / 60_000}min` : rule.unitMs % 1000 === 0 ? `${rule.unitMs / 1000}sec` : `${rule.unitMs}msec`}`,
  `'Total_Time${suffix}:${rule.totalTime}`,
  `'Byoyomi${suffix}:${rule.byoyomi}`,
  `'Increment${suffix}:${rule.increment}`,
  `'Least_Time_Per_Move${suffix}:${rule.leastTimePerMove}`,
];

/** The record as text, lines ending in LF; Err when a move is not legal. */
export function formatCsaRecord(r: CsaRecordInput): Result<string, KishiError> {
  const s = r.summary;
  // The start the summary's Position block gave (before the moves it may carry: they are in `moves`).
  const start = s.startSfen;
  const played = r.moves.filter((m) => !m.csa.startsWith('%'));
  // A special move (`%TORYO`, `%KACHI`) the server echoed ends the record, like `end`.
  const special = r.moves.find((m) => m.csa.startsWith('%'));
  const usis = usiMoves(start, played.map((m) => m.csa));
  if (usis.isErr) return Result.err(usis.error);
  const same = JSON.stringify(s.time.black) === JSON.stringify(s.time.white);
  const end = special?.csa ?? r.end;
  return writeCsa({
    version: '2.2',
    names: { sente: s.blackName, gote: s.whiteName },
    info: [['EVENT', s.gameId], ['START_TIME', csaTime(r.startTime)], ...(r.endTime ? [['END_TIME', csaTime(r.endTime)] as const] : [])],
    comments: [
      ...(s.maxMoves !== undefined ? [`'Max_Moves:${s.maxMoves}`] : []),
      ...(same ? timeComments(s.time.black, '') : [...timeComments(s.time.black, '+'), ...timeComments(s.time.white, '-')]),
    ],
    start,
    moves: played.map((m, i) => ({
      usi: usis.value[i]!,
      ...(m.time !== undefined ? { time: m.time } : {}),
      ...(m.comment !== undefined && m.comment.startsWith("'*") ? { comments: [`'*${m.comment.slice(1)}`] } : {}),
    })),
    ...(end !== undefined ? { end } : {}),
    ...(special?.time !== undefined ? { endTime: special.time } : {}),
    ...(r.result !== undefined ? { endComments: [`'summary:${r.result}`] } : {}),
  });
}

/** A file name for a game id (`wdoor+floodgate-300-10F+a+b+20240101120000` stays readable). */
export const recordFileName = (gameId: string): string => `${gameId.replace(/[^A-Za-z0-9_+.-]/g, '_')}.csa`;

/** Writes the record into `dir` (created if needed, never overwriting) and returns the path; throws when it cannot. */
export function writeCsaRecord(dir: string, r: CsaRecordInput): string {
  mkdirSync(dir, { recursive: true });
  const base = recordFileName(r.summary.gameId).slice(0, -'.csa'.length);
  let file = join(dir, `${base}.csa`);
  // Never overwrite an earlier record (a server may reuse an id within the same second).
  for (let n = 2; existsSync(file); n++) file = join(dir, `${base}-${n}.csa`);
  const text = formatCsaRecord(r);
  if (text.isErr) throw text.error;
  writeFileSync(file, text.value);
  return file;
}
