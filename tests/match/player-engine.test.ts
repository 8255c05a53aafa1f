/**
 * In-process players in a match (the `PlayerEngine` adapter over the Player API): a simple
 * first-legal-move player plays the fake engine; one that throws is a crash, one that never answers
 * a hang. No child process for the player itself.
 */
import { describe, expect, it } from 'vitest';
import type { GameKind } from '../../src/core/game.js';
import { Result } from '../../src/core/result.js';
import { PlayerEngine } from '../../src/match/player-engine.js';
import { createGame } from '../../src/match/game-factory.js';
import { runMatch } from '../../src/match/match-runner.js';
import type { MatchEngineEntry } from '../../src/match/match-runner.js';
import type { GoRequest, GoResult, Player } from '../../src/player/player.js';
import { entry, fakeSpec, matchConfig, nodesTc } from './helpers.js';

class FirstMovePlayer implements Player {
  readonly name = 'first-move';
  requests: GoRequest[] = [];
  constructor(private readonly behaviour: 'play' | 'throw' | 'hang' = 'play') {}
  supports(game: GameKind): boolean {
    return game === 'chess';
  }
  go(request: GoRequest): Promise<GoResult> {
    this.requests.push(request);
    if (this.behaviour === 'throw') return Promise.reject(new Error('search exploded'));
    if (this.behaviour === 'hang') return new Promise(() => {});
    const g = createGame('chess', 'standard', request.start).unwrap();
    for (const m of request.moves) g.play(g.parseMove(m).unwrap());
    const moves = g.legalMoves().map((m) => g.moveToText(m)).sort();
    return Promise.resolve({ move: moves[0]!, info: { depth: 1, score: { cp: 0 }, nodes: 1, nps: 1, timeMs: 0, pv: [moves[0]!] } });
  }
  stop(): void {}
  ponderhit(): void {}
  async newGame(): Promise<void> {}
  async close(): Promise<void> {}
}

const inProcess = (player: FirstMovePlayer): MatchEngineEntry => ({
  spec: { name: player.name, command: 'in-process', args: [], options: {}, time: {}, kishi: false },
  tc: nodesTc(7),
  factory: async () => Result.ok(new PlayerEngine(player, { game: 'chess', variant: 'standard', graceMs: 100 })),
});

describe('in-process players', () => {
  it('plays through the Player API with the limits as SearchLimits', async () => {
    const player = new FirstMovePlayer();
    const m = await runMatch(matchConfig({ engines: [inProcess(player), entry(fakeSpec('fake'), nodesTc(1))], games: 2, adjudication: { maxMoves: 5 } }));
    expect(m.results.endReasons).toEqual({ 'max-moves': 2 });
    expect(m.results.forfeits).toEqual({});
    expect(player.requests[0]).toEqual({ game: 'chess', variant: 'standard', start: 'startpos', moves: [], limits: { nodes: 7 } });
    expect(m.games.map((g) => g.plies)).toEqual([10, 10]);
  });

  it('a throwing player crashes, a silent one hangs', async () => {
    const crash = await runMatch(matchConfig({ engines: [inProcess(new FirstMovePlayer('throw')), entry(fakeSpec('fake'), nodesTc(1))], games: 1 }));
    expect(crash.games[0]!.reason).toBe('crash');
    expect(crash.games[0]!.detail).toBe('first-move crashed: the player threw: Error: search exploded');
    const hang = await runMatch(matchConfig({ engines: [inProcess(new FirstMovePlayer('hang')), entry(fakeSpec('fake'), nodesTc(1))], games: 1, hangTimeoutMs: 200 }));
    expect(hang.games[0]!.reason).toBe('hang');
  });
});
