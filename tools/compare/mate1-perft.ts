/**
 * Perft-style check of the shogi mate-in-1 finder (src/games/shogi/fast/mate1.ts): on positions
 * from seeded random playouts, the mating moves `mateIn1All` finds must be exactly those of the
 * slow reference (every legal check, made, the defender's moves generated), and `mateIn1` must
 * answer a move exactly where the reference has one.
 *
 *   npx tsc -p tsconfig.json; node dist/tools/compare/mate1-perft.js [--positions 100000] [--seed 1]
 *
 * Prints the counts (positions, positions with a mate in 1, mating moves of each side of the
 * comparison), the disagreements (none expected) and the time each side took.
 * tests/games/shogi/fast/mate1.test.ts runs the same comparison on fewer positions.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { seededRng, type Rng } from '../../src/core/rng.js';
import { FastShogiBoard, MAX_MOVES } from '../../src/games/shogi/fast/board.js';
import { mateIn1, mateIn1All, mateMovesReference } from '../../src/games/shogi/fast/mate1.js';

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

export interface Mate1PerftResult {
  readonly positions: number;
  /** Positions where the reference finds a mate in 1. */
  readonly matePositions: number;
  /** Mating moves over all positions: the reference's, and `mateIn1All`'s. */
  readonly referenceMoves: number;
  readonly fastMoves: number;
  /** SFENs (with the move lists) where the two disagree, or `mateIn1` answers wrongly. */
  readonly disagreements: readonly string[];
  readonly referenceMs: number;
  readonly fastMs: number;
}

/**
 * Random playouts from the start position: at each ply a random legal move, a capture or a check
 * preferred half the time so that hands fill and kings open up as in real games. Every position
 * after the first few plies is visited.
 */
export function* playoutPositions(rng: Rng, count: number): Generator<FastShogiBoard> {
  const list = new Int32Array(MAX_MOVES);
  let made = 0;
  while (made < count) {
    const board = FastShogiBoard.fromSfen(START).unwrap();
    const length = 20 + Math.floor(rng() * 280);
    for (let ply = 0; ply < length && made < count; ply++) {
      const n = board.generateMoves(list);
      if (n === 0) break;
      if (ply >= 6) {
        made++;
        yield board;
      }
      let m = list[Math.floor(rng() * n)]!;
      if (rng() < 0.5) {
        const start = Math.floor(rng() * n);
        for (let k = 0; k < n; k++) {
          const c = list[(start + k) % n]!;
          if (board.pieceAt((c >>> 8) & 255) !== 0 || board.givesCheck(c)) {
            m = c;
            break;
          }
        }
      }
      board.makeMove(m);
    }
  }
}

/** Compares the fast finder with the reference on `positions` playout positions from `seed`. */
export function mate1Perft(positions: number, seed = 1): Mate1PerftResult {
  const rng = seededRng(seed);
  const ref = new Int32Array(MAX_MOVES);
  const fast = new Int32Array(MAX_MOVES);
  let matePositions = 0;
  let referenceMoves = 0;
  let fastMoves = 0;
  let referenceMs = 0;
  let fastMs = 0;
  const disagreements: string[] = [];
  for (const board of playoutPositions(rng, positions)) {
    const t0 = performance.now();
    const nr = mateMovesReference(board, ref);
    const t1 = performance.now();
    const one = mateIn1(board);
    const t2 = performance.now();
    const nf = mateIn1All(board, fast);
    referenceMs += t1 - t0;
    fastMs += t2 - t1;
    referenceMoves += nr;
    fastMoves += nf;
    if (nr > 0) matePositions++;
    const a = Array.from(ref.subarray(0, nr)).sort((x, y) => x - y);
    const b = Array.from(fast.subarray(0, nf)).sort((x, y) => x - y);
    const same = a.length === b.length && a.every((x, i) => x === b[i]);
    const oneOk = nr === 0 ? one === 0 : a.includes(one);
    if (!same || !oneOk) {
      const usi = (ms: number[]): string => ms.map((m) => board.moveToUsi(m)).join(',');
      disagreements.push(`${board.toSfen()} reference [${usi(a)}] all [${usi(b)}] first ${one === 0 ? '-' : board.moveToUsi(one)}`);
    }
  }
  return { positions, matePositions, referenceMoves, fastMoves, disagreements, referenceMs, fastMs };
}

const main = (): void => {
  const { values } = parseArgs({ options: { positions: { type: 'string', default: '100000' }, seed: { type: 'string', default: '1' } } });
  const positions = Number(values.positions);
  const seed = Number(values.seed);
  if (!Number.isInteger(positions) || positions <= 0 || !Number.isInteger(seed)) {
    console.error('usage: node dist/tools/compare/mate1-perft.js [--positions N] [--seed S]');
    process.exit(2);
  }
  const r = mate1Perft(positions, seed);
  console.log(`positions ${r.positions}, with a mate in 1: ${r.matePositions}`);
  console.log(`mating moves: reference ${r.referenceMoves}, mateIn1All ${r.fastMoves}; disagreements ${r.disagreements.length}`);
  console.log(`time: reference ${(r.referenceMs / 1000).toFixed(1)} s, mateIn1 ${(r.fastMs / 1000).toFixed(2)} s (${((r.fastMs * 1000) / r.positions).toFixed(2)} us/position)`);
  for (const d of r.disagreements.slice(0, 20)) console.log(`  ${d}`);
  if (r.disagreements.length > 0) process.exitCode = 1;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
