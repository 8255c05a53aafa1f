/**
 * The tournament search's newer switches (SEE, extended histories, quiet pruning, singular
 * extension) and its time management: each switch can be turned off on its own and the search
 * still solves tactics; with `useAllTime` the search runs to the hard limit.
 */
import { describe, expect, it } from 'vitest';
import { matePlies } from '../../../src/search/alphabeta/score.js';
import type { SearchOptions } from '../../../src/search/alphabeta/options.js';
import type { IterationInfo } from '../../../src/search/alphabeta/search.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { parseNetwork } from '../../../src/eval/nnue/format.js';
import { loadNnueFile } from '../../../src/player/nnue-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { DEFAULT_TUNING } from '../../../src/search/alphabeta/tuning.js';
import { chessBoard, chessEval, searcher, shogiBoard } from './helpers.js';

/** Win At Chess 1 and 3: a queen sacrifice that mates, a rook lift that wins. */
const TACTICS: ReadonlyArray<readonly [string, string]> = [
  ['2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1', 'g3g6'],
  ['5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1', 'e3g3'],
];
const SWITCHES: ReadonlyArray<keyof SearchOptions> = ['seePruning', 'extendedHistory', 'quietPruning', 'correctionHistory'];

describe('tournament enhancements', () => {
  for (const off of [undefined, ...SWITCHES]) {
    it(`solves the tactics ${off === undefined ? 'with every switch on' : `without ${off}`}`, () => {
      for (const [fen, best] of TACTICS) {
        const s = searcher('tournament', off === undefined ? {} : { [off]: false });
        const b = chessBoard(fen);
        const r = s.search(b, { nodes: 150_000 });
        expect(b.moveToText(r.bestMove), fen).toBe(best);
        expect(b.toText()).toBe(fen);
      }
    });
  }

  it('solves the tactics with the singular extension switched on (off by default)', () => {
    for (const [fen, best] of TACTICS) {
      const b = chessBoard(fen);
      const r = searcher('tournament', { singularExtension: true }).search(b, { nodes: 150_000 });
      expect(b.moveToText(r.bestMove), fen).toBe(best);
    }
    expect(searcher().options.singularExtension).toBe(false);
  });

  it('finds the shogi mate in 3 through drop checks with every pruning on', () => {
    const r = searcher().search(shogiBoard('ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42'), { nodes: 100_000 });
    expect(matePlies(r.score)).toBe(3);
  });

  it("finds a brinkmate (hisshi) that reverse futility would cut, with shogi's mate-threat guard", () => {
    // Black is far ahead in material, so after white's quiet P*1g the static evaluation clears
    // every reverse-futility margin; but G*1h then mates and black cannot stop it.
    const sfens = ['k8/9/9/9/9/9/9/SSNN3P1/SN5LK w gp 1', 'k8/9/9/9/9/9/9/GGSS3P1/RB5LK w gp 1'];
    const search = (sfen: string, guard: number, depth: number) => {
      const b = shogiBoard(sfen);
      const tuning = { ...DEFAULT_TUNING.shogi, mateThreat: guard };
      const r = searcher('tournament', { tuning }).search(b, { depth });
      return [b.moveToText(r.bestMove), matePlies(r.score)];
    };
    expect(DEFAULT_TUNING.shogi.mateThreat).toBe(1);
    expect(search(sfens[0]!, 1, 3)).toEqual(['P*1g', 3]);
    expect(search(sfens[1]!, 1, 5)).toEqual(['P*1g', 7]);
    // Without the guard neither is seen at depth 9: the node after P*1g is cut by its evaluation.
    for (const sfen of sfens) expect(search(sfen, 0, 9)[1]).toBe(0);
  });

  it('is deterministic for a node budget', () => {
    const fen = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 1';
    const a = searcher().search(chessBoard(fen), { nodes: 30_000 });
    const b = searcher().search(chessBoard(fen), { nodes: 30_000 });
    expect([a.bestMove, a.score, a.nodes, a.depth]).toEqual([b.bestMove, b.score, b.nodes, b.depth]);
  });

  it('runs to the hard limit in pure byoyomi, and stops early with a soft limit otherwise', () => {
    const fen = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 1';
    const all = searcher().search(chessBoard(fen), { softMs: 20, hardMs: 400, useAllTime: true });
    expect(all.timeMs).toBeGreaterThanOrEqual(400);
    expect(all.aborted).toBe(true);
    const soft = searcher().search(chessBoard(fen), { softMs: 20, hardMs: 10_000 });
    expect(soft.aborted).toBe(false);
  });
});

