/**
 * Chess960 (Fischer random) start positions by their Scharnagl number 0..959, the numbering
 * lichess and most software use; number 518 is the standard start position.
 *
 * Derivation (Reinhard Scharnagl, see https://www.chessprogramming.org/Chess960): n mod 4 puts
 * the light-squared bishop on b/d/f/h, the next base-4 digit puts the dark-squared bishop on
 * a/c/e/g, the next base-6 digit puts the queen on one of the six empty squares, the remaining
 * quotient 0..9 picks the two knights' squares among the five left, and rook, king, rook fill the
 * last three squares from the a-file side.
 */

/** Knight placements (indices among the five free squares) for the quotient 0..9. */
const KNIGHTS: readonly (readonly [number, number])[] = [
  [0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4],
];

/** The standard start position's Scharnagl number. */
export const STANDARD_CHESS960_NUMBER = 518;

/** White's back rank (e.g. `RNBQKBNR`) of Chess960 start position `n`; undefined unless 0 <= n <= 959. */
export const chess960BackRank = (n: number): string | undefined => {
  if (!Number.isInteger(n) || n < 0 || n > 959) return undefined;
  const rank: (string | undefined)[] = new Array<string | undefined>(8).fill(undefined);
  const free = (): number[] => rank.flatMap((p, i) => (p === undefined ? [i] : []));
  rank[2 * (n % 4) + 1] = 'B';
  n = Math.floor(n / 4);
  rank[2 * (n % 4)] = 'B';
  n = Math.floor(n / 4);
  rank[free()[n % 6]!] = 'Q';
  n = Math.floor(n / 6);
  const [k1, k2] = KNIGHTS[n]!;
  const five = free();
  rank[five[k1]!] = 'N';
  rank[five[k2]!] = 'N';
  const [r1, k, r2] = free();
  rank[r1!] = 'R';
  rank[k!] = 'K';
  rank[r2!] = 'R';
  return rank.join('');
};

/** FEN of Chess960 start position `n` (X-FEN castling `KQkq`); undefined unless 0 <= n <= 959. */
export const chess960Fen = (n: number): string | undefined => {
  const back = chess960BackRank(n);
  if (back === undefined) return undefined;
  return `${back.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${back} w KQkq - 0 1`;
};
