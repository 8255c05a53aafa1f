/**
 * The PyTorch trainer's export against the TypeScript inference: tiny datagen runs (both games),
 * a few training steps, then the exported network and manifest must load, which recomputes every
 * reference output with this build's inference and requires equality (bit-exact).
 * Needs a Python with torch (resolvePython: KISHI_PYTHON, /usr/bin/python3, python3); skipped with
 * the reason printed when there is none.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { resolvePython } from '../../../src/learning/alphazero/train-process.js';
import { chunkBytes, chunkFileName } from '../../../src/learning/datagen/chunk.js';
import { defaultGameSettings } from '../../../src/learning/datagen/datagen-game.js';
import { runDatagen } from '../../../src/learning/datagen/datagen-run.js';
import { recordsFromLabels } from '../../../src/learning/datagen/label-records.js';
import { loadTrainingBook } from '../../../src/books/training-book.js';
import type { Opening } from '../../../src/books/openings.js';
import { loadNnueFile, nnueOutputOf } from '../../../src/player/nnue-file.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';
import { describeIf } from '../../setup/skip.js';
import { runProcess } from '../../setup/run-process.js';
import { mirrorFen } from './mirror-fen.js';

const python = resolvePython(process.env);
const NO_PYTHON = python.isErr ? python.error.message : '';
if (python.isErr) console.warn(`trainer-export.test.ts skipped: ${python.error.message}`);

const makeData = (game: GameKind, dir: string): void => {
  const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
  const openings: readonly Opening[] = game === 'chess' ? loadTrainingBook('chess', undefined, 20).unwrap().openings : [{ start: 'startpos', moves: [], source: 'startpos' }];
  const ce = game === 'chess' ? new ChessLinearEval(theta) : undefined;
  const se = game === 'shogi' ? new ShogiLinearEval(theta) : undefined;
  runDatagen({
    out: dir,
    seed: 3,
    shardIndex: 0,
    shardCount: 1,
    gamesPerChunk: 2,
    targetPositions: 1e9,
    maxChunks: 3,
    settings: { ...defaultGameSettings(game), nodes: 100, maxPlies: 60 },
    openings,
    makeBoard: (o) => (game === 'chess' ? ChessSearchBoard.fromText(o.start, o.moves, ce!).unwrap() : ShogiSearchBoard.fromText(o.start, o.moves, se!).unwrap()),
    search: new AlphaBetaSearch(new TranspositionTable(1)),
  }).unwrap();
};

describeIf(python.isOk, NO_PYTHON)('nnue_train.py export matches the TypeScript inference bit for bit', () => {
  it.each([
    ['chess', 'screlu', 'base', 1],
    ['chess', 'screlu', 'base', 8],
    ['chess', 'screlu', 'king-bucket-4', 8],
    ['shogi', 'crelu', 'base', 1],
    ['shogi', 'screlu', 'king-bucket-9', 1],
    ['shogi', 'screlu', 'king-zone', 1],
  ] as const)('%s %s %s, %i output bucket(s)', async (game, activation, features, buckets) => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-nnue-train-'));
    makeData(game, join(dir, 'data'));
    const out = join(dir, `${game}.bin`);
    const r = await runProcess(
      python.unwrap(),
      ['trainer/nnue_train.py', '--game', game, '--data', join(dir, 'data'), '--out', out, '--hidden', '8', '--activation', activation, '--epochs', '2', '--batch', '64', '--val-every', '3', '--lr', '0.05', '--references', '24', '--features', features, '--output-buckets', String(buckets)],
      { timeout: 300_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const loaded = loadNnueFile(out, game);
    expect(loaded.isOk, loaded.isErr ? loaded.error.message : '').toBe(true);
    expect(loaded.unwrap().net.featureSet).toBe(features);
    expect(loaded.unwrap().net.outputBuckets).toBe(buckets);
    const refs = loaded.unwrap().manifest.references;
    expect(refs.length).toBeGreaterThan(10);
    // Not a constant network: the references differ.
    expect(new Set(refs.map((x) => x.output)).size).toBeGreaterThan(3);
  }, 300_000);
});

/** The files (a = 0) of the two kings of a FEN. */
const kingFiles = (fen: string): number[] =>
  fen
    .split(' ')[0]!
    .split('/')
    .flatMap((row) => [...row.replace(/[1-8]/g, (d) => '.'.repeat(Number(d)))].flatMap((c, file) => (c === 'K' || c === 'k' ? [file] : [])));

