/**
 * Shogi move generation: the internal generator (src/games/shogi/fast) against shogiops, both with
 * bulk counting (legal-move lists counted at the last ply, clone + play above it for shogiops: the
 * move-list speed a search over shogiops would get), and the internal generator with every leaf made
 * and unmade against shogiops' own perft (`shogiops/debug`, which plays every leaf) at startpos, the
 * only case shogiops' perft finishes in reasonable time. Counts must agree, or the module fails.
 */
import type { Role } from 'shogiops/types';
import { perft as shogiopsPerft } from 'shogiops/debug';
import { parseSfen } from 'shogiops/sfen';
import type { Shogi } from 'shogiops/variant/shogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';
import { FastShogiBoard, newMoveList } from '../../src/games/shogi/fast/index.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow, rates } from './lib/measure.js';
import { perftEveryLeaf } from './lib/perft.js';

const STARTPOS = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const MATSURI = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1';
const CASES = [
  { name: 'startpos', sfen: STARTPOS, depth: 4, quickDepth: 3 },
  { name: 'matsuri', sfen: MATSURI, depth: 3, quickDepth: 2 },
];

const canPromote = pieceCanPromote('standard');
const forcePromote = pieceForcePromote('standard');

const countMoves = (pos: Shogi): number => {
  let n = 0;
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from)!;
    for (const to of dests) n += canPromote(piece, from, to, pos.board.get(to)) ? (forcePromote(piece, to) ? 1 : 2) : 1;
  }
  for (const [, dests] of pos.allDropDests()) n += dests.size();
  return n;
};

const shogiopsBulk = (pos: Shogi, depth: number): number => {
  if (depth === 1) return countMoves(pos);
  let nodes = 0;
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from)!;
    for (const to of dests) {
      const options = canPromote(piece, from, to, pos.board.get(to)) ? (forcePromote(piece, to) ? [true] : [true, false]) : [false];
      for (const promotion of options) {
        const child = pos.clone();
        child.play({ from, to, promotion });
        nodes += shogiopsBulk(child, depth - 1);
      }
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    const role = name.split(' ')[1] as Role;
    for (const to of dests) {
      const child = pos.clone();
      child.play({ role, to });
      nodes += shogiopsBulk(child, depth - 1);
    }
  }
  return nodes;
};

export const bench: BenchModule = {
  name: 'movegen-shogi',
  description: 'shogi perft nodes/s: internal generator vs shogiops (bulk counting; every leaf vs shogiops perft)',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const c of CASES) {
      const depth = ctx.quick ? c.quickDepth : c.depth;
      const board = FastShogiBoard.fromSfen(c.sfen).unwrap();
      const pos = parseSfen('standard', c.sfen, true).unwrap() as Shogi;
      const nodes = board.perft(depth); // warm-up, and the count both must give
      ctx.log(`shogi perft ${c.name} d${depth} (${nodes} nodes)`);
      const fast = rates(ctx.reps, () => board.perft(depth), nodes);
      const reference = rates(ctx.reps, () => shogiopsBulk(pos, depth), nodes);
      rows.push(rateRow(`shogi perft ${c.name} d${depth}, internal`, 'Mnodes/s', 1e-6, fast, reference, 'shogiops'));
      if (c.name === 'startpos') {
        const d = depth - 1;
        const small = board.perft(d);
        const lists = Array.from({ length: d + 1 }, newMoveList);
        const everyLeaf = rates(ctx.reps, () => perftEveryLeaf(board, d, lists), small);
        const theirs = rates(ctx.reps, () => shogiopsPerft(pos, d), small);
        rows.push(rateRow(`shogi perft ${c.name} d${d}, internal, every leaf made`, 'Mnodes/s', 1e-6, everyLeaf, theirs, 'shogiops perft'));
      }
    }
    return rows;
  },
};
