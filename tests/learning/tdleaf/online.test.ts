import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import type { GameKind } from '../../../src/core/game.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { parseWeights, serializeWeights } from '../../../src/eval/linear/weights.js';
import { historyPath, onGameFinished, weightsStamp, type OnlineConfig } from '../../../src/learning/tdleaf/online.js';
import { reloadingPlayerFactory } from '../../../src/learning/tdleaf/reloading-player.js';
import { previousVersionPath } from '../../../src/core/atomic-write.js';
import { createAlphaBetaPlayer } from '../../../src/player/factory.js';
import type { Player } from '../../../src/player/player.js';
import { MATERIAL, TOY_GAME, writeChessWeights, writeScript, type ScriptGame } from './helpers.js';

const defaults = parseConfig('').unwrap();

function setup(learning: Partial<OnlineConfig['learning']> = {}): { dir: string; weights: string; config: OnlineConfig; original: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kishi-online-'));
  const weights = join(dir, 'chess-live.json');
  writeChessWeights(weights, MATERIAL);
  const config: OnlineConfig = {
    engine: { ...defaults.engine, chessEval: 'linear', chessWeights: weights },
    learning: { ...defaults.learning, online: true, minMoves: 1, ...learning },
  };
  return { dir, weights, config, original: readFileSync(weights, 'utf8') };
}

const theta = (file: string): Float64Array => parseWeights(readFileSync(file, 'utf8'), CHESS_FEATURES, file).unwrap().theta;
const knight = CHESS_FEATURES.indexOf.get('material.knight')!;

/** The toy game lost on time, the opponent having moved last, with `ourClockMs` left on our clock. */
const lostOnTime = (ourClockMs: number): ScriptGame => ({
  ...TOY_GAME,
  gameId: `flag-${ourClockMs}`,
  moves: [...TOY_GAME.moves, { move: 'c6b5', clockMs: { first: ourClockMs, second: 5000 } }],
  winner: 'second',
  status: 'outoftime',
});

