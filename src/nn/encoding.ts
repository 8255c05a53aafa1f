/**
 * What a net's input and output look like, shared by the per-game encodings (chess-encoding.ts,
 * shogi-encoding.ts), the evaluators and the model manifests. models/README.md documents every
 * plane; a model's manifest names the `version` it was trained with, and loading refuses a model
 * whose encoding version or shapes differ from the code's.
 */
import type { GameKind } from '../core/game.js';

export interface EncodingSpec {
  readonly game: GameKind;
  /** Version string of the input planes and the policy layout, e.g. `kishi-chess-1`. */
  readonly version: string;
  /** Input planes (channels). */
  readonly planes: number;
  /** Board height and width of every plane. */
  readonly height: number;
  readonly width: number;
  /** Floats per position: `planes * height * width` (NCHW, one position). */
  readonly inputSize: number;
  /** Policy planes: the policy index is `plane * height * width + square`. */
  readonly policyPlanes: number;
  /** Entries of the flat policy output: `policyPlanes * height * width`. */
  readonly policySize: number;
}

/** The extra facts an input encoder needs that a position alone does not carry. */
export interface EncodeContext {
  /** How many times the current position occurred before (0, 1, 2...; capped by the encoder). */
  readonly repetitions: number;
  /** Plies played since the start of the game (for the move-count plane). */
  readonly plies: number;
}

/** Plies at which the move-count plane saturates at 1 (both games). */
export const MOVE_COUNT_SCALE = 512;

/** Value of the move-count plane for `plies` played. */
export const moveCountPlane = (plies: number): number => Math.min(Math.max(plies, 0), MOVE_COUNT_SCALE) / MOVE_COUNT_SCALE;
