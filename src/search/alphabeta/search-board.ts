/**
 * The narrow interface the alpha-beta search sees of a game: legal move generation into integer
 * lists, make/unmake, null moves, check, a 64-bit key in two uint32 halves, the games' draw and
 * repetition rules, a static evaluation and move text. One adapter per game (chess-board.ts,
 * shogi-board.ts) wraps the internal fast boards of `src/games/<game>/fast/`.
 *
 * Moves are small non-negative integers, 0 meaning "no move". Every generated move is legal.
 */
import type { GameKind } from '../../core/game.js';

/** Result of `ruleState`: how the rules score the current node regardless of the moves left. */
export const RULE_NONE = 0;
/** Draw by the rules (repetition, fifty moves, insufficient material, sennichite). */
export const RULE_DRAW = 1;
/** The side to move has won (shogi: the opponent checked perpetually). */
export const RULE_WIN = 2;
/** The side to move has lost (shogi: it checked perpetually). */
export const RULE_LOSS = 3;

export interface SearchBoard {
  readonly game: GameKind;
  /** Capacity a move list passed to `generate` needs. */
  readonly maxMoves: number;
  /** Size of the history table `historyIndex` indexes (per side). */
  readonly historySize: number;
  /** 0 when the first player (chess white, shogi sente) is to move, else 1. */
  sideToMove(): number;
  /**
   * Writes the legal moves into `list` from index 0 and returns their number. With `tactical`,
   * only the moves quiescence search looks at when not in check: captures and (chess) promotions.
   */
  generate(list: Int32Array, tactical: boolean): number;
  /** Plays a legal move. */
  make(move: number): void;
  /** Takes back the last `make` or `makeNull`. */
  unmake(): void;
  /** Passes (null-move pruning); never in check. */
  makeNull(): void;
  /** Whether the side to move is in check. */
  inCheck(): boolean;
  /**
   * Whether the legal move gives check (what `inCheck()` would say after `make(move)`), without
   * playing it: the search asks it of every move it is about to prune. Optional: without it the
   * search makes the move and asks `inCheck`.
   */
  givesCheck?(move: number): boolean;
  /**
   * A legal move that checkmates at once, or 0 when there is none (shogi: drops, promotions and
   * discovered checks, pawn-drop mate excluded), found without a search. Optional: the search
   * calls it at nodes not in check when `SearchOptions.mateIn1` is on.
   */
  mateIn1?(): number;
  /** High and low halves of the position key (compare with `| 0`: either signedness may come back). */
  keyHi(): number;
  keyLo(): number;
  /**
   * Whether the current position (not the root) is decided by the rules before looking at moves:
   * repetition (chess: one earlier occurrence is scored as a draw; shogi: sennichite, or a win/loss
   * when one side checked with every move of the cycle), fifty moves, insufficient material.
   */
  ruleState(): number;
  /** Score of the side to move when it has no legal move: mated (or, in chess, stalemate = 0). */
  noMovesIsLoss(inCheck: boolean): boolean;
  /** Whether null-move pruning is safe enough here (chess: we have a piece other than pawns). */
  nullMoveOk(): boolean;
  /**
   * Ordering key of a capture or promotion (most valuable victim, then least valuable attacker),
   * at least 1; 0 for a quiet move.
   */
  tacticalOrder(move: number): number;
  /**
   * Whether a capture risks more than it wins by nominal piece values: the capturing piece is worth
   * more than the victim and the opponent defends the square. False for quiet moves and promotions.
   */
  isBadCapture(move: number): boolean;
  /**
   * Static exchange evaluation of a legal move: the material the side to move ends up with after
   * the best sequence of captures on the destination (centipawns, negative when the move loses
   * material; 0 for a quiet move nothing attacks). Optional: without it the search falls back on
   * `isBadCapture`.
   */
  see?(move: number): number;
  /** Whether `see(move) >= threshold` (cheaper when bounds on the exchange decide). Optional. */
  seeGe?(move: number, threshold: number): boolean;
  /**
   * A key of the features the static evaluation most often misjudges, for correction history
   * (chess: the pawn structure; shogi: the kings' squares and the hands). Optional.
   */
  correctionKey?(): number;
  /**
   * Pieces in both hands together (shogi), for the futility margins (tuning `handMargin`).
   * Optional: boards without hands leave it out.
   */
  handCount?(): number;
  /** Index of the move in a history table of `historySize` entries. */
  historyIndex(move: number): number;
  /** Static evaluation from the side to move's view, clipped to ±EVAL_LIMIT. */
  evaluate(): number;
  /** UCI (chess) or USI (shogi) text of a move legal here. */
  moveToText(move: number): string;
  /** The legal move written as `text`, or 0. */
  parseMove(text: string): number;
  /** The position as FEN or SFEN. */
  toText(): string;
}
