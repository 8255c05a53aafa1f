/**
 * The narrow interface MCTS sees of a game (one adapter per game over the internal fast boards):
 * legal moves as integers, make/unmake, the rules that end a game inside the tree, and the net's
 * encoding of the current position (input planes, policy indices of the legal moves, cache key).
 *
 * Rules inside the tree: no legal move is a loss when in check (chess stalemate is a draw, shogi
 * has none); a position that occurred before since the last irreversible move is scored as a
 * draw (chess) or, in shogi, by the sennichite rules (a draw, or a loss for the side that checked
 * with every move of the cycle); chess also ends by the fifty-move rule and insufficient material.
 * Scoring the first repetition (not the third/fourth the rules need) is the usual search practice.
 */
import type { GameKind } from '../../core/game.js';
import type { EncodingSpec } from '../../nn/encoding.js';

export interface MctsBoard {
  readonly game: GameKind;
  readonly spec: EncodingSpec;
  /** Capacity a move list passed to `generate` needs. */
  readonly maxMoves: number;
  /** 0 when the first player (chess white, shogi sente) is to move, else 1. */
  sideToMove(): number;
  /** Writes the legal moves into `list` from index 0 and returns their number. */
  generate(list: Int32Array): number;
  make(move: number): void;
  unmake(): void;
  inCheck(): boolean;
  /**
   * What the cheap mate tests prove for the side to move, whose legal moves are `moves[0..n)`
   * (n >= 1): 1 when it is not in check and mates in one; with `plies` >= 2, -1 when it is in
   * check and each of its moves allows a mate in one; else 0 (nothing proven). Shogi's
   * mate-in-one test (src/games/shogi/fast/mate1.ts); absent in chess, where the same test by
   * checks and their replies' count did not pay for its cost (docs/experiments/2026-11-30-mcts-leaf-mate.md).
   * The board is left as it was.
   */
  readonly provenMate?: (moves: Int32Array, n: number, plies: number) => number;
  /**
   * The game-theoretic value of the current position for the side to move when the rules end the
   * game here (1 win, 0 draw, -1 loss), else NaN. `legalCount` is the number of legal moves.
   */
  terminalValue(legalCount: number): number;
  /**
   * The same by the rules of a real game (self-play, data generation): chess draws at the third
   * occurrence, shogi at the fourth (sennichite, or a loss for the perpetually checking side).
   */
  gameResult(legalCount: number): number;
  /** Writes the net's input planes of the current position at `out[offset ..]`. */
  encode(out: Float32Array, offset: number): void;
  /** Policy indices of `moves[0..n)` in the current position. */
  moveIndices(moves: Int32Array, n: number, out: Int32Array): void;
  /** Cache key of the net input of the current position (below 2^53). */
  cacheKey(): number;
  moveToText(move: number): string;
  /** The legal move written as `text`, or 0. */
  parseMove(text: string): number;
  toText(): string;
}

/** Mixes extra input facts (repetitions, counters) into a 53-bit position key. */
export const mixKey = (hi: number, lo: number, extra: number): number => {
  const l = (lo ^ Math.imul(extra, 0x9e3779b1)) >>> 0;
  const h = (hi ^ Math.imul(extra, 0x85ebca77)) & 0x1fffff;
  return h * 0x100000000 + l;
};
