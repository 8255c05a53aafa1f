import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { chunkBytes, parseChunk } from '../../../src/learning/datagen/chunk.js';
import { defaultGameSettings, playDatagenGame } from '../../../src/learning/datagen/datagen-game.js';
import { recordWriter } from '../../../src/learning/datagen/record-writers.js';
import { runDatagen } from '../../../src/learning/datagen/datagen-run.js';
import { KeySet } from '../../../src/learning/datagen/key-set.js';
import {
  decodeChessRecord,
  decodeShogiRecord,
  encodeChessRecord,
  encodeShogiRecord,
  positionKey,
  RECORD_BYTES,
} from '../../../src/learning/datagen/position-record.js';
import { loadTrainingBook } from '../../../src/books/training-book.js';
import type { Opening } from '../../../src/books/openings.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { searchOptions } from '../../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';

const setup = (game: GameKind) => {
  const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
  const openings: readonly Opening[] =
    game === 'chess' ? loadTrainingBook('chess', undefined, 50).unwrap().openings : [{ start: 'startpos', moves: [], source: 'startpos' }];
  const ce = game === 'chess' ? new ChessLinearEval(theta) : undefined;
  const se = game === 'shogi' ? new ShogiLinearEval(theta) : undefined;
  return {
    openings,
    makeBoard: (o: Opening) => (game === 'chess' ? ChessSearchBoard.fromText(o.start, o.moves, ce!).unwrap() : ShogiSearchBoard.fromText(o.start, o.moves, se!).unwrap()),
    settings: { ...defaultGameSettings(game), nodes: 150, maxPlies: 50 },
  };
};

const run = (game: GameKind, out: string, opts: { chunks?: number; stopAfterGames?: number; shard?: [number, number] } = {}) => {
  const s = setup(game);
  let played = 0;
  return runDatagen({
    out,
    seed: 7,
    shardIndex: opts.shard?.[0] ?? 0,
    shardCount: opts.shard?.[1] ?? 1,
    gamesPerChunk: 2,
    targetPositions: 1_000_000,
    maxChunks: opts.chunks ?? 3,
    ...s,
    search: new AlphaBetaSearch(new TranspositionTable(1), searchOptions('tournament')),
    shouldStop: () => opts.stopAfterGames !== undefined && played++ >= opts.stopAfterGames,
  });
};

/** Every chunk file of a directory: name -> bytes (hex, for comparison). */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((n) => n.endsWith('.kdg'))
      .sort()
      .map((n) => [n, readFileSync(join(dir, n)).toString('hex')]),
  );

describe('datagen records', () => {
  it('round-trips a chess record', () => {
    const pieces = new Uint8Array(64);
    pieces[4] = 6;
    pieces[60] = 14;
    pieces[12] = 1;
    pieces[52] = 9;
    pieces[27] = 5;
    const out = new Uint8Array(RECORD_BYTES.chess);
    encodeChessRecord(out, 0, pieces, 1, 7, 42, -123, 2);
    const r = decodeChessRecord(out, 0).unwrap();
    expect([...r.pieces]).toEqual([...pieces]);
    expect(r).toMatchObject({ stm: 1, halfmove: 7, fullmove: 42, score: -123, result: 2 });
  });

  it('round-trips a shogi record', () => {
    const pieces = new Uint8Array(81);
    pieces[4] = 16 | 8;
    pieces[76] = 32 | 8;
    pieces[40] = 32 | 14;
    pieces[10] = 16 | 9;
    const hands = new Uint8Array(14);
    hands[0] = 18;
    hands[13] = 4;
    const out = new Uint8Array(RECORD_BYTES.shogi);
    encodeShogiRecord(out, 0, pieces, hands, 0, 300, 2999, 0);
    const r = decodeShogiRecord(out, 0).unwrap();
    expect([...r.pieces]).toEqual([...pieces]);
    expect([...r.hands]).toEqual([...hands]);
    expect(r).toMatchObject({ stm: 0, ply: 300, score: 2999, result: 0 });
  });

  it('keeps distinct keys apart and repeated ones out', () => {
    const set = new KeySet();
    for (let i = 0; i < 100000; i++) expect(set.add(i * 7919 * 4096 + 3)).toBe(true);
    expect(set.add(3)).toBe(false);
    expect(set.add(0)).toBe(true);
    expect(set.add(0)).toBe(false);
    expect(set.size).toBe(100001);
  });
});

