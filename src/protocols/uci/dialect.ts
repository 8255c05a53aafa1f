/**
 * What differs between the UCI (chess) and USI (shogi) front-ends; `EngineSession` does the rest.
 * uci-dialect.ts and usi-dialect.ts implement it.
 */
import type { EngineConfig } from '../../config/sections/engine.js';
import type { GameKind, GameState } from '../../core/game.js';
import type { KishiError, Result } from '../../core/result.js';
import type { TdKey } from '../../player/factory.js';
import type { GoResult } from '../../player/player.js';
import type { EngineOption } from './engine-options.js';
import type { ClockWords } from './go-command.js';

/** The engine settings the options drive (defaults come from the engine config). */
export interface EngineSettings {
  search: string;
  hashMb: number;
  moveOverheadMs: number;
  ponder: boolean;
  /** The weights file of this protocol's game. */
  evalFile: string;
  /** The MCTS net of this protocol's game (`''`: the default lookup of src/player/mcts-factory.ts `modelPathOf`). */
  modelFile: string;
  /** MCTS draw score, per cent of a win for the side to move at the root (config `engine.mctsDrawScore`). */
  drawScore: number;
  /** The alpha-beta evaluation, `linear` or `nnue` (option `Eval`; config `engine.chessEval` / `shogiEval`). */
  evalKind: string;
  /** The network file of this protocol's game (config `engine.chessNnue` / `shogiNnue`). */
  nnueFile: string;
  /** UCI_Chess960 (chess only). */
  chess960: boolean;
  /** MultiPV: principal variations the alpha-beta search reports (1 = the usual single line). */
  multiPv: number;
  /** Search threads of the alpha-beta player (Lazy SMP) and of MCTS on the CPU networks (config `engine.threads`). */
  threads: number;
  /** Alpha-beta margin overrides, `name=value;...` (option `SearchTuning`; config `engine.searchTuning`). */
  searchTuning: string;
  /** Margins set one by one by their spin options (over `searchTuning`). */
  tuningValues: Readonly<Record<string, number>>;
  /** MCTS on the CPU networks: `key=value` overrides (option `MctsTuning`; config `engine.mctsTuning`). */
  mctsTuning: string;
  /** MCTS on the CPU networks: the policy file, `oneply`, or empty for the one beside the value network (option `PolicyFile`; config `engine.mctsPolicy`). */
  policyFile: string;
  /** The network evaluation on the SIMD kernels (option `NnueSimd`; config `engine.nnueSimd`). */
  nnueSimd: boolean;
  /** TD search of `Search` dyna2 and td (config `engine.td*`, no options; absent: their defaults). */
  td?: Partial<Pick<EngineConfig, TdKey>>;
}

/** The start of a `position` command, checked. */
export interface PositionStart {
  /** `startpos` or the start FEN/SFEN (normalised by the adapter). */
  readonly start: string;
  /** Variant key for the Player (`standard`, `chess960`, `fromPosition`). */
  readonly variant: string;
  /** The game at the start position. */
  readonly game: GameState<unknown>;
}

/** A validated position: what `position` set. */
export interface PositionState {
  readonly start: string;
  readonly variant: string;
  /** Moves from `start`, in the adapter's notation. */
  readonly moves: readonly string[];
  /** The moves as the GUI sent them (to recognise the next `position` as a continuation). */
  readonly sent: readonly string[];
  /** The position after the moves (never mutated once set). */
  readonly game: GameState<unknown>;
}

export interface Dialect {
  readonly protocol: 'uci' | 'usi';
  readonly game: GameKind;
  readonly clockWords: ClockWords;
  /** The options to declare, with defaults from the settings. */
  options(defaults: EngineSettings): EngineOption[];
  /** Parses the words of `position` before `moves` (`startpos`, `fen ...`, `sfen ...`). */
  parseStart(head: readonly string[], settings: EngineSettings): Result<PositionStart, KishiError>;
  /** The words after `bestmove` for a Player answer (`resign` means no legal move in UCI). */
  bestmove(result: GoResult): string;
  /** `go perft N` output lines (Stockfish style: one `move: count` per root move, then the total). */
  perft(position: PositionState, depth: number, settings: EngineSettings): string[];
}
