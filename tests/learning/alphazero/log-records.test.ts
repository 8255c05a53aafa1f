/**
 * Online game logs into training chunks (src/learning/alphazero/log-records.ts), on the fixture logs
 * in fixtures/logs: a lichess win by mate (ours: white), a floodgate loss by resignation (ours: gote),
 * an aborted game, a game still running (.part), a game with an illegal move and one with a damaged
 * line.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { convertGameLogs, onlineChunkName, scoreToValue } from '../../../src/learning/alphazero/log-records.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import { qToCentipawns } from '../../../src/search/mcts/score.js';
import { chunkPlanes, chunkText, readChunk, type Chunk } from '../../../src/nn/training-chunk.js';

const LOGS = fileURLToPath(new URL('./fixtures/logs', import.meta.url));
const tmp = (): string => mkdtempSync(join(tmpdir(), 'kishi-log-records-'));
const load = (file: string): Chunk => readChunk(new Uint8Array(readFileSync(file))).unwrap();

describe('online game logs into training chunks', () => {
  it('converts finished chess games, one-hot on the move played, values from our scores, results from the log', () => {
    const out = tmp();
    const r = convertGameLogs({ game: 'chess', logs: LOGS, outDir: out }).unwrap();
    expect(r.files.map((f) => basename(f))).toEqual([onlineChunkName('lichess', 'AbCd1234')]);
    expect(r.games).toBe(1);
    expect(r.positions).toBe(7);
    expect(r.skipped).toEqual({ aborted: 1, 'bad-log': 1, 'does-not-replay': 1, 'other-game': 1 });
    expect(r.problems).toEqual([
      `${join(LOGS, 'lichess-Broken12.jsonl')}:3: not JSON: skipped`,
      `${join(LOGS, 'lichess-Illegal1.jsonl')}:5: illegal move "e8e6" in rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2`,
    ]);

    const c = load(r.files[0]!);
    expect(c.header.meta).toMatchObject({ phase: 'online', games: 1, sides: 'both', server: 'lichess', gameId: 'AbCd1234', ourSide: 'first', winner: 'first' });
    // The positions replayed: planes, legal moves, one-hot targets.
    const moves = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
    const board = ChessMctsBoard.fromText('startpos', []).unwrap();
    const list = new Int32Array(256);
    const planes = new Float32Array(board.spec.inputSize);
    const expected = new Float32Array(board.spec.inputSize);
    for (let i = 0; i < moves.length; i++) {
      const n = board.generate(list);
      const idx = new Int32Array(n);
      board.moveIndices(list, n, idx);
      const a = c.polStart[i]!;
      expect(c.polStart[i + 1]! - a).toBe(n);
      expect(Array.from(c.polIndex.subarray(a, a + n))).toEqual(Array.from(idx));
      const played = list.subarray(0, n).indexOf(board.parseMove(moves[i]!));
      expect(Array.from(c.polProb.subarray(a, a + n))).toEqual(Array.from({ length: n }, (_, k) => (k === played ? 1 : 0)));
      chunkPlanes(c, i, planes);
      board.encode(expected, 0);
      expect(planes).toEqual(expected);
      expect(chunkText(c, i)).toBe(`${board.toText()}|ply=${i}|game=lichess/AbCd1234|ours=${i % 2 === 0 ? 1 : 0}`);
      board.make(board.parseMove(moves[i]!));
    }
    // White won: +1 for white to move, -1 for black. Values: our scores where we searched, else NaN.
    expect(Array.from(c.result)).toEqual([1, -1, 1, -1, 1, -1, 1]);
    const v = Array.from(c.value);
    expect(v[0]).toBe(Math.fround(scoreToValue({ cp: 30 }, 'chess', 'kishi-ab 0.1')));
    expect(v[2]).toBe(Math.fround(scoreToValue({ cp: 45 }, 'chess', 'kishi-ab 0.1')));
    expect(v[6]).toBe(1);
    for (const i of [1, 3, 4, 5]) expect(Number.isNaN(v[i])).toBe(true);

    // A second run converts nothing again.
    const again = convertGameLogs({ game: 'chess', logs: LOGS, outDir: out }).unwrap();
    expect(again.files).toEqual([]);
    expect(again.alreadyConverted).toBe(1);
  });

  it('converts shogi games, and with sides "ours" keeps only our moves', () => {
    const out = tmp();
    const r = convertGameLogs({ game: 'shogi', logs: LOGS, outDir: out, sides: 'ours' }).unwrap();
    expect(r.games).toBe(1);
    expect(r.positions).toBe(3);
    const c = load(r.files[0]!);
    expect(c.header.meta).toMatchObject({ phase: 'online', sides: 'ours', server: 'floodgate', ourSide: 'second', winner: 'first', status: 'resign' });
    // We were gote and lost: -1 for every position of ours.
    expect(Array.from(c.result)).toEqual([-1, -1, -1]);
    expect(Array.from(c.value)).toEqual([-20, -150, -600].map((cp) => Math.fround(Math.tanh(cp / 600))));
    for (let i = 0; i < 3; i++) expect(chunkText(c, i)).toMatch(/\|ours=1$/);
  });

  it('squashes scores on the bootstrap scale', () => {
    expect(scoreToValue({ mate: 3 }, 'shogi', undefined)).toBe(1);
    expect(scoreToValue({ mate: -2 }, 'chess', undefined)).toBe(-1);
    expect(scoreToValue({ cp: 0 }, 'chess', undefined)).toBe(0);
    // MCTS logs invert its Q -> cp map (up to the rounding to whole centipawns).
    for (const q of [-0.9, -0.5, 0.1, 0.5, 0.95]) expect(scoreToValue({ cp: qToCentipawns(q) }, 'shogi', 'kishi-mcts')).toBeCloseTo(q, 2);
    expect(scoreToValue({ cp: 600 }, 'shogi', 'kishi-ab')).toBeCloseTo(Math.tanh(1), 12);
  });
});
