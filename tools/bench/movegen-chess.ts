/**
 * Chess move generation: the internal generator (src/games/chess/fast) with bulk counting, and with
 * every leaf made and unmade (what a search pays per node), and the rules adapter (ChessGame over
 * chessops), each against chessops' own perft on the same positions.
 */
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { parseFen } from 'chessops/fen';
import { FastChessBoard } from '../../src/games/chess/fast/index.js';
import { ChessGame } from '../../src/games/chess/chess-game.js';
import { perft as adapterPerft } from '../../src/games/chess/perft.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow, rates } from './lib/measure.js';
import { perftEveryLeaf } from './lib/perft.js';

const CASES = [
  { name: 'startpos', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', depth: 5, nodes: 4_865_609, quickDepth: 4, quickNodes: 197_281 },
  { name: 'kiwipete', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 4, nodes: 4_085_603, quickDepth: 3, quickNodes: 97_862 },
];

export const bench: BenchModule = {
  name: 'movegen-chess',
  description: 'chess perft nodes/s: internal generator (bulk, every leaf) and rules adapter vs chessops',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const c of CASES) {
      const depth = ctx.quick ? c.quickDepth : c.depth;
      const nodes = ctx.quick ? c.quickNodes : c.nodes;
      const board = FastChessBoard.fromFen(c.fen).unwrap();
      const pos = Chess.fromSetup(parseFen(c.fen).unwrap()).unwrap();
      board.perft(depth - 1); // warm-up
      ctx.log(`chess perft ${c.name} d${depth}`);
      const reference = rates(ctx.reps, () => chessopsPerft(pos, depth, false), nodes);
      const fast = rates(ctx.reps, () => board.perft(depth), nodes);
      rows.push(rateRow(`chess perft ${c.name} d${depth}, internal`, 'Mnodes/s', 1e-6, fast, reference, 'chessops'));
      const lists = Array.from({ length: depth + 1 }, () => new Int32Array(256));
      const everyLeaf = rates(ctx.reps, () => perftEveryLeaf(board, depth, lists), nodes);
      rows.push(rateRow(`chess perft ${c.name} d${depth}, internal, every leaf made`, 'Mnodes/s', 1e-6, everyLeaf, reference, 'chessops'));
      // The adapter (ChessGame: chessops plus history and incremental keys), one ply shallower.
      const game = ChessGame.fromFen(c.fen).unwrap();
      const small = chessopsPerft(pos, depth - 1, false);
      const adapter = rates(ctx.reps, () => adapterPerft(game, depth - 1), small);
      const referenceSmall = rates(ctx.reps, () => chessopsPerft(pos, depth - 1, false), small);
      rows.push(rateRow(`chess perft ${c.name} d${depth - 1}, adapter`, 'Mnodes/s', 1e-6, adapter, referenceSmall, 'chessops'));
    }
    return rows;
  },
};
