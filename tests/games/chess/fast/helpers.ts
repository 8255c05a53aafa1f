/** Shared helpers for the internal chess generator tests: seeded randomness and chessops references. */
import { makeUci } from 'chessops';
import type { Chess } from 'chessops/chess';
import { SquareSet } from 'chessops/squareSet';
import type { Role } from 'chessops/types';

/** mulberry32, the project's one seeded generator (src/core/rng.ts). */
export { seededRng as seededRandom } from '../../../../src/core/rng.js';

/** The Chess960 start position for a random arrangement (Shredder-FEN castling, e.g. `HAha`). */
export const random960Fen = (random: () => number): string => {
  const rank: (string | undefined)[] = new Array(8).fill(undefined);
  const free = (): number[] => rank.flatMap((p, i) => (p === undefined ? [i] : []));
  const pick = (squares: number[]): number => squares[Math.floor(random() * squares.length)]!;
  rank[pick([0, 2, 4, 6])] = 'b';
  rank[pick([1, 3, 5, 7])] = 'b';
  rank[pick(free())] = 'q';
  rank[pick(free())] = 'n';
  rank[pick(free())] = 'n';
  const [a, k, h] = free() as [number, number, number];
  rank[a] = 'r';
  rank[k] = 'k';
  rank[h] = 'r';
  const black = rank.join('');
  const files = 'abcdefgh';
  const castling = files[h]!.toUpperCase() + files[a]!.toUpperCase() + files[h]! + files[a]!;
  return `${black}/pppppppp/8/8/8/8/PPPPPPPP/${black.toUpperCase()} w ${castling} - 0 1`;
};

const PROMOTIONS: Role[] = ['queen', 'knight', 'rook', 'bishop'];

/** Every legal move of a chessops position in UCI, castling as king takes rook (chessops' own form). */
export const chessopsUcis = (pos: Chess): string[] => {
  const r: string[] = [];
  const backranks = SquareSet.backranks();
  for (const [from, dests] of pos.allDests()) {
    const promotes = pos.board.pawn.has(from);
    for (const to of dests) {
      if (promotes && backranks.has(to)) for (const promotion of PROMOTIONS) r.push(makeUci({ from, to, promotion }));
      else r.push(makeUci({ from, to }));
    }
  }
  return r;
};
