/**
 * The search tuning table (src/search/alphabeta/tuning.ts): override parsing with clear errors for
 * bad input, the environment variable, the late-move reduction table, and that the search reads the
 * table (a changed margin changes the tree; the defaults equal the preset's).
 */
import { describe, expect, it } from 'vitest';
import { createAlphaBetaPlayer } from '../../../src/player/factory.js';
import { DEFAULT_TUNING, TUNING_NAMES, lmrTable, parseTuning, tuningFromText } from '../../../src/search/alphabeta/tuning.js';
import { chessBoard, searcher, shogiBoard } from './helpers.js';

const C = DEFAULT_TUNING.chess;
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

describe('parseTuning', () => {
  it('returns the defaults for empty text', () => {
    expect(parseTuning('', C).unwrap()).toEqual(C);
    expect(parseTuning('  ', C).unwrap()).toEqual(C);
  });

  it('overrides the named entries only, with commas, semicolons or spaces between pairs', () => {
    const t = parseTuning('lmrDivisor=1.75;rfpMargin=90, lmpBase=5 aspirationDelta=20', C).unwrap();
    expect(t.lmrDivisor).toBe(1.75);
    expect(t.rfpMargin).toBe(90);
    expect(t.lmpBase).toBe(5);
    expect(t.aspirationDelta).toBe(20);
    for (const k of TUNING_NAMES) if (!['lmrDivisor', 'rfpMargin', 'lmpBase', 'aspirationDelta'].includes(k)) expect(t[k], k).toBe(C[k]);
    expect(C.lmrDivisor).toBe(2.25);
  });

  it.each([
    ['lmrDivisr=2', /unknown search tuning parameter 'lmrDivisr'/],
    ['lmrDivisor', /'lmrDivisor' is not name=value/],
    ['=3', /'=3' is not name=value/],
    ['lmrDivisor=', /'lmrDivisor=' is not name=value/],
    ['lmrDivisor=abc', /lmrDivisor=abc: not a number/],
    ['lmrDivisor=0.1', /lmrDivisor=0.1: expected a number in \[0.5, 10\]/],
    ['rfpMargin=-5', /rfpMargin=-5: expected an integer in \[0, 2000\]/],
    ['lmpBase=2.5', /lmpBase=2.5: expected an integer/],
    ['nullDepthDivisor=0', /nullDepthDivisor=0: expected an integer in \[1, 64\]/],
    ['lmrBase=Infinity', /lmrBase=Infinity: expected a number/],
    ['rfpMargin=90,rfpMargin=100', /'rfpMargin' is given twice/],
    ['toString=1', /unknown search tuning parameter 'toString'/],
  ])('rejects %s with a clear error', (text, message) => {
    const r = parseTuning(text, C);
    expect(r.isErr).toBe(true);
    if (r.isErr) {
      expect(r.error.code).toBe('ERR_CONFIG');
      expect(r.error.message).toMatch(message);
    }
  });
});

describe('tuningFromText', () => {
  it("gives nothing (the search then uses its game's defaults) when the config's text is absent or empty", () => {
    expect(tuningFromText(undefined, 'chess').unwrap()).toBeUndefined();
    expect(tuningFromText(' ', 'shogi').unwrap()).toBeUndefined();
  });

  it("overrides the game's defaults, and names the config key in an error", () => {
    const chess = tuningFromText('seeQuiet=40', 'chess').unwrap()!;
    const shogi = tuningFromText('seeQuiet=40', 'shogi').unwrap()!;
    expect(chess).toEqual({ ...DEFAULT_TUNING.chess, seeQuiet: 40 });
    expect(shogi).toEqual({ ...DEFAULT_TUNING.shogi, seeQuiet: 40 });
    expect(shogi.rfpMargin).not.toBe(chess.rfpMargin);
    const r = tuningFromText('seeQuiet=x', 'chess');
    expect(r.isErr && r.error.message).toBe('searchTuning: search tuning seeQuiet=x: not a number');
  });

  it('makes the alpha-beta player factory fail with ERR_CONFIG on a bad value', () => {
    const config = {
      search: 'alphabeta' as const,
      hashMb: 1,
      moveOverheadMs: 0,
      chessWeights: 'models/chess-linear.json',
      shogiWeights: 'models/shogi-linear.json',
      mctsMinClockMs: 0,
    };
    const r = createAlphaBetaPlayer({ ...config, searchTuning: 'lmpBase=-1' }, 'chess');
    expect(r.isErr).toBe(true);
    if (r.isErr) {
      expect(r.error.code).toBe('ERR_CONFIG');
      expect(r.error.message).toContain('searchTuning: search tuning lmpBase=-1');
    }
  });
});

describe('lmrTable', () => {
  it('with the defaults is floor(0.5 + ln(depth) ln(move) / 2.25), the values the search shipped with', () => {
    const t = lmrTable(C);
    for (const [d, m] of [
      [1, 1],
      [3, 3],
      [8, 20],
      [63, 63],
    ] as const) {
      expect(t[d * 64 + m], `${d},${m}`).toBe(Math.floor(0.5 + (Math.log(d) * Math.log(m)) / 2.25));
    }
    expect(t[10 * 64 + 30]).toBe(3);
  });

  it('reduces more with a smaller divisor and never goes negative', () => {
    const more = lmrTable(parseTuning('lmrDivisor=1.5', C).unwrap());
    const neg = lmrTable(parseTuning('lmrBase=-2', C).unwrap());
    expect(more[10 * 64 + 30]).toBeGreaterThan(lmrTable(C)[10 * 64 + 30]!);
    expect(Math.min(...neg)).toBe(0);
  });
});

describe('the search reads the table', () => {
  it("searches the same tree with the game's explicit defaults and a different one with other margins", () => {
    const boards = { chess: () => chessBoard(KIWIPETE), shogi: () => shogiBoard('lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2') };
    for (const game of ['chess', 'shogi'] as const) {
      const board = boards[game];
      const nodes = (tuning: string | undefined): number =>
        searcher('tournament', tuning === undefined ? {} : { tuning: parseTuning(tuning, DEFAULT_TUNING[game]).unwrap() }).search(board(), { depth: 9 }).nodes;
      const preset = nodes(undefined);
      expect(nodes('')).toBe(preset);
      expect(nodes('lmrDivisor=1.2;lmpBase=0')).toBeLessThan(preset);
      expect(nodes('lmrDivisor=6;lmpMaxDepth=0')).toBeGreaterThan(preset);
      // The other game's defaults are another tree (they differ in the futility margins).
      if (game === 'shogi') expect(searcher('tournament', { tuning: DEFAULT_TUNING.chess }).search(board(), { depth: 9 }).nodes).not.toBe(preset);
    }
  });
});
