/**
 * `tools/data/label-policy.ts --from-selfplay`: the positions of `kishi selfplay` chunks made on the
 * CPU networks become policy labels whose targets are the root visit distributions (label-file.ts
 * version 3), for `trainer/policy_train.py`.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSelfplay } from '../../../src/learning/alphazero/selfplay.js';
import { readLabels } from '../../../src/learning/policy/label-file.js';
import { chunkPosition, readChunk } from '../../../src/nn/training-chunk.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';
import { runProcess } from '../../setup/run-process.js';

const label = (...args: string[]) => runProcess('node', ['dist/tools/data/label-policy.js', ...args], { timeout: 120_000 });

describe('label-policy --from-selfplay', () => {
  it('labels each recorded position with its visit shares, the most visited move as target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-fromsp-'));
    const chunks = join(dir, 'chunks');
    const out = join(dir, 'labels');
    const sp = await runSelfplay({
      game: 'shogi',
      model: 'models/shogi-nnue.bin',
      outDir: chunks,
      games: 1,
      firstGameIndex: 0,
      workers: 0,
      concurrentGames: 1,
      playouts: 32,
      temperatureMoves: 4,
      maxPlies: 10,
      gamesPerChunk: 1,
      seed: 5,
      phase: 'selfplay',
    });
    const file = sp.unwrap().files[0]!;
    const made = await label('--game', 'shogi', '--from-selfplay', chunks, '--out', out);
    expect(made.status, made.stderr).toBe(0);
    const names = readdirSync(out);
    expect(names).toEqual(['shogi-sp-000000000-000000000.kpl']);
    const labels = readLabels(new Uint8Array(readFileSync(join(out, names[0]!))), names[0]!).unwrap();
    const c = readChunk(new Uint8Array(readFileSync(file))).unwrap();
    expect(labels.length).toBe(c.header.count);
    labels.forEach((l, i) => {
      const position = chunkPosition(c, i);
      expect(l.position).toBe(position);
      // The chunk's share of each legal move, found by the move's policy index.
      const board = ShogiMctsBoard.fromText(position, []).unwrap();
      const list = new Int32Array(board.maxMoves);
      const n = board.generate(list);
      const indices = new Int32Array(n);
      board.moveIndices(list, n, indices);
      const share = new Map<string, number>();
      for (let j = c.polStart[i]!; j < c.polStart[i + 1]!; j++) {
        const k = indices.indexOf(c.polIndex[j]!);
        expect(k).toBeGreaterThanOrEqual(0);
        share.set(board.moveToText(list[k]!), c.polProb[j]!);
      }
      expect(l.moves.length).toBe(n);
      expect(l.visits).toBeDefined();
      l.moves.forEach((m, j) => expect(l.visits![j]).toBeCloseTo(share.get(m) ?? 0, 5));
      expect(l.visits![l.target]).toBe(Math.max(...l.visits!));
    });
    // A second run finds the label file there and leaves it alone.
    const before = statSync(join(out, names[0]!)).mtimeMs;
    expect((await label('--game', 'shogi', '--from-selfplay', chunks, '--out', out)).status).toBe(0);
    expect(statSync(join(out, names[0]!)).mtimeMs).toBe(before);
    // Another game's chunks are refused with a clear message.
    const wrong = await label('--game', 'chess', '--from-selfplay', chunks, '--out', join(dir, 'chess'));
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('a shogi chunk, not chess');
  });
});
