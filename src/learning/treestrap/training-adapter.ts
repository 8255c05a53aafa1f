/**
 * What the trainer needs of a game: search boards that evaluate with the weights being learned,
 * phi(s) of a board's position, and a way to make the boards see changed weights. The algorithm
 * (trainer, update rule, table walk, minimax tree) is shared; chess and shogi differ only here
 * and in their feature sets (chess-adapter.ts, shogi-adapter.ts).
 */
import type { GameKind, Side } from '../../core/game.js';
import type { KishiError, Result } from '../../core/result.js';
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { WeightsProvenance } from '../../eval/linear/weights.js';
import type { NnueNetwork } from '../../eval/nnue/network.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';

export interface TrainingAdapter {
  readonly game: GameKind;
  /** The feature set theta is indexed by. */
  readonly featureSet: FeatureSet<never>;
  /** The weights being learned, shared by reference with every board this adapter made. */
  readonly theta: Float64Array;
  /** A search board at `start` (`startpos` or FEN/SFEN) after `moves` (UCI/USI), evaluating with `theta`. */
  board(start: string, moves: readonly string[]): Result<SearchBoard, KishiError>;
  /** phi(s) of the board's current position (first player's view) into `out`, cleared first. */
  features(board: SearchBoard, out: SparseVector): void;
  /**
   * H(s) of the board's position (first player's view, centipawns, at theta) with its gradient
   * dH/dtheta into `out` (cleared first): phi(s) itself for the linear evaluation, backpropagation
   * for a network (nnue-adapter.ts). The update rule only needs these two.
   */
  gradient(board: SearchBoard, out: SparseVector): number;
  /** What an engine playing `theta` is made of (evaluation matches): linear weights, and the network when theta is one. */
  enginePlayer(theta: Float64Array): EnginePlayer;
  /** The model files of `theta`, each a suffix of the output name and its contents (`.json`; or `.bin` + `.manifest.json`). */
  modelFiles(theta: Float64Array, provenance: WeightsProvenance): readonly ModelFile[];
  /** Call after `theta` changed: rebuilds cached tables and re-attaches `boards` (chess keeps incremental piece-square sums). */
  refresh(boards: readonly SearchBoard[]): void;
  /** The shipped material-only weights. */
  materialTheta(): Float64Array;
  /**
   * How the game stands by the rules at the board's position (a board this adapter made, with the
   * game's moves played on it), or undefined while it goes on. Read from the fast boards, which are
   * much quicker than the chessops/shogiops adapters and agree with them (their differential tests).
   */
  outcome(board: SearchBoard): GameEnd | undefined;
}

export interface GameEnd {
  readonly winner: Side | undefined;
  readonly reason: string;
}

/** The weights an in-process engine plays with. */
export interface EnginePlayer {
  readonly theta: Float64Array;
  readonly nnue?: NnueNetwork;
}

export interface ModelFile {
  readonly suffix: string;
  readonly data: string | Uint8Array;
}
