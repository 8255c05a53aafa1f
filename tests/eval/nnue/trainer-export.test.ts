/**
 * The PyTorch trainer's export against the TypeScript inference: tiny datagen runs (both games),
 * a few training steps, then the exported network and manifest must load, which recomputes every
 * reference output with this build's inference and requires equality (bit-exact).
 * Needs a Python with torch (resolvePython: KISHI_PYTHON, /usr/bin/python3, python3); skipped with
 * the reason printed when there is none.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { resolvePython } from '../../../src/learning/alphazero/train-process.js';
import { defaultGameSettings } from '../../../src/learning/datagen/datagen-game.js';
import { runDatagen } from '../../../src/learning/datagen/datagen-run.js';
import { loadTrainingBook } from '../../../src/learning/treestrap/training-book.js';
import type { Opening } from '../../../src/match/openings.js';
import { loadNnueFile } from '../../../src/player/nnue-file.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';

const python = resolvePython();
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

describe.skipIf(python.isErr)('nnue_train.py export matches the TypeScript inference bit for bit', () => {
  it.each([
    ['chess', 'screlu', 'base'],
    ['shogi', 'crelu', 'base'],
    ['shogi', 'screlu', 'king-bucket-9'],
    ['shogi', 'screlu', 'king-zone'],
  ] as const)('%s %s %s', (game, activation, features) => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-nnue-train-'));
    makeData(game, join(dir, 'data'));
    const out = join(dir, `${game}.bin`);
    const r = spawnSync(
      python.unwrap(),
      ['trainer/nnue_train.py', '--game', game, '--data', join(dir, 'data'), '--out', out, '--hidden', '8', '--activation', activation, '--epochs', '2', '--batch', '64', '--val-every', '3', '--lr', '0.05', '--references', '24', '--features', features],
      { encoding: 'utf8', timeout: 300_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const loaded = loadNnueFile(out, game);
    expect(loaded.isOk, loaded.isErr ? loaded.error.message : '').toBe(true);
    expect(loaded.unwrap().net.featureSet).toBe(features);
    const refs = loaded.unwrap().manifest.references;
    expect(refs.length).toBeGreaterThan(10);
    // Not a constant network: the references differ.
    expect(new Set(refs.map((x) => x.output)).size).toBeGreaterThan(3);
  }, 300_000);
});
