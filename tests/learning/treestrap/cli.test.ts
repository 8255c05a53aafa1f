import { describe, expect, it } from 'vitest';
import { resolveTreestrapOptions, type TreestrapCliOptions } from '../../../src/cli/train-treestrap.js';

const defaults: TreestrapCliOptions = {
  game: 'chess',
  method: 'treestrap-ab',
  init: 'random',
  games: '100',
  minDepth: '1',
  walk: 'searched',
  update: 'all',
  hash: '16',
  seed: '1',
  bookSize: '100',
  eval: 'log',
  evalGames: '20',
  evalNodes: '5000',
  evalAgainst: 'previous,material',
  evalMaxMoves: '150',
  checkpointEvery: '1',
  freeze: 'tempo',
  out: 'runs/x',
  progress: true,
};

describe('kishi train treestrap options', () => {
  it('default to the paper: its step size per method, d = 1, a scaled-down Fischer clock', () => {
    const r = resolveTreestrapOptions(defaults, () => false).unwrap();
    expect(r.settings).toMatchObject({ eta: 5e-7, minDepth: 1, clock: { baseMs: 6000, incMs: 100 }, maxPlies: 300, frozen: ['tempo'] });
    expect(r.explicit).toEqual({});
    expect(resolveTreestrapOptions({ ...defaults, method: 'treestrap-minimax' }, () => false).unwrap().settings.eta).toBe(1e-6);
    expect(resolveTreestrapOptions({ ...defaults, method: 'rootstrap-ab' }, () => false).unwrap().settings.eta).toBe(1e-5);
    expect(resolveTreestrapOptions({ ...defaults, game: 'shogi' }, () => false).unwrap().settings.maxPlies).toBe(320);
  });

  it('take nodes or depth instead of the clock, and record what was given explicitly', () => {
    const o = { ...defaults, nodes: '3000', eta: '5e-6', freeze: 'none' };
    const r = resolveTreestrapOptions(o, (k) => k === 'nodes' || k === 'eta' || k === 'freeze').unwrap();
    expect(r.settings.clock).toBeUndefined();
    expect(r.settings.nodes).toBe(3000);
    expect(r.explicit).toEqual({ nodes: 3000, eta: 5e-6, frozen: [] });
  });

  it('refuse bad values with the option named', () => {
    const bad: [Partial<TreestrapCliOptions>, string][] = [
      [{ games: '0' }, '--games'],
      [{ eta: '-1' }, '--eta'],
      [{ tc: '40/60' }, '--tc'],
      [{ depth: 'x' }, '--depth'],
      [{ update: 'quiet', walk: 'all' }, '--update quiet needs --walk searched'],
    ];
    for (const [patch, what] of bad) {
      const r = resolveTreestrapOptions({ ...defaults, ...patch }, () => false);
      expect(r.isErr, what).toBe(true);
      expect(r.isErr && r.error.message).toContain(what);
    }
  });
});

describe('frozen feature patterns', () => {
  it('match exact names and prefixes ending in *, and name what matches nothing', async () => {
    const { frozenIndices } = await import('../../../src/learning/treestrap/trainer.js');
    const names = ['material.pawn', 'material.knight', 'tempo', 'hand.pawn', 'hand.pawn.ge1'];
    expect(frozenIndices(names, ['tempo', 'material.*']).unwrap()).toEqual([0, 1, 2]);
    expect(frozenIndices(names, ['hand.pawn']).unwrap()).toEqual([3]);
    const r = frozenIndices(names, ['king.*']);
    expect(r.isErr && r.error.message).toContain('king.*');
  });
});