describe('online TD-Leaf: onGameFinished', () => {
  it('does nothing unless learning.online is on', async () => {
    const s = setup({ online: false });
    const log = writeScript(join(s.dir, 'logs'), 'g', TOY_GAME);
    expect(await onGameFinished(log, s.config)).toEqual({ status: 'off', problems: [] });
    expect(readFileSync(s.weights, 'utf8')).toBe(s.original);
  });

  it('updates the live weights after a game, atomically, keeping the previous version, capped per game, once per game', async () => {
    const s = setup({ maxChangePerGameCp: 0.5 });
    const stamp = weightsStamp(s.config, 'chess');
    const log = writeScript(join(s.dir, 'logs'), 'g1', { ...TOY_GAME, gameId: 'g1' });
    const r = await onGameFinished(log, s.config);
    expect(r.status).toBe('updated');
    expect(r.gameId).toBe('g1');
    expect(r.largestChange).toBe(0.5);
    expect(weightsStamp(s.config, 'chess')).not.toBe(stamp);
    const after = theta(s.weights);
    // The game was won from +300..+400 cp: the knight gains, capped at 0.5 cp.
    expect(after[knight]).toBe(300.5);
    for (let i = 0; i < after.length; i++) expect(Math.abs(after[i]! - theta(previousVersionPath(s.weights))[i]!)).toBeLessThanOrEqual(0.5);
    expect(readFileSync(previousVersionPath(s.weights), 'utf8')).toBe(s.original);
    const manifest = parseWeights(readFileSync(s.weights, 'utf8'), CHESS_FEATURES, s.weights).unwrap().manifest;
    expect(manifest.provenance.method).toBe('tdleaf-online');
    expect(manifest.provenance.games).toBe(1);
    expect(manifest.provenance.notes).toContain('started from material (2026-01-01)');
    const history = readFileSync(historyPath(s.weights), 'utf8').trim().split('\n');
    expect(history.length).toBe(1);
    expect(JSON.parse(history[0]!)).toMatchObject({ game: 'lichess/g1', samples: 3, result: 1 });
    // The bot starts with the new weights.
    const player = createAlphaBetaPlayer({ search: 'alphabeta', hashMb: 1, moveOverheadMs: 0, chessWeights: s.weights, shogiWeights: 'x' }, 'chess');
    expect(player.isOk).toBe(true);
    await player.unwrap().close();
    // The same game again: not learnt twice.
    expect(await onGameFinished(log, s.config)).toMatchObject({ status: 'skipped', reason: 'already-learnt' });
    expect(theta(s.weights)[knight]).toBe(300.5);
  });

  it('never learns from aborted games, network losses on time, below the rating floor, or from bad logs', async () => {
    const s = setup();
    const logs = join(s.dir, 'logs');
    const skipped = async (game: ScriptGame, name: string): Promise<unknown> => (await onGameFinished(writeScript(logs, name, game), s.config)).reason;
    expect(await skipped({ ...TOY_GAME, gameId: 'ab', winner: null, status: 'aborted' }, 'ab')).toBe('aborted');
    expect(await skipped(lostOnTime(30000), 'net')).toBe('network-time-loss');
    expect(await skipped({ ...TOY_GAME, gameId: 'left', winner: 'second', status: 'timeout' }, 'left')).toBe('network-time-loss');
    const floor = setup({ ratingFloor: 1500 });
    expect((await onGameFinished(writeScript(logs, 'low', { ...TOY_GAME, gameId: 'low', ratings: { first: 1450 } }), floor.config)).reason).toBe('rating-floor');
    expect(readFileSync(s.weights, 'utf8')).toBe(s.original);
    expect(readFileSync(floor.weights, 'utf8')).toBe(floor.original);
    // Our own flag (little time left when we had to move) is a real loss: learnt.
    expect((await onGameFinished(writeScript(logs, 'flag', lostOnTime(800)), s.config)).status).toBe('updated');
    expect(theta(s.weights)[knight]).toBeLessThan(300);
    // A log that cannot be replayed.
    const bad = await onGameFinished(join(logs, 'missing.jsonl'), s.config);
    expect(bad.status).toBe('error');
    expect(bad.problems[0]).toContain('missing.jsonl: cannot read');
  });

  it('serialises games that end at once', async () => {
    const s = setup();
    const logs = join(s.dir, 'logs');
    const files = ['p1', 'p2', 'p3'].map((id) => writeScript(logs, id, { ...TOY_GAME, gameId: id }));
    const results = await Promise.all(files.map((f) => onGameFinished(f, s.config)));
    expect(results.map((r) => r.status)).toEqual(['updated', 'updated', 'updated']);
    const manifest = parseWeights(readFileSync(s.weights, 'utf8'), CHESS_FEATURES, s.weights).unwrap().manifest;
    expect(manifest.provenance.games).toBe(3);
    expect(readFileSync(historyPath(s.weights), 'utf8').trim().split('\n').length).toBe(3);
  });

  it("learns Dyna-2's long-term memory as alpha-beta's: the same update, and the next dyna2 player searches over it", async () => {
    // Issue 46 (Silver, Sutton and Mueller 2012, section 5): the short-term memory lives for a game in
    // the search; the long-term weights keep learning online after each game, whatever the search.
    const plain = setup();
    const dyna = setup();
    const game = { ...TOY_GAME, gameId: 'd2' };
    await onGameFinished(writeScript(join(plain.dir, 'logs'), 'd2', game), plain.config);
    const r = await onGameFinished(writeScript(join(dyna.dir, 'logs'), 'd2', game), { ...dyna.config, engine: { ...dyna.config.engine, search: 'dyna2' } });
    expect(r.status).toBe('updated');
    expect([...theta(dyna.weights)]).toEqual([...theta(plain.weights)]);
    expect(theta(dyna.weights)[knight]).not.toBe(300);
    const player = createAlphaBetaPlayer(
      { search: 'dyna2', hashMb: 1, moveOverheadMs: 0, chessWeights: dyna.weights, shogiWeights: 'x', tdSimulations: 8, tdEpisodePlies: 4 },
      'chess',
    ).unwrap();
    const strings: string[] = [];
    const move = await player.go({ game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4', 'e7e5', 'g1f3', 'd8g5'], limits: { depth: 2 } }, (i) => {
      if (i.string !== undefined) strings.push(i.string);
    });
    await player.close();
    expect(strings).toEqual([expect.stringMatching(/^td search: 8 simulations of /)]);
    // The queen hangs to the knight: taken over long-term plus short-term.
    expect(move.move).toBe('f3g5');
  });

  it("keeps the weights' evaluation grain (manifest.evalGrain) across updates", async () => {
    const s = setup();
    const named = parseWeights(s.original, CHESS_FEATURES, s.weights).unwrap();
    writeFileSync(s.weights, serializeWeights(CHESS_FEATURES, named.theta, named.manifest.provenance, 10));
    const r = await onGameFinished(writeScript(join(s.dir, 'logs'), 'grain', { ...TOY_GAME, gameId: 'grain' }), s.config);
    expect(r.status).toBe('updated');
    const after = parseWeights(readFileSync(s.weights, 'utf8'), CHESS_FEATURES, s.weights).unwrap();
    expect(after.manifest.evalGrain).toBe(10);
    // Learning never rounds: the same update as without a grain.
    const plain = setup();
    await onGameFinished(writeScript(join(plain.dir, 'logs'), 'grain', { ...TOY_GAME, gameId: 'grain' }), plain.config);
    expect([...after.theta]).toEqual([...theta(plain.weights)]);
    expect(after.theta[knight]).not.toBe(300);
  });
});

describe('reloadingPlayerFactory', () => {
  it('a pooled Player reloads its engine at newGame after the weights changed', async () => {
    let stamp = 'v1';
    const made: string[] = [];
    const closed: string[] = [];
    const fake = async (game: GameKind): Promise<Player> => {
      const name = `engine-${made.length + 1}-${stamp}`;
      made.push(name);
      return {
        name,
        supports: (g) => g === game,
        go: async () => ({ move: name }),
        stop: () => {},
        ponderhit: () => {},
        newGame: async () => {},
        close: async () => void closed.push(name),
      };
    };
    const factory = reloadingPlayerFactory(fake, () => stamp);
    const p = await factory('chess', 'standard');
    await p.newGame();
    expect((await p.go({ game: 'chess', variant: 'standard', start: 'startpos', moves: [] })).move).toBe('engine-1-v1');
    stamp = 'v2';
    expect(p.name).toBe('engine-1-v1');
    await p.newGame();
    expect(p.name).toBe('engine-2-v2');
    expect(closed).toEqual(['engine-1-v1']);
    await p.newGame();
    expect(made.length).toBe(2);
    await p.close();
    expect(closed).toEqual(['engine-1-v1', 'engine-2-v2']);
  });
});
