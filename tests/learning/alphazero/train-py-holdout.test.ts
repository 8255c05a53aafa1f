/**
 * scripts/train.py's holdout split: by default whole games are held out (bootstrap records count
 * `|moves=N`, self-play `|ply=N`, online-log records name their game), so the holdout loss is measured
 * on games the net never trained on; `--holdout-by position` keeps the old random positions.
 * Skipped only when KISHI_SKIP_TORCH=1 (train.py imports torch).
 */
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePython, trainScript } from '../../../src/learning/alphazero/train-process.js';

const skip = process.env['KISHI_SKIP_TORCH'] === '1';

/** Runs `code` with train.py imported as `train`; returns its JSON output. */
const py = (code: string): unknown => {
  const prog = `import sys, json\nsys.path.insert(0, ${JSON.stringify(dirname(trainScript()))})\nimport numpy as np\nimport train\n${code}`;
  const r = spawnSync(resolvePython().unwrap(), ['-c', prog], { encoding: 'utf8' });
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

describe.skipIf(skip)('train.py holdout split', () => {
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
hold, tr = train.split_holdout(texts, 0.1, "game", np.random.default_rng(1))
held_games = set(ids[hold].tolist())
hold_p, tr_p = train.split_holdout(texts, 0.1, "position", np.random.default_rng(1))
print(json.dumps({"n": len(texts), "games": len(set(ids.tolist())), "hold": len(hold), "train": len(tr),
  "heldGames": len(held_games), "overlap": len(held_games & set(ids[tr].tolist())),
  "sortedDisjoint": bool(np.all(np.diff(hold) > 0) and np.all(np.diff(tr) > 0) and not set(hold.tolist()) & set(tr.tolist())),
  "posHold": len(hold_p), "posTrain": len(tr_p), "posGames": len(set(ids[hold_p].tolist()))}))`) as Record<string, number | boolean>;
    expect(out['games']).toBe(200);
    expect(out['heldGames']).toBe(20);
    expect(out['overlap']).toBe(0);
    expect(out['sortedDisjoint']).toBe(true);
    expect((out['hold'] as number) + (out['train'] as number)).toBe(out['n']);
    expect(out['posHold']).toBe(Math.floor((out['n'] as number) * 0.1));
    expect((out['posHold'] as number) + (out['posTrain'] as number)).toBe(out['n']);
    // Random positions touch far more games than a whole-game split of the same share.
    expect(out['posGames'] as number).toBeGreaterThan(20);
  });
});