describeIf(python.isOk, NO_PYTHON)('nnue_train.py --output-buckets and --features king-bucket-4', () => {
  it('starts a bucketed or king-bucketed net from a plain one as the same function, and refuses buckets where they are not defined', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-nnue-buckets-'));
    makeData('chess', join(dir, 'data'));
    const train = (out: string, ...extra: string[]) =>
      runProcess(python.unwrap(), ['trainer/nnue_train.py', '--game', 'chess', '--data', join(dir, 'data'), '--out', out, '--hidden', '8', '--batch', '64', '--val-every', '3', '--references', '24', ...extra], {
        timeout: 300_000,
      });
    const plain = join(dir, 'plain.bin');
    const r1 = await train(plain, '--epochs', '1', '--lr', '0.05');
    expect(r1.status, r1.stderr).toBe(0);
    // No training step: the 8 output layers are copies of the one, so every output is the plain net's.
    const copied = join(dir, 'copied.bin');
    const r2 = await train(copied, '--epochs', '1', '--steps', '0', '--init', plain, '--output-buckets', '8');
    expect(r2.status, r2.stderr).toBe(0);
    const a = loadNnueFile(plain, 'chess').unwrap().net;
    const b = loadNnueFile(copied, 'chess').unwrap();
    expect(b.net.outputBuckets).toBe(8);
    expect(b.manifest.references.length).toBeGreaterThan(10);
    for (const r of b.manifest.references) expect(nnueOutputOf(a, r.position).unwrap()).toBe(r.output);
    // A base net starts king-bucket-4 as its factoriser: where neither king is mirrored the output is
    // the base net's, where both are (files e-h) it is the base net's on the mirror image.
    const kb = join(dir, 'kb.bin');
    const r3 = await train(kb, '--epochs', '1', '--steps', '0', '--init', plain, '--output-buckets', '8', '--features', 'king-bucket-4', '--references', '64');
    expect(r3.status, r3.stderr).toBe(0);
    const k = loadNnueFile(kb, 'chess').unwrap();
    expect(k.net.featureSet).toBe('king-bucket-4');
    let checked = 0;
    for (const r of k.manifest.references) {
      const kings = kingFiles(r.position);
      if (kings.every((f) => f < 4)) expect(nnueOutputOf(a, r.position).unwrap()).toBe(r.output);
      else if (kings.every((f) => f >= 4)) expect(nnueOutputOf(a, mirrorFen(r.position)).unwrap()).toBe(r.output);
      else continue;
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    const shogi = await runProcess(python.unwrap(), ['trainer/nnue_train.py', '--game', 'shogi', '--data', join(dir, 'data'), '--out', join(dir, 's.bin'), '--output-buckets', '8'], { timeout: 60_000 });
    expect(shogi.status).toBe(2);
    expect(shogi.stderr).toMatch(/--output-buckets 8: 1 to 16, and more than 1 only for chess/);
  }, 300_000);
});

