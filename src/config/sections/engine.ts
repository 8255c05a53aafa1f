import { section } from './section.js';

/**
 * Which search plays: MCTS with a net, alpha-beta with the linear evaluation, `auto` (MCTS when a
 * model loads), or `dyna2`: TD search, then alpha-beta over the long-term plus short-term evaluation
 * (src/search/td/, docs/td-search.md), or `td`: TD search alone, its move the greedy one over the
 * value function it learned (the paper's TD search player; a measurement baseline, not a player to ship).
 */
export const SEARCH_KINDS = ['auto', 'mcts', 'alphabeta', 'dyna2', 'td'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The alpha-beta search's static evaluation: the sparse linear function or the network (NNUE). */
export const EVAL_KINDS = ['linear', 'nnue'] as const;
export type EvalKind = (typeof EVAL_KINDS)[number];

/** Defaults of the TD search parameters (src/search/td/td-search.ts `TdSearchParams`). */
export const TD_DEFAULTS = {
  lambda: 0.8,
  stepSize: 0.1,
  epsilon: 0.1,
  episodePlies: 12,
  simulations: 1000,
  timeShare: 0.3,
  carry: 1,
  quiet: false,
} as const;
const D = TD_DEFAULTS;

export interface EngineConfig {
  readonly search: SearchKind;
  readonly hashMb: number;
  readonly threads: number;
  readonly moveOverheadMs: number;
  readonly ponder: boolean;
  readonly chessWeights: string;
  readonly shogiWeights: string;
  readonly chessEval: EvalKind;
  readonly shogiEval: EvalKind;
  readonly chessNnue: string;
  readonly shogiNnue: string;
  readonly chessModel: string;
  readonly shogiModel: string;
  readonly mctsMinClockMs: number;
  readonly mctsDrawScore: number;
  /** TD search of `search: dyna2` (src/search/td/td-search.ts `TdSearchParams`). */
  readonly tdLambda: number;
  readonly tdStepSize: number;
  readonly tdEpsilon: number;
  readonly tdEpisodePlies: number;
  readonly tdSimulations: number;
  readonly tdTimeShare: number;
  readonly tdCarry: number;
  readonly tdQuiet: boolean;
  readonly mctsPolicy: string;
  readonly mctsTuning: string;
  readonly searchTuning: string;
  readonly nnueSimd: boolean;
}

export const engineSection = section('The built-in engine, shared by every server.', {
  search: { enum: SEARCH_KINDS, default: 'alphabeta', description: 'auto | mcts | alphabeta | dyna2 | td' },
  hashMb: { type: 'integer', minimum: 1, maximum: 65536, default: 64, description: 'alpha-beta transposition table size, MiB' },
  threads: { type: 'integer', minimum: 1, maximum: 256, default: 1, description: 'search worker threads per game' },
  moveOverheadMs: {
    type: 'integer',
    minimum: 0,
    maximum: 60000,
    default: 1000,
    description: 'time kept back per move for network lag, milliseconds',
  },
  ponder: { type: 'boolean', default: false, description: "think on the opponent's time" },
  chessWeights: { type: 'string', default: 'models/chess-linear.json', description: 'linear evaluation weights for chess (path)' },
  shogiWeights: { type: 'string', default: 'models/shogi-linear.json', description: 'linear evaluation weights for shogi (path)' },
  chessEval: { enum: EVAL_KINDS, default: 'nnue', description: 'alpha-beta evaluation for chess: linear | nnue (a network that fails to load falls back to linear, logged)' },
  shogiEval: { enum: EVAL_KINDS, default: 'nnue', description: 'alpha-beta evaluation for shogi: linear | nnue (a network that fails to load falls back to linear, logged)' },
  chessNnue: { type: 'string', default: 'models/chess-nnue.bin', description: 'network evaluation for chess (path; its manifest sits beside it)' },
  shogiNnue: { type: 'string', default: 'models/shogi-nnue.bin', description: 'network evaluation for shogi (path; its manifest sits beside it)' },
  chessModel: { type: 'string', default: 'models/chess-mcts-value.bin', description: 'MCTS nets for chess: an NNUE .bin runs the CPU networks (far stronger on a CPU; chess-mcts-value.bin is the value trained on game results for MCTS), an ONNX path the ResNet (models/chess-int8.onnx is 2-3x faster than models/chess.onnx)' },
  shogiModel: { type: 'string', default: 'models/shogi-mcts-value.bin', description: 'MCTS nets for shogi: an NNUE .bin runs the CPU networks (far stronger on a CPU; shogi-mcts-value.bin is the value trained on game results for MCTS), an ONNX path the ResNet (models/shogi-int8.onnx is 2-3x faster than models/shogi.onnx)' },
  mctsMinClockMs: {
    type: 'integer',
    minimum: 0,
    default: 10000,
    description: 'with search auto: below this remaining clock, milliseconds, alpha-beta plays instead of MCTS',
  },
  mctsDrawScore: {
    type: 'integer',
    minimum: -100,
    maximum: 100,
    default: 0,
    description: "MCTS: what a draw by the rules is worth to the side to move at the root, per cent of a win (Lc0's DrawScore; negative avoids repetitions)",
  },
  tdLambda: { type: 'number', minimum: 0, maximum: 1, default: D.lambda, description: 'search dyna2: lambda of the TD search' },
  tdStepSize: { type: 'number', minimum: 0, default: D.stepSize, description: 'search dyna2: TD search step size, per logit unit' },
  tdEpsilon: { type: 'number', minimum: 0, maximum: 1, default: D.epsilon, description: 'search dyna2: share of random moves in the simulations' },
  tdEpisodePlies: { type: 'integer', minimum: 1, maximum: 200, default: D.episodePlies, description: 'search dyna2: plies per simulated game at most' },
  tdSimulations: { type: 'integer', minimum: 0, default: D.simulations, description: 'search dyna2: simulated games per move at most' },
  tdTimeShare: { type: 'number', minimum: 0, maximum: 0.9, default: D.timeShare, description: "search dyna2: share of the move's time for TD search before alpha-beta" },
  tdCarry: { type: 'number', minimum: 0, maximum: 1, default: D.carry, description: 'search dyna2: share of the short-term memory kept at a new move (1: kept, as the paper; 0: reset; a new game always resets)' },
  tdQuiet: { type: 'boolean', default: D.quiet, description: 'search dyna2 and td: values and features of the simulated positions at their quiescence leaves (ours, not the paper\'s)' },
  mctsPolicy: {
    type: 'string',
    default: '',
    description: "MCTS on the CPU networks: the policy network file (path), 'oneply' for the one-ply prior, empty for <game>-policy.bin beside the value network",
  },
  mctsTuning: {
    type: 'string',
    default: '',
    description: 'MCTS on the CPU networks: key=value overrides separated by commas or semicolons (tau, qplies, ptau, k, cpuct, cpuctFactor, fpu, tsoft, textend, mplies, mnodes, mcands, gumbel; src/player/mcts-cpu-nets.ts)',
  },
  searchTuning: {
    type: 'string',
    default: '',
    description: 'alpha-beta: name=value overrides of the search margins separated by semicolons (src/search/alphabeta/tuning.ts; kishi tune prints them)',
  },
  nnueSimd: { type: 'boolean', default: true, description: 'run the network evaluation on the WebAssembly SIMD kernels where the runtime has them' },
});
