/**
 * Messages between `AlphaBetaPlayer` (main thread) and search-worker.ts. Plain data only.
 */
import type { GameKind } from '../core/game.js';
import type { SearchTuning } from '../search/alphabeta/tuning.js';
import type { TdSearchParams } from '../search/td/td-search.js';
import type { GoRequest, GoResult, SearchInfo } from './player.js';

/** `workerData` of the search worker. */
export interface WorkerInit {
  readonly game: GameKind;
  /** Evaluation weights (a copy; Float64Array contents). */
  readonly theta: ArrayBuffer;
  /** The weights' evaluation grain (src/eval/linear/grain.ts; absent: 1). */
  readonly grain?: number;
  /** The network evaluation's file bytes (src/eval/nnue/format.ts), already validated; absent: linear. */
  readonly nnue?: ArrayBuffer;
  readonly hashMb: number;
  readonly moveOverheadMs: number;
  /** Shared control words: [stop, ponderhit] (Int32). */
  readonly signal: SharedArrayBuffer;
  /** Search threads (Lazy SMP): the worker starts `threads - 1` helpers; 1 when absent. */
  readonly threads?: number;
  /** Search margins (the config's `searchTuning`, validated by the player factory); absent: the defaults. */
  readonly tuning?: SearchTuning;
  /** `search: dyna2`: TD search before every alpha-beta search (src/search/td/); absent: plain alpha-beta. */
  readonly dyna2?: TdSearchParams;
  /** false: the network evaluation without the SIMD kernels (config `nnueSimd`). */
  readonly nnueSimd?: boolean;
}

/** `workerData` of a Lazy SMP helper (alphabeta-helper-worker.ts). */
export interface HelperInit {
  readonly game: GameKind;
  readonly theta: ArrayBuffer;
  readonly grain?: number;
  /** The main thread's network evaluation file bytes, when it plays with one (helpers must evaluate alike). */
  readonly nnue?: ArrayBuffer;
  /** The main thread's transposition table memory. */
  readonly table: SharedArrayBuffer;
  /** Int32 words: [0] stop, [id] busy flag of helper `id`. */
  readonly control: SharedArrayBuffer;
  /** 1, 2, ...: this helper's number and busy-flag word. */
  readonly id: number;
  /** The main thread's search margins (helpers must search alike); absent: the defaults. */
  readonly tuning?: SearchTuning;
  /** The main thread's SIMD switch. */
  readonly nnueSimd?: boolean;
}

/** Messages from the search worker to its helpers; each clears the helper's busy flag when done. */
export type HelperRequest =
  | { readonly type: 'go'; readonly request: GoRequest }
  | { readonly type: 'newGame' }
  | { readonly type: 'table'; readonly table: SharedArrayBuffer };

export type WorkerRequest =
  | { readonly type: 'go'; readonly id: number; readonly request: GoRequest }
  | { readonly type: 'newGame'; readonly id: number }
  | { readonly type: 'setHash'; readonly id: number; readonly mb: number }
  | { readonly type: 'setMoveOverhead'; readonly id: number; readonly ms: number };

export type WorkerReply =
  | { readonly type: 'ready'; readonly id: number }
  | { readonly type: 'info'; readonly id: number; readonly info: SearchInfo }
  | { readonly type: 'result'; readonly id: number; readonly result: GoResult }
  | { readonly type: 'error'; readonly id: number; readonly code: string; readonly message: string }
  | { readonly type: 'done'; readonly id: number };