describe('datagen chunks', () => {
  it('decodes a generated chunk, every record valid and keys distinct', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-dg-'));
    const p = run('chess', dir, { chunks: 1 }).unwrap();
    expect(p.positions).toBeGreaterThan(20);
    const [name] = Object.keys(snapshot(dir));
    const { header, records } = parseChunk(new Uint8Array(readFileSync(join(dir, name!))), name!).unwrap();
    expect(header).toMatchObject({ game: 'chess', count: p.positions, chunkIndex: 0, games: 2, seed: 7 });
    const keys = new Set<number>();
    for (let i = 0; i < header.count; i++) {
      const r = decodeChessRecord(records, i * 32).unwrap();
      expect(Math.abs(r.score)).toBeLessThan(3000);
      keys.add(positionKey(records, i * 32, 'chess'));
    }
    expect(keys.size).toBe(header.count);
  });

  it('says a truncated or corrupt chunk is one', () => {
    const rec = new Uint8Array(64);
    const bytes = chunkBytes({ game: 'chess', chunkIndex: 0, shardIndex: 0, shardCount: 1, games: 1, seed: 1 }, rec);
    expect(parseChunk(bytes, 'x').isOk).toBe(true);
    const cut = parseChunk(bytes.subarray(0, bytes.length - 5), 'x.kdg');
    expect(cut.isErr && cut.error.message).toMatch(/x\.kdg: truncated: 91 bytes, the header announces 2 records = 96 bytes/);
    const flipped = bytes.slice();
    flipped[40]! ^= 1;
    const bad = parseChunk(flipped, 'x');
    expect(bad.isErr && bad.error.message).toMatch(/checksum mismatch/);
    expect(parseChunk(bytes.subarray(0, 10), 'x').isErr).toBe(true);
  });

  it.each(['chess', 'shogi'] as const)('%s: a run stopped mid-chunk and resumed writes the same chunks as one run', (game) => {
    const whole = mkdtempSync(join(tmpdir(), 'kishi-dg-'));
    run(game, whole).unwrap();
    const parts = mkdtempSync(join(tmpdir(), 'kishi-dg-'));
    // Stop during the second chunk's second game; leave a killed writer's temporary behind.
    run(game, parts, { stopAfterGames: 3 }).unwrap();
    expect(Object.keys(snapshot(parts))).toHaveLength(1);
    writeFileSync(join(parts, `.${game}-s0of1-c0000001.kdg.tmp-999-0`), 'partial');
    const resumed = run(game, parts, { chunks: 2 }).unwrap();
    expect(resumed.resumedPositions).toBeGreaterThan(0);
    expect(snapshot(parts)).toEqual(snapshot(whole));
    expect(readdirSync(parts).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('shards play disjoint games', () => {
    const a = mkdtempSync(join(tmpdir(), 'kishi-dg-'));
    run('chess', a, { chunks: 1, shard: [0, 2] }).unwrap();
    run('chess', a, { chunks: 1, shard: [1, 2] }).unwrap();
    const files = Object.keys(snapshot(a));
    expect(files).toEqual(['chess-s0of2-c0000000.kdg', 'chess-s1of2-c0000000.kdg']);
    const s = snapshot(a);
    expect(s[files[0]!]).not.toEqual(s[files[1]!]);
  });

  it('refuses to resume a shard written with another node budget', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-dg-'));
    run('chess', dir, { chunks: 1 }).unwrap();
    const s = setup('chess');
    const r = runDatagen({ out: dir, seed: 7, shardIndex: 0, shardCount: 1, gamesPerChunk: 2, targetPositions: 10, ...s, settings: { ...s.settings, nodes: 151 }, search: new AlphaBetaSearch(new TranspositionTable(1)) });
    expect(r.isErr && r.error.message).toMatch(/written by a run with other settings/);
  });

  it('refuses to resume a shard written with another seed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-dg-'));
    run('chess', dir, { chunks: 1 }).unwrap();
    const s = setup('chess');
    rmSync(join(dir, 'chess-s0of1.settings.json'));
    const r = runDatagen({ out: dir, seed: 8, shardIndex: 0, shardCount: 1, gamesPerChunk: 2, targetPositions: 10, ...s, search: new AlphaBetaSearch(new TranspositionTable(1)) });
    expect(r.isErr && r.error.message).toMatch(/seed 7, not this run \(seed 8\)/);
  });
});

describe('datagen game observer', () => {
  it('sees every searched position, the recorded quiet ones and the rest, without changing the records', () => {
    for (const game of ['chess', 'shogi'] as const) {
      const s = setup(game);
      const settings = { ...s.settings, maxPlies: 120 };
      const search = new AlphaBetaSearch(new TranspositionTable(1), searchOptions('tournament'));
      const write = recordWriter(game);
      let unrecorded = 0;
      for (let index = 0; index < 3; index++) {
        const plain = playDatagenGame(index, 11, settings, s.openings, s.makeBoard, search, write);
        const seen: { tactical: boolean; check: boolean; score: number }[] = [];
        const observed = playDatagenGame(index, 11, settings, s.openings, s.makeBoard, search, write, (b, best, score) =>
          seen.push({ tactical: b.tacticalOrder(best) !== 0, check: b.inCheck(), score }),
        );
        expect(Buffer.from(observed.records).equals(Buffer.from(plain.records))).toBe(true);
        // One observation per played ply; the records are the quiet ones out of check.
        expect(seen.length).toBe(observed.plies);
        const quiet = seen.filter((o) => !o.tactical && !o.check && Math.abs(o.score) < settings.maxScoreCp);
        expect(quiet.length).toBe(observed.count);
        unrecorded += seen.length - observed.count;
      }
      expect(unrecorded).toBeGreaterThan(0);
    }
  });
});
