import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTrainTdLeaf } from '../../../src/cli/train-tdleaf.js';
import { parseConfig } from '../../../src/config/load.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { dequantise, quantise } from '../../../src/eval/nnue/float-network.js';
import { parseNetwork, serializeNetwork } from '../../../src/eval/nnue/format.js';
import type { NnueNetwork } from '../../../src/eval/nnue/network.js';
import { TrainableNetwork } from '../../../src/eval/nnue/trainable.js';
import { masterPath, parseMaster } from '../../../src/learning/nnue/network-files.js';
import { gameSamples, isReplayProblem, leafEvaluator, resolveLeaf } from '../../../src/learning/tdleaf/leaf.js';
import { historyPath, liveWeightsPath, onGameFinished, weightsStamp, type OnlineConfig } from '../../../src/learning/tdleaf/online.js';
import { trainTdLeaf } from '../../../src/learning/tdleaf/trainer.js';
import { createAlphaBetaPlayer } from '../../../src/player/factory.js';
import { loadNnueFile, nnueManifestPath, nnueOutputOf } from '../../../src/player/nnue-file.js';
import { readGameLogFile } from '../../../src/records/game-log-reader.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { randomNetwork } from '../../eval/nnue/random-network.js';
import { TOY_GAME, writeScript } from './helpers.js';

const defaults = parseConfig('').unwrap();
const toyLog = (dir: string, id = 'toy') => readGameLogFile(writeScript(join(dir, 'logs'), id, { ...TOY_GAME, gameId: id })).log!;
const params = { lambda: 0.7, alpha: 0.02, beta: Math.atanh(0.25) / 100, pruneBlundersCp: 0, minMoves: 1, filter: { game: 'chess' as const, networkTimeLossMs: 2000 } };
const linear = new ChessLinearEval(new Float64Array(CHESS_FEATURES.size));

/** The moves of a line in UCI, each parsed in the position it is played from (the board is left as it was). */
const parseLine = (board: ChessSearchBoard, line: readonly string[]): number[] => {
  const moves = line.map((text) => {
    const m = board.parseMove(text);
    expect(m, text).not.toBe(0);
    board.make(m);
    return m;
  });
  for (let i = 0; i < moves.length; i++) board.unmake();
  return moves;
};

/** A network file with a manifest (reference outputs of two positions) in `dir`. */
const writeNetwork = (dir: string, net: NnueNetwork): string => {
  const file = join(dir, 'chess-live.bin');
  writeFileSync(file, serializeNetwork(net));
  const references = ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', TOY_GAME.start].map((position) => ({ position, output: nnueOutputOf(net, position).unwrap() }));
  const arch = { features: net.features, hidden: net.hidden, activation: net.activation, qa: net.qa, qb: net.qb, scale: net.scale };
  writeFileSync(nnueManifestPath(file), JSON.stringify({ format: 'kishi-nnue', version: 1, game: 'chess', arch, date: '2026-01-01', references }));
  return file;
};

