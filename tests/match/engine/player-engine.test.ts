/**
 * In-process players in a match (the `PlayerEngine` adapter over the Player API): a simple
 * first-legal-move player plays the fake engine; one that throws is a crash, one that never answers
 * a hang. No child process for the player itself.
 */
import { describe, expect, it } from 'vitest';
import { Result } from '../../../src/core/result.js';
import { PlayerEngine } from '../../../src/match/engine/player-engine.js';
import { runMatch } from '../../../src/match/match-runner.js';
import type { MatchEngineEntry } from '../../../src/match/match-runner.js';
import { FakePlayer, legalMovesOf } from '../../fakes/player.js';
import { entry, fakeSpec, matchConfig, nodesTc } from '../helpers.js';

/** The shared fake Player: the first legal move in sorted order; or a Player that throws, or one that never answers. */
const firstMovePlayer = (behaviour: 'play' | 'throw' | 'hang' = 'play'): FakePlayer =>
  new FakePlayer({
    name: 'first-move',
    games: ['chess'],
    answer: (request) => {
      const move = legalMovesOf(request)[0]!;
      return { move, info: { depth: 1, score: { cp: 0 }, nodes: 1, nps: 1, timeMs: 0, pv: [move] } };
    },
    ...(behaviour === 'throw' ? { fail: 'search exploded' } : {}),
    ...(behaviour === 'hang' ? { think: 'hang' as const } : {}),
  });

const inProcess = (player: FakePlayer): MatchEngineEntry => ({
  spec: { name: player.name, command: 'in-process', args: [], options: {}, time: {}, kishi: false },
  tc: nodesTc(7),
  factory: async () => Result.ok(new PlayerEngine(player, { game: 'chess', variant: 'standard', graceMs: 100 })),
});

describe('in-process players', () => {
  it('plays through the Player API with the limits as SearchLimits', async () => {
    const player = firstMovePlayer();
    const m = await runMatch(matchConfig({ engines: [inProcess(player), entry(fakeSpec('fake'), nodesTc(1))], games: 2, adjudication: { maxMoves: 5 } }));
    expect(m.results.endReasons).toEqual({ 'max-moves': 2 });
    expect(m.results.forfeits).toEqual({});
    expect(player.requests[0]).toEqual({ game: 'chess', variant: 'standard', start: 'startpos', moves: [], limits: { nodes: 7 } });
    expect(m.games.map((g) => g.plies)).toEqual([10, 10]);
  });

  it('a throwing player crashes, a silent one hangs', async () => {
    const crash = await runMatch(matchConfig({ engines: [inProcess(firstMovePlayer('throw')), entry(fakeSpec('fake'), nodesTc(1))], games: 1 }));
    expect(crash.games[0]!.reason).toBe('crash');
    expect(crash.games[0]!.detail).toBe('first-move crashed: the player threw: Error: search exploded');
    const hang = await runMatch(matchConfig({ engines: [inProcess(firstMovePlayer('hang')), entry(fakeSpec('fake'), nodesTc(1))], games: 1, hangTimeoutMs: 200 }));
    expect(hang.games[0]!.reason).toBe('hang');
  });
});
