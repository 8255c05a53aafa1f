/**
 * Acceptance: `kishi uci` and `kishi usi` with `Search mcts` (the shipped nets, in the MCTS worker)
 * play complete games against Debian's Stockfish / fairy-stockfish (limited by nodes) over the
 * real protocols, on a clock: every move legal, no time forfeit, no crash. Games are capped in
 * length to keep the suite short; the cap is a normal end here.
 */
import { existsSync } from 'node:fs';
import { expect, } from 'vitest';
import { OUTCOME_REASONS } from '../../../src/core/game.js';
import { FORFEIT_REASONS } from '../../../src/match/game-record.js';
import { FAIRY, STOCKFISH, externalSpec, haveEngine, kishiSpec, playEngineGame, replay, tc } from '../../protocols/uci/engine-games.js';
import { describeIf, engineMissing, itIf } from '../../setup/skip.js';

const haveModels = existsSync('models/chess.onnx') && existsSync('models/shogi.onnx');
const MARGIN_MS = 400;

describeIf(haveModels, 'models/chess.onnx or models/shogi.onnx not found')('kishi with Search mcts against Stockfish / fairy-stockfish', () => {
  itIf(haveEngine(STOCKFISH), engineMissing(STOCKFISH))(
    'chess: a game on 10 s + 0.1 s, legal moves, no forfeit',
    async () => {
      const { record, warnings } = await playEngineGame({
        game: 'chess',
        variant: 'standard',
        opening: { start: 'startpos', moves: [], source: 'startpos' },
        kishiSide: 'first',
        kishi: kishiSpec('uci', { Hash: '16', 'Move Overhead': '250', Search: 'mcts' }),
        kishiTc: tc({ baseMs: 10_000, incMs: 100, marginMs: MARGIN_MS }),
        opponent: externalSpec('stockfish', STOCKFISH, { Hash: '16', Threads: '1' }),
        opponentTc: tc({ nodes: 1000 }),
        maxMoves: 40,
      });
      const ours = record.moves.filter((_, i) => i % 2 === 0);
      console.log(`mcts chess: ${record.end.detail} after ${record.moves.length} plies; max ${Math.max(...ours.map((m) => m.elapsedMs))} ms, clock left ${ours.at(-1)?.clockMs} ms`);
      expect(warnings).toEqual([]);
      expect(FORFEIT_REASONS, `${record.end.detail}\n${record.forfeit?.lines.join('\n') ?? ''}`).not.toContain(record.end.reason);
      expect([...OUTCOME_REASONS, 'max-moves', 'resign']).toContain(record.end.reason);
      expect(replay(record).legal).toBe(true);
    },
    100_000,
  );

  itIf(haveEngine(FAIRY), engineMissing(FAIRY))(
    'shogi: a game on 10 s + 0.5 s byoyomi, legal moves, no forfeit',
    async () => {
      const { record, warnings } = await playEngineGame({
        game: 'shogi',
        variant: 'standard',
        opening: { start: 'startpos', moves: [], source: 'startpos' },
        kishiSide: 'second',
        kishi: kishiSpec('usi', { USI_Hash: '16', MoveOverhead: '250', Search: 'mcts' }),
        kishiTc: tc({ baseMs: 10_000, byoyomiMs: 500, marginMs: MARGIN_MS }),
        opponent: externalSpec('fairy-stockfish', FAIRY, { Hash: '16', Threads: '1' }),
        opponentTc: tc({ nodes: 3000 }),
        maxMoves: 40,
      });
      const ours = record.moves.filter((_, i) => i % 2 === 1);
      console.log(`mcts shogi: ${record.end.detail} after ${record.moves.length} plies; max ${Math.max(...ours.map((m) => m.elapsedMs))} ms, clock left ${ours.at(-1)?.clockMs} ms`);
      expect(warnings).toEqual([]);
      expect(FORFEIT_REASONS, `${record.end.detail}\n${record.forfeit?.lines.join('\n') ?? ''}`).not.toContain(record.end.reason);
      expect([...OUTCOME_REASONS, 'max-moves', 'resign']).toContain(record.end.reason);
      expect(replay(record).legal).toBe(true);
    },
    100_000,
  );
});
