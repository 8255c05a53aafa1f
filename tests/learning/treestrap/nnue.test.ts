import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveTreestrapOptions, type TreestrapCliOptions } from '../../../src/cli/train-treestrap.js';
import type { GameKind } from '../../../src/core/game.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import { quantise } from '../../../src/eval/nnue/float-network.js';
import { serializeNetwork } from '../../../src/eval/nnue/format.js';
import type { NnueNetwork } from '../../../src/eval/nnue/network.js';
import { TrainableNetwork } from '../../../src/eval/nnue/trainable.js';
import { masterPath, parseMaster } from '../../../src/learning/nnue/network-files.js';
import { createTrainingAdapter } from '../../../src/learning/treestrap/adapter-factory.js';
import type { TrainSettings } from '../../../src/learning/treestrap/checkpoint.js';
import { runTraining } from '../../../src/learning/treestrap/trainer.js';
import { TrainingSearch } from '../../../src/learning/treestrap/training-search.js';
import { DeltaAccumulator } from '../../../src/learning/treestrap/update-rule.js';
import { loadNnueFile, nnueManifestPath, nnueOutputOf } from '../../../src/player/nnue-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { randomNetwork } from '../../eval/nnue/random-network.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'kishi-treestrap-nnue-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const REFERENCE: Record<GameKind, string> = {
  chess: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  shogi: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
};

/** A network file with its manifest in a new directory. */
const networkFile = (net: NnueNetwork): string => {
  const file = join(tempDir(), `${net.game}-start.bin`);
  writeFileSync(file, serializeNetwork(net));
  const arch = { features: net.features, hidden: net.hidden, activation: net.activation, qa: net.qa, qb: net.qb, scale: net.scale };
  const references = [{ position: REFERENCE[net.game], output: nnueOutputOf(net, REFERENCE[net.game]).unwrap() }];
  writeFileSync(nnueManifestPath(file), JSON.stringify({ format: 'kishi-nnue', version: 1, game: net.game, arch, date: '2026-01-01', references }));
  return file;
};

const settings = (network: string, over: Partial<TrainSettings> = {}): TrainSettings => ({
  game: 'chess',
  method: 'treestrap-ab',
  init: 'network',
  eta: 1e-9,
  minDepth: 1,
  walk: 'searched',
  update: 'all', // --update's default (the paper)
  depth: 2,
  maxPlies: 16,
  hashMb: 1,
  seed: 3,
  book: 'default',
  bookSize: 10,
  frozen: ['b2'],
  errorClip: 200,
  model: 'nnue',
  network,
  ...over,
});

const train = (outDir: string, network: string, games: number, shouldStop?: () => boolean) =>
  runTraining({
    settings: settings(network),
    explicit: {},
    games,
    outDir,
    command: 'test',
    checkpointEvery: 1,
    evaluation: { every: 0, games: 0, nodes: 100, references: [], maxMoves: 40 },
    ...(shouldStop !== undefined ? { shouldStop } : {}),
  });

