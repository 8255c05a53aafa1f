import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameKind, Side } from '../../../src/core/game.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { GameLogWriter } from '../../../src/records/game-log.js';
import { readGameLogFile } from '../../../src/records/game-log-reader.js';
import { gameSamples, isReplayProblem, leafEvaluator } from '../../../src/learning/tdleaf/leaf.js';
import { SIGNAL_WORDS, AlphaBetaEngine } from '../../../src/player/alphabeta-engine.js';
import { searchOptions, type SearchMode } from '../../../src/search/alphabeta/options.js';

/** Deterministic non-trivial weights: material plus small integer weights on every other feature. */
const weights = (game: GameKind): Float64Array => {
  const theta = game === 'chess' ? chessMaterialTheta() : shogiMaterialTheta();
  const names = game === 'chess' ? CHESS_FEATURES.names : SHOGI_FEATURES.names;
  let x = 12345;
  names.forEach((name, i) => {
    if (name.startsWith('material.') || name.startsWith('hand.')) return;
    x = (x * 1103515245 + 12345) % 2147483648;
    theta[i] = (x % 21) - 10;
  });
  return theta;
};

/**
 * The real engine plays both sides from `start` for `plies` plies at a fixed depth; our side's moves
 * are logged with their searches exactly as the lichess/floodgate clients log them.
 */
function playAndLog(game: GameKind, start: string, plies: number, depth: number, mode: SearchMode, theta: Float64Array): string {
  const engine = new AlphaBetaEngine({ game, theta, hashMb: 4, moveOverheadMs: 0, options: searchOptions(mode) });
  const signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  const file = join(mkdtempSync(join(tmpdir(), 'kishi-tdleaf-')), `${game}-${mode}.jsonl`);
  const ourSide: Side = 'first';
  const w = GameLogWriter.open(file, {
    type: 'header',
    version: 1,
    game,
    variant: start === 'startpos' || game === 'shogi' ? 'standard' : 'fromPosition',
    server: 'selfplay',
    gameId: `${game}-${mode}`,
    start,
    ourSide,
    players: { first: { name: 'kishi' }, second: { name: 'kishi-2' } },
    startedAt: '2026-01-01T00:00:00.000Z',
  });
  const moves: string[] = [];
  for (let ply = 0; ply < plies; ply++) {
    engine.newGame();
    const board = engine.board({ game, variant: 'standard', start, moves }).unwrap();
    const position = board.toText();
    const side: Side = board.sideToMove() === 0 ? 'first' : 'second';
    const r = engine.go({ game, variant: 'standard', start, moves, limits: { depth } }, signal).unwrap();
    const ours = side === ourSide;
    w.move({
      ply,
      side,
      move: r.move,
      ours,
      position,
      ...(ours && r.info ? { search: { score: r.info.score, depth: r.info.depth, nodes: r.info.nodes, timeMs: r.info.timeMs, pv: r.info.pv, ...(r.pvLeaf ? { pvLeaf: r.pvLeaf } : {}) } } : {}),
    });
    moves.push(r.move);
  }
  w.finish({ winner: null, status: 'draw', plies, endedAt: '2026-01-01T00:05:00.000Z' });
  return file;
}

const CHESS_MIDDLEGAME = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';

describe('leaf features recomputed from the log', () => {
  for (const [game, start, plies] of [
    ['chess', CHESS_MIDDLEGAME, 16],
    ['shogi', 'startpos', 16],
  ] as const) {
    it(`${game}: the evaluation of the recomputed leaf is the score the search logged (training search)`, () => {
      const theta = weights(game);
      const file = playAndLog(game, start, plies, 3, 'training', theta);
      const read = readGameLogFile(file);
      expect(read.problems).toEqual([]);
      const log = read.log!;
      const replay = gameSamples(log, leafEvaluator(game, theta));
      expect(isReplayProblem(replay)).toBe(false);
      if (isReplayProblem(replay)) return;
      expect(replay.samples.length).toBe(plies / 2);
      const logged = log.moves.filter((m) => m.ours).map((m) => m.search!.score);
      replay.samples.forEach((s, i) => {
        const score = logged[i]!;
        if ('mate' in score) expect(s.terminal).toBe(Math.sign(score.mate));
        // The search's evaluation is phi . theta rounded to a centipawn (fixed point for chess tables).
        else expect(Math.round(s.value)).toBe(score.cp);
      });
      // The gradient is phi of the leaf (white and black terms on mirrored squares cancel, so nearly
      // symmetric positions have few): non-trivial sparse vectors.
      expect(replay.samples.some((s) => s.features.size > 5)).toBe(true);
    });
  }

  it('chess, tournament search (null move, futility, reductions, delta pruning): the same within rounding in this game', () => {
    const theta = weights('chess');
    const file = playAndLog('chess', CHESS_MIDDLEGAME, 16, 4, 'tournament', theta);
    const log = readGameLogFile(file).log!;
    const replay = gameSamples(log, leafEvaluator('chess', theta));
    if (isReplayProblem(replay)) throw new Error(replay.message);
    // Delta pruning may in general make the engine's quiescence differ from the full one; here it did not.
    expect(replay.scoreGaps.length).toBe(8);
    for (const g of replay.scoreGaps) expect(Math.abs(g)).toBeLessThanOrEqual(0.5 + 1e-9);
  });
});
