/**
 * Self-play (src/learning/alphazero/selfplay.ts): chunks of whole games named by index range and read
 * back bit-exact, policy targets equal to the root visit distribution, disjoint files across calls,
 * playout-cap randomisation, resignation with false-positive checks, aborts, and a real shipped
 * ONNX net in a worker thread. Scripted nets (`mock:`) make the games deterministic, so the
 * counts are exact. The worker test runs compiled JavaScript from dist/ (`npx tsc -p .` first).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { encodingOf } from '../../../src/nn/manifest.js';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { chunkPlanes, chunkText, readChunk, type Chunk } from '../../../src/nn/training-chunk.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';
import { readChunkHeader, scanSelfplayChunks, selfplayChunkName } from '../../../src/learning/alphazero/selfplay-chunks.js';
import { gameSeed, playSelfplayGame, selfplaySearchOptions, startBoard } from '../../../src/learning/alphazero/selfplay-game.js';
import { resolveSelfplaySettings, runSelfplay, selfplayWorkerUrl, type SelfplayOptions } from '../../../src/learning/alphazero/selfplay.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'kishi-selfplay-'));
const load = (file: string): Chunk => readChunk(new Uint8Array(readFileSync(file))).unwrap();

const base = (game: GameKind, outDir: string, over: Partial<SelfplayOptions> = {}): SelfplayOptions => ({
  game,
  model: 'mock:uniform',
  outDir,
  games: 3,
  firstGameIndex: 0,
  workers: 0,
  concurrentGames: 2,
  playouts: 12,
  temperatureMoves: 6,
  maxPlies: 24,
  gamesPerChunk: 2,
  seed: 7,
  phase: 'selfplay',
  ...over,
});

/** Each record of a chunk: its policy target, value, result, visits (from the text). */
const records = (c: Chunk) =>
  Array.from({ length: c.header.count }, (_, i) => {
    const a = c.polStart[i]!;
    const b = c.polStart[i + 1]!;
    return {
      index: Array.from(c.polIndex.subarray(a, b)),
      prob: Array.from(c.polProb.subarray(a, b)),
      value: c.value[i]!,
      result: c.result[i]!,
      text: chunkText(c, i),
      visits: Number(/\|visits=(\d+)/.exec(chunkText(c, i))![1]),
    };
  });

