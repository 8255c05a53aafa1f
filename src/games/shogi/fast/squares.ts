/**
 * Mailbox geometry of the internal shogi board.
 *
 * The 9x9 board sits in a 10-wide, 13-high array (131 cells with one spare): row `r + 2` holds
 * rank `r` (0 = rank a, the top row as SFEN prints it), column `c + 1` holds SFEN column `c`
 * (0 = file 9 on the left, 8 = file 1 on the right). Column 0 and rows 0, 1, 11, 12 are walls, so
 * every step, slide and knight jump from a real square stays inside the array and a slide always
 * stops at a wall. One wall column is enough because a step off the left edge lands on this row's
 * column 0 and a step off the right edge on the next row's column 0.
 *
 * "Square" in this module and board.ts means this internal index (21..119). `SQUARES` lists
 * the 81 real squares in SFEN order; `to81`/`from81` convert to and from a dense 0..80 index
 * (rank * 9 + column, SFEN order) for evaluation tables.
 */

/** Cells per row of the padded board (one step down a rank). */
export const STRIDE = 10;
/** Length of the board array. */
export const BOARD_SIZE = 131;

/** Internal index of SFEN column `col` (0 = file 9) and rank `rank` (0 = rank a). */
export const squareAt = (col: number, rank: number): number => (rank + 2) * STRIDE + col + 1;

/** Internal index of USI file `file` (1..9) and rank `rank` (0 = a .. 8 = i). */
export const squareOfFileRank = (file: number, rank: number): number => squareAt(9 - file, rank);

/** The 81 real squares in SFEN order (rank a from file 9 to file 1, then rank b, ...). */
export const SQUARES: Int32Array = (() => {
  const out = new Int32Array(81);
  for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) out[r * 9 + c] = squareAt(c, r);
  return out;
})();

/** Rank (0 = a .. 8 = i) of each internal square; -1 off the board. */
export const RANK_OF: Int8Array = new Int8Array(BOARD_SIZE).fill(-1);
/** SFEN column (0 = file 9 .. 8 = file 1) of each internal square; -1 off the board. */
export const COL_OF: Int8Array = new Int8Array(BOARD_SIZE).fill(-1);
/** Dense index 0..80 (rank * 9 + column) of each internal square; -1 off the board. */
export const TO_81: Int8Array = new Int8Array(BOARD_SIZE).fill(-1);
for (let i = 0; i < 81; i++) {
  const sq = SQUARES[i]!;
  RANK_OF[sq] = Math.floor(i / 9);
  COL_OF[sq] = i % 9;
  TO_81[sq] = i;
}

/** Dense index 0..80 of an internal square (-1 for a wall). */
export const to81 = (sq: number): number => TO_81[sq] ?? -1;
/** Internal square of a dense index 0..80. */
export const from81 = (i: number): number => SQUARES[i]!;

/**
 * The eight step directions, indexed so that `d ^ 4` is the opposite direction:
 * 0 up (towards rank a, black's forward), 1 up-right, 2 right, 3 down-right, 4 down, 5 down-left,
 * 6 left, 7 up-left ("right" = towards file 1).
 */
export const DIRS: Int32Array = Int32Array.from([-10, -9, 1, 11, 10, 9, -1, -11]);

/** USI name of an internal square, e.g. `7g`. */
export const squareName = (sq: number): string =>
  `${9 - COL_OF[sq]!}${String.fromCharCode(97 + RANK_OF[sq]!)}`;

/** Internal square of a USI square name (`7g`), or -1 if it is not one. */
export const parseSquareName = (name: string, offset = 0): number => {
  const f = name.charCodeAt(offset) - 48;
  const r = name.charCodeAt(offset + 1) - 97;
  if (!(f >= 1 && f <= 9 && r >= 0 && r <= 8)) return -1;
  return squareOfFileRank(f, r);
};