describe('TreeStrap on the network', () => {
  it.each(['chess', 'shogi'] as const)('a %s step moves theta down the bound violations, re-quantises the network and refreshes the board', (game) => {
    const start = new TrainableNetwork(randomNetwork(game, 16, 'screlu', 5));
    const theta = start.theta.slice();
    const adapter = createTrainingAdapter(game, theta, { start, manifest: { format: 'kishi-nnue', version: 1, game, arch: start.net, references: [] } as never });
    const search = new TrainingSearch(adapter, { method: 'treestrap-ab', eta: 1e-8, minDepth: 1, hashMb: 1, walk: 'searched' });
    const board = adapter.board('startpos', game === 'chess' ? ['e2e4', 'e7e5', 'g1f3'] : ['7g7f', '3c3d', '2g2f']).unwrap();
    // The entries the step updates, frozen: positions and their bounds as visited.
    const r = search.step(board, { depth: 3 });
    expect(r.stats.violated).toBeGreaterThan(0);
    expect(r.largestChange).toBeGreaterThan(0);
    const net = (adapter as unknown as { trainable: TrainableNetwork }).trainable.net;
    expect(Array.from(net.l1w)).toEqual(Array.from(quantise(theta, start.net).l1w));
    expect(Array.from(net.l2w)).toEqual(Array.from(quantise(theta, start.net).l2w));
    // The board evaluates with the new integer network, its accumulators rebuilt.
    const fresh = game === 'chess' ? adapter.board((board as ChessSearchBoard).toText(), []).unwrap() : adapter.board((board as ShogiSearchBoard).toText(), []).unwrap();
    expect(board.evaluate()).toBe(fresh.evaluate());
    expect(board.evaluate()).not.toBe(createTrainingAdapter(game, start.theta.slice(), { start, manifest: {} as never }).board(board.toText(), []).unwrap().evaluate());
  });

  it('gradient steps with the network gradient lower the squared bound violations of fixed nodes', () => {
    const start = new TrainableNetwork(randomNetwork('chess', 16, 'screlu', 6));
    const theta = start.theta.slice();
    const adapter = createTrainingAdapter('chess', theta, { start, manifest: {} as never });
    const boards = ['startpos', 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3', '8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50'].map((f) => adapter.board(f, []).unwrap());
    const targets = [[40, 60], [-Infinity, -150], [300, Infinity]] as const;
    const phi = new SparseVector();
    const loss = (): number =>
      boards.reduce((s, b, i) => {
        const h = adapter.gradient(b, phi);
        const [lo, hi] = targets[i]!;
        const e = h > hi ? hi - h : h < lo ? lo - h : 0;
        return s + e * e;
      }, 0);
    const before = loss();
    expect(before).toBeGreaterThan(0);
    for (let k = 0; k < 5; k++) {
      const acc = new DeltaAccumulator(theta.length);
      boards.forEach((b, i) => acc.visit(phi, adapter.gradient(b, phi), targets[i]![0], targets[i]![1], 2e-7));
      acc.applyTo(theta);
      adapter.refresh(boards);
    }
    expect(loss()).toBeLessThan(before * 0.9);
  });

  it('a run writes a loadable network with its master copy, and resumes exactly where it stopped', async () => {
    const file = networkFile(randomNetwork('chess', 16, 'screlu', 9));
    const straight = tempDir();
    const a = (await train(straight, file, 2)).unwrap();
    expect(a.checkpoint.settings.model).toBe('nnue');
    expect(a.checkpoint.featureSet).toBe('nnue-chess-768x16-screlu');
    expect(a.checkpoint.theta).not.toEqual(a.checkpoint.initialTheta);
    // b2 is frozen by default (the side-to-move bias of the bounds would move it).
    expect(a.checkpoint.theta[a.checkpoint.theta.length - 1]).toBe(a.checkpoint.initialTheta[a.checkpoint.initialTheta.length - 1]);
    const out = join(straight, 'weights.bin');
    const loaded = loadNnueFile(out, 'chess').unwrap();
    expect((loaded.manifest as unknown as { learning: { method: string; games: number } }).learning).toMatchObject({ method: 'treestrap-ab', games: 2 });
    const master = parseMaster(new Uint8Array(readFileSync(masterPath(out))), loaded.bytes, a.checkpoint.theta.length).unwrap();
    expect(Array.from(master)).toEqual(a.checkpoint.theta);

    const interrupted = tempDir();
    let calls = 0;
    const first = (await train(interrupted, file, 2, () => ++calls > 1)).unwrap();
    expect(first.checkpoint.gamesDone).toBe(1);
    const second = (await train(interrupted, file, 2)).unwrap();
    expect(second.resumed).toBe(true);
    expect(second.checkpoint.theta).toEqual(a.checkpoint.theta);
    expect(readFileSync(join(interrupted, 'weights.bin'))).toEqual(readFileSync(out));
  });
});

describe('kishi train treestrap --model nnue options', () => {
  const defaults: TreestrapCliOptions = {
    game: 'chess', method: 'treestrap-ab', init: 'random', games: '10', minDepth: '1', walk: 'searched', update: 'all', hash: '16', seed: '1', bookSize: '100',
    eval: 'log', evalGames: '20', evalNodes: '5000', evalAgainst: 'previous,material', evalMaxMoves: '150', checkpointEvery: '1', freeze: 'tempo', out: 'runs/x', progress: true,
  };
  it('start from the network (default models/<game>-nnue.bin), freeze b2, and refuse --init or a --network without nnue', () => {
    const r = resolveTreestrapOptions({ ...defaults, model: 'nnue' }, () => false).unwrap();
    expect(r.settings).toMatchObject({ model: 'nnue', network: 'models/chess-nnue.bin', init: 'network', frozen: ['b2'] });
    expect(resolveTreestrapOptions({ ...defaults, model: 'nnue', network: 'n.bin', freeze: 'none' }, (k) => k === 'freeze').unwrap().settings).toMatchObject({ network: 'n.bin', frozen: [] });
    const withInit = resolveTreestrapOptions({ ...defaults, model: 'nnue' }, (k) => k === 'init');
    expect(withInit.isErr && withInit.error.message).toContain('--init');
    const stray = resolveTreestrapOptions({ ...defaults, network: 'n.bin' }, () => false);
    expect(stray.isErr && stray.error.message).toContain('--network goes with --model nnue');
  });
});