describe('TD-Leaf on the network', () => {
  it('leaf values are the float network at the principal leaves, and the update moves only what the leaves touch', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-tdnnue-'));
    const t = new TrainableNetwork(randomNetwork('chess', 16, 'screlu', 4));
    const log = toyLog(dir);
    const replay = gameSamples(log, leafEvaluator('chess', t.theta, t));
    if (isReplayProblem(replay)) throw new Error(replay.message);
    expect(replay.samples.length).toBe(3);
    const rows = new Set<number>();
    for (const s of replay.samples) {
      if (s.terminal !== undefined) continue;
      for (const i of s.features.keys()) if (i < t.layout.b1) rows.add(Math.floor(i / t.layout.hidden));
    }
    // A leaf's value is H of the leaf position from the root mover's view, recomputed independently.
    const ev = leafEvaluator('chess', t.theta, t);
    for (const [start, pv] of [[TOY_GAME.start, ['c3d5', 'e8d7', 'd5f4']], ['4k3/8/8/3p3p/8/2N5/P7/4K3 b - - 0 1', ['e8d7']]] as const) {
      const board = ev.board(start, 'fromPosition') as ChessSearchBoard;
      const moves = parseLine(board, pv);
      const leaf = resolveLeaf(board, moves, ev, board.sideToMove());
      const sign = board.sideToMove() === 0 ? 1 : -1;
      expect(leaf.value).toBeCloseTo(sign * t.value(ChessSearchBoard.fromText(leaf.text, [], linear).unwrap().board), 9);
      expect(leaf.features.size).toBeGreaterThan(0);
    }
    const before = t.theta.slice();
    const netBefore = quantise(before, t.net);
    const summary = trainTdLeaf([log], t.theta, { ...params, maxChangePerGameCp: 0, network: t });
    expect(summary.used).toBe(1);
    let changed = 0;
    for (let i = 0; i < t.layout.b1; i++) {
      if (t.theta[i] === before[i]) continue;
      changed++;
      expect(rows.has(Math.floor(i / t.layout.hidden))).toBe(true);
    }
    expect(changed).toBeGreaterThan(0);
    // The integer network the boards play with is the re-quantised master copy.
    expect(Array.from(t.net.l2w)).toEqual(Array.from(quantise(t.theta, netBefore).l2w));
    expect(Array.from(t.net.l1w)).toEqual(Array.from(quantise(t.theta, netBefore).l1w));
  });

  it('a won game pulls its leaf towards the win, and the cap bounds each parameter times SCALE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-tdnnue-'));
    const t = new TrainableNetwork(randomNetwork('chess', 16, 'screlu', 8));
    // One searched move, then a win: the only difference is r - J_0 > 0, so H at that leaf rises.
    const one = readGameLogFile(writeScript(join(dir, 'logs'), 'one', { ...TOY_GAME, gameId: 'one', moves: TOY_GAME.moves.slice(0, 1) })).log!;
    const ev = leafEvaluator('chess', t.theta, t);
    const board = ev.board(TOY_GAME.start, 'fromPosition') as ChessSearchBoard;
    const leaf = resolveLeaf(board, parseLine(board, ['c3d5', 'e8d7', 'd5f4']), ev, 0);
    const leafBoard = ChessSearchBoard.fromText(leaf.text, [], linear).unwrap().board;
    const h0 = t.value(leafBoard);
    expect(h0).toBeCloseTo(leaf.value, 9);
    expect(trainTdLeaf([one], t.theta, { ...params, alpha: 1e-3, maxChangePerGameCp: 0, network: t }).used).toBe(1);
    expect(t.value(leafBoard)).toBeGreaterThan(h0);
    const log = toyLog(dir);

    const c = new TrainableNetwork(randomNetwork('chess', 16, 'screlu', 8));
    const before = c.theta.slice();
    const s = trainTdLeaf([log], c.theta, { ...params, alpha: 10, maxChangePerGameCp: 0.5, network: c });
    expect(s.games[0]!.largestChange).toBeCloseTo(0.5, 9);
    for (let i = 0; i < before.length; i++) expect(Math.abs(c.theta[i]! - before[i]!) * c.net.scale).toBeLessThanOrEqual(0.5 + 1e-9);
  });
});

