import { section } from './section.js';

/** Which search plays: MCTS with a net, alpha-beta with the linear evaluation, or `auto` (MCTS when a model loads). */
export const SEARCH_KINDS = ['auto', 'mcts', 'alphabeta'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The alpha-beta search's static evaluation: the sparse linear function or the network (NNUE). */
export const EVAL_KINDS = ['linear', 'nnue'] as const;
export type EvalKind = (typeof EVAL_KINDS)[number];

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
  readonly mctsPolicy: string;
  readonly mctsTuning: string;
  readonly searchTuning: string;
  readonly nnueSimd: boolean;
}

export const engineSection = section('The built-in engine, shared by every server.', {
  search: { enum: SEARCH_KINDS, default: 'alphabeta', description: 'auto | mcts | alphabeta' },
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
  chessModel: { type: 'string', default: 'models/chess-nnue.bin', description: 'MCTS nets for chess: an NNUE .bin runs the CPU networks (far stronger on a CPU), an ONNX path the ResNet (models/chess-int8.onnx is 2-3x faster than models/chess.onnx)' },
  shogiModel: { type: 'string', default: 'models/shogi-nnue.bin', description: 'MCTS nets for shogi: an NNUE .bin runs the CPU networks (far stronger on a CPU), an ONNX path the ResNet (models/shogi-int8.onnx is 2-3x faster than models/shogi.onnx)' },
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
