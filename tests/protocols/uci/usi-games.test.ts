/**
 * Acceptance: `kishi usi` as a child process plays complete games against Debian's fairy-stockfish
 * (USI mode, limited by nodes) over the real protocol, both colours, one game on a Fischer clock
 * (binc/winc) and one on byoyomi; every move legal, no forfeit, the game ends by the rules or by the
 * length cap. And `stop` during a deep `go infinite` returns a bestmove quickly (bound 500 ms).
 */
import { describe, expect, it } from 'vitest';
import { OUTCOME_REASONS } from '../../../src/core/game.js';
import { FORFEIT_REASONS } from '../../../src/match/game-record.js';
import type { TimeControl } from '../../../src/match/time-control.js';
import { FAIRY, externalSpec, haveEngine, kishiSpec, median, playEngineGame, replay, stopLatency, tc } from './engine-games.js';
import { describeIf, engineMissing } from '../../setup/skip.js';

/** Round trips under load: see the note in ../uci/uci-games.test.ts. */
const KISHI_OPTIONS = { USI_Hash: '16', MoveOverhead: '250' };
const MARGIN_MS = 400;
// fairy-stockfish names its options like Stockfish (with spaces, e.g. `Debug Log File`).
const FAIRY_OPTIONS = { Hash: '16', Threads: '1' };

describeIf(haveEngine(FAIRY), engineMissing(FAIRY))('kishi usi against fairy-stockfish', () => {
  const cases: [string, 'first' | 'second', TimeControl][] = [
    ['sente, 2 s + 0.1 s Fischer (binc/winc)', 'first', tc({ baseMs: 2000, incMs: 100, marginMs: MARGIN_MS })],
    ['gote, 1 s + 0.5 s byoyomi', 'second', tc({ baseMs: 1000, byoyomiMs: 500, marginMs: MARGIN_MS })],
  ];
  it.each(cases)(
    'plays a complete game as %s: legal moves, no forfeit, ends by the rules',
    async (_, kishiSide, kishiTc) => {
      const { record, warnings } = await playEngineGame({
        game: 'shogi',
        variant: 'standard',
        opening: { start: 'startpos', moves: [], source: 'startpos' },
        kishiSide,
        kishi: kishiSpec('usi', KISHI_OPTIONS),
        kishiTc,
        opponent: externalSpec('fairy-stockfish', FAIRY, FAIRY_OPTIONS),
        opponentTc: tc({ nodes: 10000 }),
        maxMoves: 60,
      });
      const kishiMoves = record.moves.filter((_, i) => (i % 2 === 0) === (kishiSide === 'first'));
      console.log(
        `shogi, kishi ${kishiSide}: ${record.end.detail} after ${record.moves.length} plies; kishi ${kishiMoves.length} moves, ` +
          `max ${Math.max(...kishiMoves.map((m) => m.elapsedMs))} ms, clock left ${kishiMoves.at(-1)?.clockMs} ms`,
      );
      expect(warnings).toEqual([]);
      expect(FORFEIT_REASONS, `${record.end.detail}\n${record.forfeit?.lines.join('\n') ?? ''}`).not.toContain(record.end.reason);
      expect([...OUTCOME_REASONS, 'resign']).toContain(record.end.reason);
      const r = replay(record);
      expect(r.legal).toBe(true);
      expect(r.final).toBe(record.finalPosition);
    },
    90_000,
  );
});

describe('kishi usi stop latency', () => {
  it('answers isready mid-search, and stop ends a deep go infinite within 500 ms (median of 3)', async () => {
    const r = await stopLatency('usi', 'position startpos moves 7g7f 3c3d 2g2f 8c8d', 6, 8000);
    console.log(`usi stop latency: ${r.latenciesMs.map((x) => x.toFixed(1)).join(', ')} ms (depths ${r.depths.join(', ')}); ${r.bestmoves[0]}`);
    expect(r.readyDuringSearch).toEqual([true, true, true]);
    for (const b of r.bestmoves) expect(b).toMatch(/^bestmove \S+/);
    expect(median(r.latenciesMs)).toBeLessThan(500);
  }, 60_000);
});