describeIf(python.isOk, NO_PYTHON)('nnue_train.py on chunks made from policy labels', () => {
  it('refuses to fit K or mix in results it does not have, and trains on the scores with a given K, into a folder it makes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-nnue-labels-'));
    const data = join(dir, 'data');
    mkdirSync(data);
    const theta = loadWeightsFile('models/shogi-linear.json', 'shogi').unwrap().theta;
    const se = new ShogiLinearEval(theta);
    const start = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
    const moves = ['7g7f', '2g2f', '5g5f', '1g1f', '9g9f', '3g3f', '6i7h', '4i5h'];
    for (let c = 0; c < 3; c++) {
      const labels = moves.map((m, i) => ({ position: ShogiSearchBoard.fromText(start, [m], se).unwrap().toText(), moves: ['5c5d'], target: 0, score: 10 * i - 20 * c }));
      const r = recordsFromLabels('shogi', labels, (p) => ShogiSearchBoard.fromText(p, [], se)).unwrap();
      writeFileSync(join(data, chunkFileName('shogi', 0, 1, c)), chunkBytes({ game: 'shogi', chunkIndex: c, shardIndex: 0, shardCount: 1, games: 0, seed: 0 }, r.records));
    }
    const run = (...extra: string[]) =>
      runProcess(python.unwrap(), ['trainer/nnue_train.py', '--game', 'shogi', '--data', data, '--out', join(dir, 'new', 'n.bin'), '--hidden', '8', '--epochs', '1', '--batch', '8', '--val-every', '3', ...extra], { timeout: 300_000 });
    for (const extra of [[], ['--k', '1155', '--lambda', '0.7']]) {
      const r = await run(...extra);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/3 chunks hold no game results .*--lambda 1\.0 and a given --k/);
    }
    const ok = await run('--k', '1155', '--lambda', '1.0');
    expect(ok.status, ok.stderr).toBe(0);
    expect(loadNnueFile(join(dir, 'new', 'n.bin'), 'shogi').isOk).toBe(true);
  }, 300_000);
});

/** Whether neither king of a shogi SFEN stands where king-bucket-9 mirrors its own view (sente on files 4-1, gote on files 9-6). */
const shogiKingsUnmirrored = (sfen: string): boolean =>
  sfen
    .split(' ')[0]!
    .split('/')
    .every((row) => {
      const cells = [...row.replace(/\+/g, '').replace(/[1-9]/g, (d) => '.'.repeat(Number(d)))];
      return cells.every((c, col) => (c === 'K' ? col <= 4 : c === 'k' ? col >= 4 : true));
    });

describeIf(python.isOk, NO_PYTHON)('nnue_train.py --features king-bucket-9 --init from a king-zone net', () => {
  it('starts the factoriser from the base rows, so that the new net is the old one without its zone rows where no king is mirrored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-nnue-kz-kb9-'));
    makeData('shogi', join(dir, 'data'));
    const train = (out: string, ...extra: string[]) =>
      runProcess(python.unwrap(), ['trainer/nnue_train.py', '--game', 'shogi', '--data', join(dir, 'data'), '--out', out, '--hidden', '8', '--batch', '64', '--val-every', '3', '--references', '64', ...extra], {
        timeout: 300_000,
      });
    const kzFile = join(dir, 'kz.bin');
    const r1 = await train(kzFile, '--features', 'king-zone', '--epochs', '1', '--lr', '0.05');
    expect(r1.status, r1.stderr).toBe(0);
    const kbFile = join(dir, 'kb.bin');
    const r2 = await train(kbFile, '--features', 'king-bucket-9', '--epochs', '1', '--steps', '0', '--init', kzFile);
    expect(r2.status, r2.stderr).toBe(0);
    expect(r2.stderr).toMatch(/as the factoriser/);
    const kz = loadNnueFile(kzFile, 'shogi').unwrap().net;
    // The king-zone net with its zone rows (every row past the 2344 board-hand features) set to zero.
    const base = 2344;
    const l1w = Int16Array.from(kz.l1w);
    l1w.fill(0, base * kz.hidden);
    const kzBase = { ...kz, l1w };
    expect(kz.l1w.subarray(base * kz.hidden).some((w) => w !== 0)).toBe(true);
    const kb = loadNnueFile(kbFile, 'shogi').unwrap();
    expect(kb.net.featureSet).toBe('king-bucket-9');
    let checked = 0;
    for (const r of kb.manifest.references) {
      if (!shogiKingsUnmirrored(r.position)) continue;
      expect(nnueOutputOf(kzBase, r.position).unwrap(), r.position).toBe(r.output);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    // A net wider than the training (H = 8 into H = 4) does not start it.
    const wide = await train(join(dir, 'narrow.bin'), '--features', 'king-bucket-9', '--hidden', '4', '--epochs', '1', '--steps', '0', '--init', kzFile);
    expect(wide.status).toBe(2);
    expect(wide.stderr).toMatch(/does not fit this training/);
  }, 300_000);
});
