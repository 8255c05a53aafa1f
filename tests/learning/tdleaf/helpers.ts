import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind, Side } from '../../../src/core/game.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { serializeWeights } from '../../../src/eval/linear/weights.js';
import type { GameLogHeader, GameLogLine, GameLogSearch } from '../../../src/records/game-log.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';

/** A move of a scripted game: the move, and for our moves the logged search. */
export interface ScriptMove {
  readonly move: string;
  readonly search?: Partial<GameLogSearch> & { readonly pv: readonly string[] };
  readonly clockMs?: { first: number; second: number };
}

export interface ScriptGame {
  readonly game?: GameKind;
  readonly variant?: string;
  readonly start: string;
  readonly ourSide: Side;
  readonly moves: readonly ScriptMove[];
  readonly winner: Side | null;
  readonly status?: string;
  readonly gameId?: string;
  readonly server?: string;
  readonly startedAt?: string;
  readonly ratings?: { first?: number; second?: number };
  readonly clock?: GameLogHeader['clock'];
}

const boardAt = (game: GameKind, start: string, moves: readonly string[]): SearchBoard => {
  if (game === 'chess') return ChessSearchBoard.fromText(start, moves, new ChessLinearEval(new Float64Array(CHESS_FEATURES.size))).unwrap();
  return ShogiSearchBoard.fromText(start, moves, new ShogiLinearEval(new Float64Array(1322))).unwrap();
};

/** The JSON lines of a scripted game (positions computed by replaying the moves). */
export function scriptLines(s: ScriptGame): GameLogLine[] {
  const game = s.game ?? 'chess';
  const header: GameLogHeader = {
    type: 'header',
    version: 1,
    game,
    variant: s.variant ?? (s.start === 'startpos' ? 'standard' : game === 'chess' ? 'fromPosition' : 'standard'),
    server: s.server ?? 'lichess',
    gameId: s.gameId ?? 'toy',
    start: s.start,
    ourSide: s.ourSide,
    players: {
      first: { name: s.ourSide === 'first' ? 'kishi' : 'opp', ...(s.ratings?.first !== undefined ? { rating: s.ratings.first } : {}) },
      second: { name: s.ourSide === 'second' ? 'kishi' : 'opp', ...(s.ratings?.second !== undefined ? { rating: s.ratings.second } : {}) },
    },
    ...(s.clock ? { clock: s.clock } : {}),
    startedAt: s.startedAt ?? '2026-01-01T00:00:00.000Z',
  };
  const lines: GameLogLine[] = [header];
  const played: string[] = [];
  s.moves.forEach((m, ply) => {
    const board = boardAt(game, s.start, played);
    const side: Side = board.sideToMove() === 0 ? 'first' : 'second';
    const ours = side === s.ourSide;
    let search: GameLogSearch | undefined;
    if (m.search) {
      const leaf = boardAt(game, s.start, [...played, ...m.search.pv]);
      search = { score: { cp: 0 }, depth: 1, nodes: 1, timeMs: 1, ...m.search, pv: [...m.search.pv], pvLeaf: m.search.pvLeaf ?? leaf.toText() };
    }
    lines.push({ type: 'move', ply, side, move: m.move, ours, position: board.toText(), ...(m.clockMs ? { clockMs: m.clockMs } : {}), ...(search ? { search } : {}) });
    played.push(m.move);
  });
  lines.push({ type: 'result', winner: s.winner, status: s.status ?? 'resign', plies: s.moves.length, endedAt: '2026-01-01T00:10:00.000Z' });
  return lines;
}

export const linesText = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** Writes a scripted game's log as `<dir>/<name>.jsonl`; returns the path. */
export function writeScript(dir: string, name: string, s: ScriptGame): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, linesText(scriptLines(s)));
  return file;
}

/** Writes a weights file for the chess feature set with the named weights. */
export function writeChessWeights(file: string, named: Record<string, number>, method = 'material'): Float64Array {
  const theta = new Float64Array(CHESS_FEATURES.size);
  for (const [k, v] of Object.entries(named)) theta[CHESS_FEATURES.indexOf.get(k)!] = v;
  writeFileSync(file, serializeWeights(CHESS_FEATURES, theta, { method, date: '2026-01-01' }));
  return theta;
}

export const MATERIAL = { 'material.pawn': 100, 'material.knight': 300, 'material.bishop': 300, 'material.rook': 500, 'material.queen': 900 };

/**
 * The toy game of the hand computation: white (us) Ke1 Nc3 Pa2 against Ke8 pd5 ph5. Our three moves
 * win both pawns; the principal variations end in quiet positions whose material is known:
 *   leaf 0 (after c3d5 e8d7 d5f4): N+P v P   -> H = 300
 *   leaf 1 (after d5f4 d7c6 f4h5): N+P v -   -> H = 400
 *   leaf 2 (after f4h5 c6b5):      N+P v -   -> H = 400
 * and black resigns (r = +1).
 */
export const TOY_GAME: ScriptGame = {
  start: '4k3/8/8/3p3p/8/2N5/P7/4K3 w - - 0 1',
  ourSide: 'first',
  moves: [
    { move: 'c3d5', search: { pv: ['c3d5', 'e8d7', 'd5f4'], score: { cp: 300 } } },
    { move: 'e8d7' },
    { move: 'd5f4', search: { pv: ['d5f4', 'd7c6', 'f4h5'], score: { cp: 400 } } },
    { move: 'd7c6' },
    { move: 'f4h5', search: { pv: ['f4h5', 'c6b5'], score: { cp: 400 } } },
  ],
  winner: 'first',
  status: 'resign',
};
