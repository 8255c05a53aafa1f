/**
 * The PGN of a finished chess game (pgn-record.ts writes it, pgn-file.ts saves it): the moves in SAN with
 * our clocks and searches as comments, the PV in SAN as far as it stays legal. Chess only: a shogi line
 * has no PGN (its records are CSA/KIF).
 */
import type winston from 'winston';
import type { LichessRecordsConfig } from '../../../config/sections/lichess.js';
import { ChessLine } from '../chess-line.js';
import type { LichessClient } from '../client.js';
import { savePgn } from '../pgn-file.js';
import type { PgnPlyNote } from '../pgn-record.js';
import { makePgn, pgnResult, pgnTermination } from '../pgn-record.js';
import type { Color, GameFullEvent, GameStatus } from '../types.js';
import type { GameRecorder } from './recorder.js';

export interface PgnInput {
  readonly client: LichessClient;
  readonly gameId: string;
  readonly dir: string;
  readonly records: LichessRecordsConfig;
  readonly log: winston.Logger;
  readonly full: GameFullEvent;
  readonly line: ChessLine;
  readonly ourColor: Color | undefined;
  readonly recorder: GameRecorder;
  readonly names: { me: string; opponent: string };
  readonly status: GameStatus;
  readonly winner: Color | undefined;
}

/** Writes the PGN of the game (never throws; a failure is logged). */
export function writePgn(p: PgnInput): void {
  const { full, line, recorder } = p;
  try {
    const first = line.firstMover();
    const notes: (PgnPlyNote | undefined)[] = [];
    for (let ply = 0; ply < line.plies(); ply++) {
      const mover: Color = ply % 2 === 0 ? first : first === 'white' ? 'black' : 'white';
      const clock = recorder.clocks.get(ply);
      const search = mover === p.ourColor ? recorder.searches.get(ply) : undefined;
      notes.push({
        ...(clock ? { clockMs: mover === 'white' ? clock.first : clock.second } : {}),
        ...(search ? { search, pvSan: pvToSan(line, ply, search.pv) } : {}),
      });
    }
    const tc = full.clock
      ? `${Math.round(full.clock.initial / 1000)}+${Math.round(full.clock.increment / 1000)}`
      : full.daysPerTurn !== undefined
        ? `1/${full.daysPerTurn * 86400}`
        : '-';
    const pgn = makePgn({
      event: `${full.rated ? 'Rated' : 'Casual'} ${full.speed} game`,
      site: `${p.client.baseUrl}/${p.gameId}`,
      date: new Date(full.createdAt),
      white: { name: full.white.name, ...(full.white.rating !== undefined ? { rating: full.white.rating } : {}), title: full.white.title ?? null },
      black: { name: full.black.name, ...(full.black.rating !== undefined ? { rating: full.black.rating } : {}), title: full.black.title ?? null },
      result: pgnResult(p.status, p.winner),
      variant: full.variant.key,
      initialFen: full.initialFen,
      timeControl: tc,
      termination: pgnTermination(p.status),
      sans: line.sans(),
      startFullmoves: line.startFullmoves(),
      firstMover: first,
      notes,
    });
    void savePgn({ client: p.client, dir: p.dir, gameId: p.gameId, ...p.names, records: p.records, pgn, log: p.log });
  } catch (e) {
    p.log.warn(`game ${p.gameId}: PGN write failed: ${(e as Error).message}`);
  }
}

/** A principal variation (UCI, from the position before `ply`) in SAN, as far as it stays legal. */
function pvToSan(line: ChessLine, ply: number, pv: readonly string[]): string[] {
  const probe = ChessLine.create(line.variant, line.fenAt(ply));
  if (probe.isErr) return [];
  for (const m of pv) if (probe.value.play(m).isErr) break;
  return [...probe.value.sans()];
}