describe('online TD-Leaf into the network (engine.chessEval: nnue)', () => {
  it('replaces the live network, its manifest and master copy; players load it; each game once; the master keeps sub-quantum changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-online-nnue-'));
    const start = randomNetwork('chess', 16, 'screlu', 12);
    const file = writeNetwork(dir, start);
    const config: OnlineConfig = {
      engine: { ...defaults.engine, chessEval: 'nnue', chessNnue: file },
      learning: { ...defaults.learning, online: true, minMoves: 1, nnueAlpha: 0.02, maxChangePerGameCp: 0 },
    };
    expect(liveWeightsPath(config, 'chess')).toBe(file);
    const stamp = weightsStamp(config, 'chess');
    const r = await onGameFinished(writeScript(join(dir, 'logs'), 'g1', { ...TOY_GAME, gameId: 'g1' }), config);
    expect(r).toMatchObject({ status: 'updated', weightsFile: file });
    expect(r.changedWeights).toBeGreaterThan(0);
    expect(weightsStamp(config, 'chess')).not.toBe(stamp);
    expect(existsSync(`${file}.prev`)).toBe(true);
    // The new file loads and passes its (recomputed) reference outputs; the network changed.
    const loaded = loadNnueFile(file, 'chess').unwrap();
    expect(Array.from(loaded.net.l1w)).not.toEqual(Array.from(start.l1w));
    expect((loaded.manifest as unknown as { learning: { method: string; games: number } }).learning).toMatchObject({ method: 'tdleaf-online', games: 1 });
    const master = parseMaster(new Uint8Array(readFileSync(masterPath(file))), loaded.bytes, dequantise(start).length).unwrap();
    // The master copy is not the rounded network: sub-quantum parts of the update are kept.
    const rounded = dequantise(loaded.net);
    expect(master.some((x, i) => x !== rounded[i])).toBe(true);
    expect(Array.from(quantise(master, start).l1w)).toEqual(Array.from(loaded.net.l1w));
    const player = createAlphaBetaPlayer({ search: 'alphabeta', hashMb: 1, moveOverheadMs: 0, chessWeights: defaults.engine.chessWeights, shogiWeights: 'x', chessEval: 'nnue', chessNnue: file }, 'chess');
    expect(player.isOk).toBe(true);
    await player.unwrap().close();
    // Not twice; a second game continues from the master copy.
    expect(await onGameFinished(join(dir, 'logs', 'g1.jsonl'), config)).toMatchObject({ status: 'skipped', reason: 'already-learnt' });
    const g2 = await onGameFinished(writeScript(join(dir, 'logs'), 'g2', { ...TOY_GAME, gameId: 'g2' }), config);
    expect(g2.status).toBe('updated');
    const after2 = parseMaster(new Uint8Array(readFileSync(masterPath(file))), new Uint8Array(readFileSync(file)), master.length).unwrap();
    expect(after2.some((x, i) => x !== master[i])).toBe(true);
    expect((loadNnueFile(file, 'chess').unwrap().manifest as unknown as { learning: { games: number } }).learning.games).toBe(2);
    expect(readFileSync(historyPath(file), 'utf8').trim().split('\n').length).toBe(2);
    // A master copy that belongs to another version of the network is not used.
    writeFileSync(file, serializeNetwork(start));
    expect(parseMaster(new Uint8Array(readFileSync(masterPath(file))), new Uint8Array(readFileSync(file)), master.length).isErr).toBe(true);
    expect(parseNetwork(new Uint8Array(readFileSync(file)), file).isOk).toBe(true);
  });
});

describe('kishi train tdleaf --model nnue', () => {
  it('writes a new network with its manifest and master copy, never over its input or the live network', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-tdnnue-cli-'));
    const start = randomNetwork('chess', 16, 'screlu', 14);
    const file = writeNetwork(dir, start);
    writeScript(join(dir, 'logs'), 'a', { ...TOY_GAME, gameId: 'a' });
    writeScript(join(dir, 'logs'), 'b', { ...TOY_GAME, gameId: 'b', startedAt: '2026-01-02T00:00:00.000Z' });
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`E ${l}`) };
    const out = join(dir, 'learnt.bin');
    const base = { logs: join(dir, 'logs'), game: 'chess', weights: file, top: '3', config: join(dir, 'none.yaml'), minMoves: '1', model: 'nnue', alpha: '0.05' };
    expect(runTrainTdLeaf({ ...base, out }, io)).toBe(0);
    expect(lines.join('\n')).toContain('learnt from 2 game(s)');
    expect(lines.join('\n')).toMatch(/w1\.\d+\.\d+|w2\.|b1\./);
    const learnt = loadNnueFile(out, 'chess').unwrap();
    expect(Array.from(learnt.net.l2w)).not.toEqual(Array.from(start.l2w));
    expect((learnt.manifest as unknown as { learning: { method: string; games: number } }).learning).toMatchObject({ method: 'tdleaf', games: 2 });
    expect(parseMaster(new Uint8Array(readFileSync(masterPath(out))), learnt.bytes, dequantise(start).length).isOk).toBe(true);
    // Never the input, never the network the config plays with.
    expect(runTrainTdLeaf({ ...base, out: file }, io)).toBe(2);
    const config = join(dir, 'kishi.yaml');
    writeFileSync(config, `engine: {chessNnue: "${out}"}\n`);
    expect(runTrainTdLeaf({ ...base, config, out }, io)).toBe(2);
    expect(lines.at(-1)).toContain('it is the chess network the bot plays with');
    // A linear weights file is not a network.
    expect(runTrainTdLeaf({ ...base, weights: join(dir, 'logs', 'a.jsonl'), out: join(dir, 'x.bin') }, io)).toBe(2);
  });
});