describe('self-play chunks', () => {
  it('writes whole games in index-named chunks that read back bit-exact', async () => {
    const dir = tmp();
    const o = base('chess', dir);
    const r = (await runSelfplay(o)).unwrap();
    expect(r.games).toBe(3);
    expect(r.files.map((f) => basename(f))).toEqual([selfplayChunkName(0, 1), selfplayChunkName(2, 2)]);
    expect(basename(r.files[0]!)).toBe('sp-000000000-000000001.knr');
    expect(r.summaries.map((g) => g.index)).toEqual([0, 1, 2]);
    expect(r.positions).toBe(r.summaries.reduce((a, g) => a + g.positions, 0));
    expect(r.nextGameIndex).toBe(3);

    // The same games played directly give exactly what the files hold.
    const settings = resolveSelfplaySettings(o).unwrap();
    const spec = encodingOf('chess');
    const planes = new Float32Array(spec.inputSize);
    let k = 0;
    for (const file of r.files) {
      const c = load(file);
      const meta = c.header.meta as Record<string, unknown>;
      expect(meta['phase']).toBe('selfplay');
      expect(meta['model']).toBe('mock:uniform');
      expect(meta['playouts']).toBe(12);
      const games = (meta['lastGameIndex'] as number) - (meta['firstGameIndex'] as number) + 1;
      expect(meta['games']).toBe(games);
      expect((meta['gameList'] as unknown[]).length).toBe(games);
      let row = 0;
      for (let g = meta['firstGameIndex'] as number; g <= (meta['lastGameIndex'] as number); g++) {
        const direct = (await playSelfplayGame(g, settings, new MockEvaluator(spec)))!;
        expect(direct.summary).toEqual(r.summaries[k++]);
        for (let i = 0; i < direct.value.length; i++, row++) {
          chunkPlanes(c, row, planes);
          expect(planes).toEqual(direct.planes.subarray(i * spec.inputSize, (i + 1) * spec.inputSize));
          const a = direct.polStart[i]!;
          const b = direct.polStart[i + 1]!;
          expect(c.polIndex.subarray(c.polStart[row], c.polStart[row + 1])).toEqual(direct.polIndex.subarray(a, b));
          expect(c.polProb.subarray(c.polStart[row], c.polStart[row + 1])).toEqual(direct.polProb.subarray(a, b));
          expect(c.value[row]).toBe(direct.value[i]);
          expect(c.result[row]).toBe((direct.side[i] === 0 ? direct.summary.result : -direct.summary.result) + 0);
          expect(chunkText(c, row)).toBe(direct.texts[i]);
        }
      }
      expect(row).toBe(c.header.count);
    }
  });

  it('records the root visit distribution over the legal moves as the policy target', async () => {
    const dir = tmp();
    const o = base('shogi', dir, { games: 1, playouts: 16, gamesPerChunk: 1 });
    const r = (await runSelfplay(o)).unwrap();
    const c = load(r.files[0]!);
    const recs = records(c);
    expect(recs.length).toBe(r.positions);
    for (const rec of recs) {
      expect(Math.abs(rec.prob.reduce((a, p) => a + p, 0) - 1)).toBeLessThan(1e-5);
      // Every target is visits / total for whole visit counts, and the search had its playouts.
      for (const p of rec.prob) expect(Math.abs(p * rec.visits - Math.round(p * rec.visits))).toBeLessThan(1e-3);
      expect(rec.visits).toBeGreaterThanOrEqual(16);
      expect(new Set(rec.index).size).toBe(rec.index.length);
    }
    // The first position's search, repeated on its own, gives these exact visit counts over all legal moves.
    const settings = resolveSelfplaySettings(o).unwrap();
    const board = startBoard('shogi');
    const search = new MctsSearch(new MockEvaluator(board.spec), selfplaySearchOptions(settings, gameSeed(settings.seed, 0), true));
    await search.run(board, { playouts: 16 });
    const children = search.rootChildren();
    const list = new Int32Array(board.maxMoves);
    expect(children.length).toBe(board.generate(list));
    const moves = Int32Array.from(children.map((ch) => ch.move));
    const indices = new Int32Array(moves.length);
    board.moveIndices(moves, moves.length, indices);
    expect(recs[0]!.index).toEqual(Array.from(indices));
    expect(recs[0]!.visits).toBe(16);
    expect(recs[0]!.prob).toEqual(children.map((ch) => Math.fround(ch.visits / 16)));
    expect(recs[0]!.value).toBe(Math.fround(-search.tree.q(0)));
  });

  it('Gumbel: the search\'s improved policy is the policy target', async () => {
    const dir = tmp();
    const o = base('shogi', dir, { games: 1, playouts: 16, gamesPerChunk: 1, gumbelActions: 8 });
    const r = (await runSelfplay(o)).unwrap();
    const c = load(r.files[0]!);
    expect((c.header.meta as Record<string, unknown>)['gumbelActions']).toBe(8);
    const recs = records(c);
    for (const rec of recs) {
      expect(Math.abs(rec.prob.reduce((a, p) => a + p, 0) - 1)).toBeLessThan(1e-5);
      // Every legal move keeps some probability (its logit), unlike a visit distribution of 16 playouts.
      expect(rec.prob.every((p) => p > 0)).toBe(true);
    }
    // The first position's search on its own: its improved policy is the target.
    const settings = resolveSelfplaySettings(o).unwrap();
    const board = startBoard('shogi');
    const search = new MctsSearch(new MockEvaluator(board.spec), selfplaySearchOptions(settings, gameSeed(settings.seed, 0), true));
    await search.run(board, { playouts: 16 });
    expect(recs[0]!.prob).toEqual(Array.from(search.improvedPolicy()!));
    expect(search.rootChildren().filter((ch) => ch.visits > 0).length).toBe(8);
    expect(resolveSelfplaySettings({ ...o, gumbelActions: -1 }).isErr).toBe(true);
  });

  it('consecutive calls write disjoint files, count games on disk and refuse overlaps', async () => {
    const dir = tmp();
    const a = (await runSelfplay(base('chess', dir, { games: 3, firstGameIndex: 0 }))).unwrap();
    expect(scanSelfplayChunks(dir).nextGameIndex).toBe(3);
    const b = (await runSelfplay(base('chess', dir, { games: 2, firstGameIndex: 3 }))).unwrap();
    expect(b.files.map((f) => basename(f))).toEqual([selfplayChunkName(3, 4)]);
    expect(new Set([...a.files, ...b.files]).size).toBe(3);
    const scan = scanSelfplayChunks(dir);
    expect(scan.games).toBe(5);
    expect(scan.positions).toBe(a.positions + b.positions);
    expect(scan.nextGameIndex).toBe(5);
    expect(scan.chunks.map((c) => [c.first, c.last])).toEqual([
      [0, 1],
      [2, 2],
      [3, 4],
    ]);
    expect(scan.problems).toEqual([]);
    // Games 4..5 would duplicate game 4.
    const clash = await runSelfplay(base('chess', dir, { games: 2, firstGameIndex: 4 }));
    expect(clash.isErr && clash.error.code).toBe('ERR_SELFPLAY');
    expect(scanSelfplayChunks(dir).games).toBe(5);
  });

  it('records only fully searched moves under playout-cap randomisation', async () => {
    const dir = tmp();
    const r = (await runSelfplay(base('chess', dir, { games: 2, fastPlayouts: 4, fullSearchShare: 0.3, playouts: 20, maxPlies: 40 }))).unwrap();
    let recorded = 0;
    for (const f of r.files) {
      for (const rec of records(load(f))) {
        expect(rec.visits).toBeGreaterThanOrEqual(20);
        recorded++;
      }
    }
    expect(recorded).toBe(r.positions);
    const plies = r.summaries.reduce((a, g) => a + g.plies, 0);
    expect(r.positions).toBeLessThan(plies / 2);
    expect(r.positions).toBeGreaterThan(0);
    expect(readChunkHeader(r.files[0]!).unwrap().meta['fastPlayouts']).toBe(4);
  });

  it('resigns when both sides agree, and plays out a share of such games as false-positive checks', async () => {
    const dir = tmp();
    // Both sides believe the first player is lost; the games say otherwise (random play draws at the ply limit).
    const r = (
      await runSelfplay(base('chess', dir, { model: 'mock:first-loses', games: 8, resignValue: 0.8, resignPlayoutShare: 0.5, gamesPerChunk: 8, seed: 3, maxPlies: 20 }))
    ).unwrap();
    const resigned = r.summaries.filter((g) => g.resigned);
    const checks = r.summaries.filter((g) => g.falsePositiveCheck === true);
    expect(resigned.length + checks.length).toBe(8);
    expect(resigned.length).toBe(r.resigned);
    for (const g of resigned) {
      // Ply 0: the second player has not searched yet; ply 2 is the first time both agree.
      expect(g).toMatchObject({ reason: 'resign', result: -1, plies: 2 });
      expect(g.falsePositiveCheck).toBeUndefined();
    }
    for (const g of checks) expect(g.falsePositive).toBe(g.result !== -1);
    expect(r.resignFalsePositives).toEqual({ checked: checks.length, wrong: checks.filter((g) => g.result !== -1).length });
    expect(r.resignFalsePositives).toEqual({ checked: 6, wrong: 6 });
    expect(r.resigned).toBe(2);
    // Without resignation nobody resigns.
    const none = (await runSelfplay(base('chess', tmp(), { model: 'mock:first-loses', games: 2 }))).unwrap();
    expect(none.resigned).toBe(0);
    expect(none.resignFalsePositives).toEqual({ checked: 0, wrong: 0 });
  });

  it('after an abort writes only a complete prefix of games', async () => {
    const dir = tmp();
    const abort = new AbortController();
    const r = (
      await runSelfplay(base('chess', dir, { games: 6, gamesPerChunk: 1, concurrentGames: 2, maxPlies: 30, signal: abort.signal, onGame: () => abort.abort() }))
    ).unwrap();
    expect(r.aborted).toBe(true);
    const scan = scanSelfplayChunks(dir);
    expect(scan.games).toBe(r.games);
    expect(scan.nextGameIndex).toBe(r.nextGameIndex);
    expect(scan.chunks.map((c) => c.first)).toEqual(Array.from({ length: r.games }, (_, i) => i));
    expect(r.games).toBeGreaterThanOrEqual(1);
    expect(r.games).toBeLessThan(6);
    // The next call goes on where this one stopped.
    const next = (await runSelfplay(base('chess', dir, { games: 6 - r.nextGameIndex, firstGameIndex: r.nextGameIndex, gamesPerChunk: 1, maxPlies: 30 }))).unwrap();
    expect(scanSelfplayChunks(dir).games).toBe(6);
    expect(next.games).toBe(6 - r.games);
  });

  it('refuses bad options', async () => {
    const r = await runSelfplay(base('chess', tmp(), { playouts: 0 }));
    expect(r.isErr && r.error.code).toBe('ERR_USAGE');
    const m = await runSelfplay(base('chess', tmp(), { model: 'mock:nothing' }));
    expect(m.isErr && m.error.code).toBe('ERR_MODEL');
  });
});

