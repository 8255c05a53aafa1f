/**
 * trainer/train.py's holdout split: by default whole games are held out (bootstrap records count
 * `|moves=N`, self-play `|ply=N`, online-log records name their game), so the holdout loss is measured
 * on games the net never trained on; `--holdout-by position` keeps the old random positions, as does
 * a window too small to hold out a whole game at the share. `--holdout-every` adds the holdout losses
 * to the training history. Skipped only when KISHI_SKIP_TORCH=1 (train.py imports torch).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { runSelfplay } from '../../../src/learning/alphazero/selfplay.js';
import { resolvePython, trainScript } from '../../../src/learning/alphazero/train-process.js';
import { describeIf } from '../../setup/skip.js';
import { runProcess } from '../../setup/run-process.js';

const skip = process.env['KISHI_SKIP_TORCH'] === '1';
const NO_TORCH = 'KISHI_SKIP_TORCH=1: no Python with torch and onnx (tests/setup/prerequisites.ts)';

/** Runs `code` with train.py imported as `train`; returns its JSON output. */
const py = (code: string): unknown => {
  const prog = `import sys, json\nsys.path.insert(0, ${JSON.stringify(dirname(trainScript()))})\nimport numpy as np\nimport train\n${code}`;
  const r = spawnSync(resolvePython(process.env).unwrap(), ['-c', prog], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

// Three bootstrap games (the second starts mid-file after a jump in the counter), two self-play
// games, two positions of one online game split across the list, and two positions without counters.
const TEXTS = [
  'fen|moves=0', 'fen|moves=1', 'fen|moves=2',
  'fen|moves=5', 'fen|moves=6',
  'fen|moves=0', 'fen|moves=1',
  'sfen|ply=0|visits=64', 'sfen|ply=1|visits=70',
  'sfen|ply=0|visits=64',
  'sfen|ply=12|game=floodgate/g1|ours=1',
  'fen',
  'sfen|ply=13|game=floodgate/g1|ours=0',
  'fen',
];

describeIf(!skip, NO_TORCH)('train.py holdout split', () => {
  it('numbers the games of bootstrap, self-play and online-log records', () => {
    const ids = py(`print(json.dumps(train.game_ids(${JSON.stringify(TEXTS)}).tolist()))`) as number[];
    const same = (a: number, b: number): boolean => ids[a] === ids[b];
    expect([same(0, 1), same(1, 2), same(2, 3), same(3, 4), same(4, 5), same(5, 6)]).toEqual([true, true, false, true, false, true]);
    expect([same(6, 7), same(7, 8), same(8, 9), same(10, 12), same(9, 10), same(11, 13)]).toEqual([false, true, false, true, false, false]);
    expect(new Set(ids).size).toBe(8);
  });

  it('holds out whole games by default and single positions on request', () => {
    // 200 games of 1-6 positions each: every game lies wholly on one side of the split.
    const out = py(`
rng = np.random.default_rng(3)
texts = [f"fen|moves={k}" for g in range(200) for k in range(int(rng.integers(1, 7)))]
ids = train.game_ids(texts)
hold, tr, by = train.split_holdout(texts, 0.1, "game", np.random.default_rng(1))
held_games = set(ids[hold].tolist())
hold_p, tr_p, by_p = train.split_holdout(texts, 0.1, "position", np.random.default_rng(1))
small = texts[: int(np.flatnonzero(ids == 19)[-1]) + 1]
hold_s, tr_s, by_s = train.split_holdout(small, 0.02, "game", np.random.default_rng(1))
print(json.dumps({"by": [by, by_p, by_s], "small": [len(small), len(hold_s), len(tr_s)], "n": len(texts), "games": len(set(ids.tolist())), "hold": len(hold), "train": len(tr),
  "heldGames": len(held_games), "overlap": len(held_games & set(ids[tr].tolist())),
  "sortedDisjoint": bool(np.all(np.diff(hold) > 0) and np.all(np.diff(tr) > 0) and not set(hold.tolist()) & set(tr.tolist())),
  "posHold": len(hold_p), "posTrain": len(tr_p), "posGames": len(set(ids[hold_p].tolist()))}))`) as Record<string, number | boolean>;
    expect(out['games']).toBe(200);
    // The first 20 games (50 or more positions): 2% of them rounds to no game, so that window is split by position.
    expect(out['by']).toEqual(['game', 'position', 'position']);
    const [small, holdSmall, trainSmall] = out['small'] as unknown as number[];
    expect(small).toBeGreaterThanOrEqual(50);
    expect([holdSmall, holdSmall! + trainSmall!]).toEqual([Math.floor(small! * 0.02), small]);
    expect(out['heldGames']).toBe(20);
    expect(out['overlap']).toBe(0);
    expect(out['sortedDisjoint']).toBe(true);
    expect((out['hold'] as number) + (out['train'] as number)).toBe(out['n']);
    expect(out['posHold']).toBe(Math.floor((out['n'] as number) * 0.1));
    expect((out['posHold'] as number) + (out['posTrain'] as number)).toBe(out['n']);
    // Random positions touch far more games than a whole-game split of the same share.
    expect(out['posGames'] as number).toBeGreaterThan(20);
  });

  it('reports whole held-out games and, with --holdout-every, a holdout curve', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-az-holdout-'));
    // Games 0-4 of 12 plies, 5-9 of 7 (the scripted net never ends a game before the ply limit).
    const lengths: number[] = [];
    for (const [first, maxPlies] of [[0, 12], [5, 7]] as const) {
      const sp = (
        await runSelfplay({ game: 'chess', model: 'mock:uniform', outDir: join(dir, 'sp'), games: 5, firstGameIndex: first, workers: 0, concurrentGames: 2, playouts: 4, temperatureMoves: 4, maxPlies, gamesPerChunk: 5, seed: 7, phase: 'selfplay' })
      ).unwrap();
      lengths.push(...sp.summaries.map((g) => g.positions));
    }
    expect(lengths).toEqual([12, 12, 12, 12, 12, 7, 7, 7, 7, 7]);
    const report = join(dir, 'report.json');
    const args = [trainScript(), '--data', join(dir, 'sp'), '--steps', '3', '--batch', '4', '--blocks', '1', '--filters', '4', '--threads', '1', '--log-every', '1', '--holdout', '0.3', '--holdout-every', '2', '--report', report];
    const r = await runProcess(resolvePython(process.env).unwrap(), args);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8')) as { holdoutPositions: number; holdoutBy: string; history: { step: number; holdout?: unknown }[] };
    // 30% of 10 games = 3 whole games (21, 26, 31 or 36 positions); 30% of the positions would be 28.
    expect(rep.holdoutBy).toBe('game');
    expect([21, 26, 31, 36]).toContain(rep.holdoutPositions);
    // Holdout at step 2 only: not at 1 (not a multiple) nor at the last step (that is holdoutAfter).
    expect(rep.history.map((h) => [h.step, h.holdout !== undefined])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    expect(rep.history[1]!.holdout).toEqual({ policyLoss: expect.any(Number), valueLoss: expect.any(Number), valueMse: expect.any(Number), top1: expect.any(Number) });
  }, 120_000);
});
