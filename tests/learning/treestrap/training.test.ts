import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { createTrainingAdapter } from '../../../src/learning/treestrap/adapter-factory.js';
import type { TrainSettings } from '../../../src/learning/treestrap/checkpoint.js';
import { playTrainingGame } from '../../../src/learning/treestrap/self-play.js';
import { runTraining } from '../../../src/learning/treestrap/trainer.js';
import { loadTrainingBook, openingFor } from '../../../src/books/training-book.js';
import { TrainingSearch } from '../../../src/learning/treestrap/training-search.js';
import { freezeViolationSet, frozenViolation } from './violation-set.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'kishi-treestrap-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Positions the training games below never reach: later entries of the books. */
const EVAL_SET: Record<GameKind, { start: string; moves: string[] }[]> = {
  chess: [
    { start: 'rnbqkb1r/pppp1ppp/4pn2/8/8/3P2P1/PPP1PP1P/RNBQKBNR w KQkq - 1 3', moves: [] },
    { start: 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3', moves: [] },
    { start: 'rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5', moves: [] },
    { start: 'r2qkbnr/ppp2ppp/2np4/4p3/2B1P1b1/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 2 5', moves: [] },
  ],
  shogi: [
    { start: 'startpos', moves: ['7g7f', '8c8d', '2g2f', '8d8e', '8h7g', '3c3d', '7i6h', '2b7g+', '6h7g', '3a2b', '6i7h', '4a3b', '3i4h', '2b3c'] },
    { start: 'startpos', moves: ['7g7f', '8c8d', '2g2f', '4a3b', '2f2e', '8d8e', '8h7g', '3c3d', '7i7h', '2b7g+', '7h7g', '3a2b', '3g3f', '2b3c'] },
    { start: 'startpos', moves: ['7g7f', '8c8d', '7i6h', '3c3d', '6h7g', '4a3b', '2g2f', '3a4b', '3i4h', '7a6b', '4i5h', '7c7d', '5g5f', '6c6d'] },
  ],
};

describe('a short training run', () => {
  for (const game of ['chess', 'shogi'] as const) {
    it(`lowers the squared bound violation of a fixed evaluation set (${game}, material start, depth 2)`, () => {
      const theta = game === 'chess' ? chessMaterialTheta() : shogiMaterialTheta();
      const adapter = createTrainingAdapter(game, theta);
      const limits = { depth: 2 };
      const frozen = freezeViolationSet(adapter, EVAL_SET[game], limits).unwrap();
      const before = frozenViolation(frozen, theta);
      expect(before.visited).toBeGreaterThan(50);
      expect(before.violated).toBeGreaterThan(5);

      const book = loadTrainingBook(game, undefined, 20).unwrap();
      const search = new TrainingSearch(adapter, { method: 'treestrap-ab', eta: 5e-6, minDepth: 1, hashMb: 4 });
      let updated = 0;
      for (let i = 0; i < 2; i++) {
        const g = playTrainingGame(search, adapter, openingFor(book, 1, i), { limits, maxPlies: game === 'chess' ? 60 : 30 }).unwrap();
        updated += g.stats.violated;
      }
      expect(updated).toBeGreaterThan(50);
      const after = frozenViolation(frozen, theta);
      expect(after.visited).toBe(before.visited);
      expect(after.squaredError).toBeLessThan(before.squaredError);
    });
  }
});

const settings = (over: Partial<TrainSettings> = {}): TrainSettings => ({
  game: 'chess',
  method: 'treestrap-ab',
  init: 'random',
  eta: 5e-6,
  minDepth: 1,
  walk: 'searched',
  update: 'all', // --update's default (the paper)
  depth: 1,
  maxPlies: 24,
  hashMb: 1,
  seed: 7,
  book: 'default',
  bookSize: 10,
  frozen: ['tempo'],
  ...over,
});

const train = (outDir: string, games: number, over: Partial<TrainSettings> = {}, explicit: Partial<TrainSettings> = {}) =>
  runTraining({
    settings: settings(over),
    explicit,
    games,
    outDir,
    command: 'test',
    checkpointEvery: 1,
    evaluation: { every: 0, games: 0, nodes: 100, references: [], maxMoves: 40 },
  });

describe('the trainer', () => {
  it('resumes an interrupted run exactly where it stopped', async () => {
    const straight = tempDir();
    const a = (await train(straight, 3)).unwrap();
    expect(a.resumed).toBe(false);
    expect(a.checkpoint.gamesDone).toBe(3);

    const interrupted = tempDir();
    let calls = 0;
    const first = (
      await runTraining({
        settings: settings(),
        explicit: {},
        games: 3,
        outDir: interrupted,
        command: 'test',
        checkpointEvery: 1,
        evaluation: { every: 0, games: 0, nodes: 100, references: [], maxMoves: 40 },
        shouldStop: () => ++calls > 1,
      })
    ).unwrap();
    expect(first.stoppedEarly).toBe(true);
    expect(first.checkpoint.gamesDone).toBe(1);
    const second = (await train(interrupted, 3)).unwrap();
    expect(second.resumed).toBe(true);
    expect(second.checkpoint.gamesDone).toBe(3);
    expect(second.checkpoint.theta).toEqual(a.checkpoint.theta);
    expect(second.checkpoint.totals.searches).toBe(a.checkpoint.totals.searches);
    expect(second.checkpoint.optimizer.steps).toBe(a.checkpoint.totals.searches);
    expect(second.checkpoint.initialTheta).toEqual(a.checkpoint.initialTheta);
    expect(readFileSync(join(interrupted, 'games.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    // The weights file is a valid weights file with provenance.
    const w = JSON.parse(readFileSync(join(interrupted, 'weights.json'), 'utf8')) as { manifest: { provenance: { method: string; games: number } } };
    expect(w.manifest.provenance).toMatchObject({ method: 'treestrap-ab', games: 3 });
  });

  it('refuses to resume with different explicit settings', async () => {
    const dir = tempDir();
    (await train(dir, 1)).unwrap();
    const r = await train(dir, 2, { depth: 2 }, { depth: 2 });
    expect(r.isErr).toBe(true);
    expect(r.isErr && r.error.code).toBe('ERR_CHECKPOINT_MISMATCH');
    expect(r.isErr && r.error.message).toContain('depth');
  });
});
