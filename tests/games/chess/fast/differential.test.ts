/**
 * Differential test: the internal generator against chessops on 100,000 positions reached by
 * seeded random playouts (standard, Kiwipete-like and Chess960 starts). For each position:
 * identical legal-move sets (UCI, castling as king takes rook), identical FEN, identical check
 * status, captures-only generation = the tactical subset, `isLegal` agreeing with the generated
 * set, and make/unmake of every move restoring hash and FEN.
 */
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { expect, test } from 'vitest';
import { FastChessBoard, isCastle, isEnPassant, isPromotion, isTactical } from '../../../../src/games/chess/fast/index.js';
import { chessopsUcis, random960Fen, seededRandom } from './helpers.js';

const POSITIONS = 100_000;

const FIXED_STARTS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
  'rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1',
];

test(`${POSITIONS.toLocaleString('en')} random positions agree with chessops`, async () => {
  const random = seededRandom(20240611);
  const list = new Int32Array(256);
  const captures = new Int32Array(256);
  const seen = { isLegalQueries: 0, castle: 0, castle960: 0, ep: 0, promotion: 0, check: 0, mate: 0, chess960: 0 };
  let positions = 0;
  let game = 0;
  while (positions < POSITIONS) {
    // Every third game starts from a fresh Chess960 arrangement.
    const chess960 = game % 3 === 2;
    const startFen = chess960 ? random960Fen(random) : FIXED_STARTS[game % FIXED_STARTS.length]!;
    game++;
    // Yield to the event loop between games so the test worker keeps answering the runner under load.
    await new Promise((resolve) => setImmediate(resolve));
    const board = FastChessBoard.fromFen(startFen, chess960).unwrap();
    const pos = Chess.fromSetup(parseFen(startFen).unwrap()).unwrap();
    const maxPlies = 10 + Math.floor(random() * 150);
    // Move lists of the last two positions: candidates for `isLegal` (killer/TT-like moves).
    let previous: number[] = [];
    let previous2: number[] = [];
    for (let ply = 0; ply < maxPlies && positions < POSITIONS; ply++) {
      positions++;
      if (chess960) seen.chess960++;
      const fen = makeFen(pos.toSetup());
      expect(board.toFen()).toBe(fen);
      const n = board.generateMoves(list);
      const mine = Array.from(list.subarray(0, n), m => board.moveToUci(m, true)).sort();
      const theirs = chessopsUcis(pos).sort();
      if (mine.join(' ') !== theirs.join(' ')) expect(mine, fen).toEqual(theirs);
      const inCheck = board.inCheck();
      expect(inCheck).toBe(pos.isCheck());
      if (inCheck) seen.check++;

      const tactical = Array.from(list.subarray(0, n)).filter(isTactical).sort();
      const nc = board.generateMoves(captures, true);
      expect(Array.from(captures.subarray(0, nc)).sort(), fen).toEqual(tactical);

      const legal = new Set(list.subarray(0, n));
      seen.isLegalQueries += previous.length + previous2.length;
      for (const m of previous2.concat(previous)) if (board.isLegal(m) !== legal.has(m)) expect(board.isLegal(m), `${fen} ${board.moveToUci(m)}`).toBe(legal.has(m));
      const hashLo = board.hashLo;
      const hashHi = board.hashHi;
      for (let i = 0; i < n; i++) {
        const m = list[i]!;
        if (!board.isLegal(m)) expect.fail(`isLegal rejects generated ${board.moveToUci(m)} in ${fen}`);
        if (isCastle(m)) {
          seen.castle++;
          if (chess960) seen.castle960++;
        }
        if (isEnPassant(m)) seen.ep++;
        if (isPromotion(m)) seen.promotion++;
        board.makeMove(m);
        board.unmakeMove();
        if (board.hashLo !== hashLo || board.hashHi !== hashHi) expect.fail(`hash not restored by ${board.moveToUci(m)} in ${fen}`);
      }
      expect(board.toFen()).toBe(fen);
      if (n === 0) {
        if (inCheck) seen.mate++;
        break;
      }

      // Play a random move, preferring en passant, castling and pawn moves so that playouts
      // meet the special moves often.
      const moves = Array.from(list.subarray(0, n));
      const pick = (f: (m: number) => boolean, p: number): number | undefined => {
        const subset = moves.filter(f);
        return subset.length > 0 && random() < p ? subset[Math.floor(random() * subset.length)] : undefined;
      };
      const m =
        pick(isEnPassant, 0.5) ??
        pick(isCastle, 0.15) ??
        pick(x => ((x >> 20) & 7) === 1, 0.3) ??
        moves[Math.floor(random() * n)]!;
      previous2 = previous;
      previous = moves;
      board.makeMove(m);
      pos.play(parseUci(board.moveToUci(board.lastMove(), true))!);
    }
  }
  expect(positions).toBe(POSITIONS);
  console.log(`differential coverage over ${game} games:`, seen);
  // The playouts really covered the special moves.
  expect(seen.castle).toBeGreaterThan(3_000);
  expect(seen.castle960).toBeGreaterThan(1_000);
  expect(seen.ep).toBeGreaterThan(300);
  expect(seen.promotion).toBeGreaterThan(10_000);
  expect(seen.check).toBeGreaterThan(2_000);
  expect(seen.chess960).toBeGreaterThan(20_000);
});
