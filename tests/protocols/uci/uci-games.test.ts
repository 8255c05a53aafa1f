/**
 * Acceptance: `kishi uci` as a child process plays complete games against Debian's Stockfish over
 * the real protocol (both colours, 2 s + 0.1 s for Kishi; Stockfish limited by nodes), plus one
 * Chess960 game (nodes on both sides); every move legal, no forfeit, the game ends by the rules or
 * by the length cap.
 * And `stop` during a deep `go infinite` returns a bestmove quickly (bound 500 ms; the figure is printed).
 */
import { describe, expect, it } from 'vitest';
import { OUTCOME_REASONS } from '../../../src/core/game.js';
import { chess960Fen } from '../../../src/games/chess/chess960.js';
import { FORFEIT_REASONS } from '../../../src/match/game-record.js';
import { STOCKFISH, externalSpec, haveEngine, kishiBuilt, kishiSpec, median, playEngineGame, replay, stopLatency, tc } from './engine-games.js';
import { describeIf, engineMissing } from '../../setup/skip.js';

/** Ends that are by the rules of chess, or the length cap of these short tests. */
const RULE_ENDS: readonly string[] = [...OUTCOME_REASONS];

/**
 * This machine has 2 cores shared by the whole test suite: a move's round trip through the pipes
 * and threads has been measured at 15 ms typically and over 300 ms in spikes under load. Kishi keeps
 * 250 ms per move for it (Move Overhead), and the match clock allows 400 ms of slack on top
 * (cutechess's timemargin) for the harness's own scheduling delays.
 */
const KISHI_OPTIONS = { Hash: '16', 'Move Overhead': '250' };
const MARGIN_MS = 400;
const STOCKFISH_OPTIONS = { Hash: '16', Threads: '1' };

describe('kishi uci is built', () => {
  it('has dist/src/cli/uci.js (the global setup builds dist/: tests/setup/build.ts)', () => {
    expect(kishiBuilt()).toBe(true);
  });
});

describeIf(haveEngine(STOCKFISH), engineMissing(STOCKFISH))('kishi uci against Stockfish', () => {
  it.each(['first', 'second'] as const)(
    'plays a complete game as %s (white/black): legal moves, no forfeit, ends by the rules',
    async (kishiSide) => {
      const { record } = await playEngineGame({
        game: 'chess',
        variant: 'standard',
        opening: { start: 'startpos', moves: [], source: 'startpos' },
        kishiSide,
        kishi: kishiSpec('uci', KISHI_OPTIONS),
        kishiTc: tc({ baseMs: 2000, incMs: 100, marginMs: MARGIN_MS }),
        opponent: externalSpec('stockfish', STOCKFISH, STOCKFISH_OPTIONS),
        opponentTc: tc({ nodes: 3000 }),
        maxMoves: 60,
      });
      const kishiMoves = record.moves.filter((_, i) => (i % 2 === 0) === (kishiSide === 'first'));
      console.log(
        `chess, kishi ${kishiSide}: ${record.end.detail} after ${record.moves.length} plies; kishi ${kishiMoves.length} moves, ` +
          `max ${Math.max(...kishiMoves.map((m) => m.elapsedMs))} ms, clock left ${kishiMoves.at(-1)?.clockMs} ms`,
      );
      expect(FORFEIT_REASONS, `${record.end.detail}\n${record.forfeit?.lines.join('\n') ?? ''}`).not.toContain(record.end.reason);
      expect([...RULE_ENDS, 'max-moves']).toContain(record.end.reason);
      const r = replay(record);
      expect(r.legal).toBe(true);
      expect(r.final).toBe(record.finalPosition);
      expect(kishiMoves.length).toBeGreaterThan(0);
    },
    90_000,
  );

  it('plays Chess960 with UCI_Chess960 (king-takes-rook castling)', async () => {
    const { record, warnings } = await playEngineGame({
      game: 'chess',
      variant: 'chess960',
      opening: { start: chess960Fen(100)!, moves: [], source: 'chess960 #100' },
      kishiSide: 'first',
      kishi: kishiSpec('uci', KISHI_OPTIONS),
      // Limited by nodes on both sides: this game is about notation, not the clock.
      kishiTc: tc({ nodes: 3000 }),
      opponent: externalSpec('stockfish', STOCKFISH, STOCKFISH_OPTIONS),
      opponentTc: tc({ nodes: 500 }),
      maxMoves: 30,
    });
    console.log(`chess960: ${record.end.detail} after ${record.moves.length} plies`);
    expect(warnings).toEqual([]);
    expect(FORFEIT_REASONS, `${record.end.detail}\n${record.forfeit?.lines.join('\n') ?? ''}`).not.toContain(record.end.reason);
    expect(replay(record).legal).toBe(true);
  }, 60_000);
});

describe('kishi uci stop latency', () => {
  it('answers isready mid-search, and stop ends a deep go infinite within 500 ms (median of 3)', async () => {
    const r = await stopLatency('uci', 'position startpos moves e2e4 e7e5 g1f3 b8c6', 9, 8000);
    console.log(`uci stop latency: ${r.latenciesMs.map((x) => x.toFixed(1)).join(', ')} ms (depths ${r.depths.join(', ')}); ${r.bestmoves[0]}`);
    expect(r.readyDuringSearch).toEqual([true, true, true]);
    for (const b of r.bestmoves) expect(b).toMatch(/^bestmove [a-h][1-8][a-h][1-8]/);
    expect(median(r.latenciesMs)).toBeLessThan(500);
  }, 60_000);
});