describe('MultiPV', () => {
  it('reports the requested number of lines per iteration, best first, with distinct first moves', () => {
    const fen = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 1';
    const infos: IterationInfo[] = [];
    const r = searcher().search(chessBoard(fen), { depth: 6, multiPv: 3 }, (it) => infos.push(it));
    expect(infos.length).toBe(6 * 3);
    for (let d = 1; d <= 6; d++) {
      const at = infos.filter((it) => it.depth === d);
      expect(at.map((it) => it.multipv)).toEqual([1, 2, 3]);
      expect(new Set(at.map((it) => it.pv[0])).size).toBe(3);
      expect(at[0]!.score).toBeGreaterThanOrEqual(at[1]!.score);
      expect(at[1]!.score).toBeGreaterThanOrEqual(at[2]!.score);
    }
    const last = infos.filter((it) => it.depth === 6);
    expect(r.bestMove).toBe(last[0]!.pv[0]);
    expect(r.score).toBe(last[0]!.score);
  });

  it('plays line 1 even when a later line outscores the first one searched', () => {
    // With the shipped network these lines re-rank after the first line's search (a later line
    // comes out above it); the search used to answer line 0's move while reporting another as
    // `multipv 1`. Each case failed before the fix.
    const nnue = new ChessNnue(parseNetwork(loadNnueFile('models/chess-nnue.bin', 'chess').unwrap().bytes, 'chess-nnue.bin').unwrap());
    const cases: [string, number, number][] = [
      ['rn1qkbnr/pb1ppppp/1p6/2p5/4P2P/5N2/PPPP1PP1/RNBQKB1R w KQkq - 0 1', 4, 2],
      ['rnbqkbnr/pp2pppp/3p4/2p5/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 0 1', 5, 2],
      ['rnbqkbnr/ppp2ppp/8/3p4/3P4/8/PPP2PPP/RNBQKBNR w KQkq - 0 1', 6, 2],
      ['rnbqkb1r/ppp1pppp/5n2/3p4/8/3P2P1/PPP1PPBP/RNBQK1NR b KQkq - 0 1', 5, 3],
    ];
    for (const [fen, depth, multiPv] of cases) {
      const infos: IterationInfo[] = [];
      const board = ChessSearchBoard.fromText(fen, [], chessEval, false, nnue).unwrap();
      const r = searcher().search(board, { depth, multiPv }, (it) => infos.push(it));
      const line1 = infos.filter((it) => it.depth === depth && it.multipv === 1)[0]!;
      expect([fen, r.bestMove, r.score]).toEqual([fen, line1.pv[0], line1.score]);
      expect(r.pv).toEqual(line1.pv);
    }
  });

  it('finds the only winning move as line 1 and clamps to the number of legal moves', () => {
    const infos: IterationInfo[] = [];
    const b = chessBoard('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1');
    const r = searcher().search(b, { nodes: 200_000, multiPv: 2 }, (it) => infos.push(it));
    expect(b.moveToText(r.bestMove)).toBe('g3g6');
    const k = chessBoard('7k/8/8/8/8/8/8/K7 w - - 0 1');
    const infos2: IterationInfo[] = [];
    searcher().search(k, { depth: 2, multiPv: 10 }, (it) => infos2.push(it));
    expect(infos2.filter((it) => it.depth === 2).length).toBe(3);
    expect(infos.length).toBeGreaterThan(0);
  });

  it('with one line behaves exactly as without the option', () => {
    const fen = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 1';
    const a = searcher().search(chessBoard(fen), { nodes: 20_000, multiPv: 1 });
    const b = searcher().search(chessBoard(fen), { nodes: 20_000 });
    expect([a.bestMove, a.score, a.nodes]).toEqual([b.bestMove, b.score, b.nodes]);
  });
});

describe('correction keys', () => {
  it('chess: the pawn structure only', () => {
    const a = chessBoard('startpos');
    const b = chessBoard('startpos', ['g1f3', 'g8f6']);
    const c = chessBoard('startpos', ['e2e4']);
    expect(a.correctionKey()).toBe(b.correctionKey());
    expect(a.correctionKey()).not.toBe(c.correctionKey());
  });

  it('shogi: the kings and the hands', () => {
    const a = shogiBoard('startpos');
    const b = shogiBoard('startpos', ['7g7f', '3c3d']);
    const c = shogiBoard('startpos', ['7g7f', '3c3d', '8h2b+', '3a2b']);
    const d = shogiBoard('startpos', ['5i5h']);
    expect(a.correctionKey()).toBe(b.correctionKey());
    expect(a.correctionKey()).not.toBe(c.correctionKey());
    expect(a.correctionKey()).not.toBe(d.correctionKey());
  });
});