describe('self-play with the shipped nets', () => {
  it('plays chess in a worker thread with models/chess.onnx', async () => {
    if (!existsSync(fileURLToPath(selfplayWorkerUrl()))) throw new Error('dist/ is missing the self-play worker: run `npx tsc -p .` first');
    const dir = tmp();
    const r = (await runSelfplay(base('chess', dir, { model: 'models/chess.onnx', workers: 1, games: 2, playouts: 8, maxPlies: 10 }))).unwrap();
    expect(r.games).toBe(2);
    expect(r.summaries.map((g) => [g.index, g.plies, g.reason])).toEqual([
      [0, 10, 'max-plies'],
      [1, 10, 'max-plies'],
    ]);
    expect(r.nnEvals).toBeGreaterThan(0);
    expect(r.nnCalls).toBeGreaterThan(0);
    const c = load(r.files[0]!);
    expect(c.header.count).toBe(r.positions);
    expect(typeof c.header.meta['modelSha256']).toBe('string');
    for (const rec of records(c)) {
      expect(Math.abs(rec.prob.reduce((a, p) => a + p, 0) - 1)).toBeLessThan(1e-5);
      expect(Math.abs(rec.value)).toBeLessThanOrEqual(1);
      expect(rec.result).toBe(0);
    }
  });

  it('plays shogi on the CPU networks in a worker thread: NNUE value, the policy network beside it', async () => {
    const r = (await runSelfplay(base('shogi', tmp(), { model: 'models/shogi-nnue.bin', workers: 1, concurrentGames: 1, games: 2, playouts: 24, maxPlies: 12 }))).unwrap();
    expect(r.games).toBe(2);
    expect(r.nnEvals).toBeGreaterThan(0);
    // Leaves are valued inside the search: nothing to time apart from the tree.
    expect(r.nnMs).toBe(0);
    const c = load(r.files[0]!);
    expect(c.header.meta['model']).toBe('models/shogi-nnue.bin');
    expect(String(c.header.meta['policy'])).toMatch(/shogi-policy\.bin$/);
    expect(c.header.meta['policySha256']).toMatch(/^[0-9a-f]{64}$/);
    for (const rec of records(c)) {
      expect(Math.abs(rec.prob.reduce((a, p) => a + p, 0) - 1)).toBeLessThan(1e-5);
      expect(rec.visits).toBeGreaterThanOrEqual(24);
      // The target covers exactly the legal moves of the recorded position.
      const board = ShogiMctsBoard.fromText(rec.text.split('|')[0]!, []).unwrap();
      const list = new Int32Array(board.maxMoves);
      const n = board.generate(list);
      const indices = new Int32Array(n);
      board.moveIndices(list, n, indices);
      expect([...rec.index].sort((a, b) => a - b)).toEqual([...indices].sort((a, b) => a - b));
    }
  });

  it('plays chess on the CPU networks in this thread, and refuses a policy network that does not load', async () => {
    const r = (await runSelfplay(base('chess', tmp(), { model: 'models/chess-nnue.bin', concurrentGames: 2, games: 2, playouts: 16, maxPlies: 8 }))).unwrap();
    expect(r.summaries.map((g) => g.plies)).toEqual([8, 8]);
    expect(r.positions).toBe(16);
    const dir = tmp();
    // The shipped policy network with one weight byte flipped (its checksum no longer matches).
    const bad = join(dir, 'bad-policy.bin');
    const bytes = readFileSync('models/chess-policy.bin');
    bytes[100]! ^= 0xff;
    writeFileSync(bad, bytes);
    writeFileSync(join(dir, 'bad-policy.manifest.json'), readFileSync('models/chess-policy.manifest.json'));
    const refused = await runSelfplay(base('chess', join(dir, 'out'), { model: 'models/chess-nnue.bin', games: 1, policy: bad }));
    expect(refused.isErr && refused.error.code).toBe('ERR_POLICY');
    expect(refused.isErr && refused.error.message).toMatch(/bad-policy\.bin.*(checksum|CRC)/i);
  });

  it('plays shogi in this thread with models/shogi-int8.onnx', async () => {
    const r = (await runSelfplay(base('shogi', tmp(), { model: 'models/shogi-int8.onnx', games: 1, playouts: 8, maxPlies: 8 }))).unwrap();
    expect(r.games).toBe(1);
    expect(r.positions).toBe(8);
    const c = load(r.files[0]!);
    for (const rec of records(c)) expect(Math.abs(rec.prob.reduce((a, p) => a + p, 0) - 1)).toBeLessThan(1e-5);
  });
});
