import { section } from './section.js';

/** TD-Leaf(λ) learning from our own games (src/learning/tdleaf/). */
export interface LearningConfig {
  readonly online: boolean;
  readonly lambda: number;
  readonly alpha: number;
  /**
   * TD-Leaf step size when the evaluation is a network (its parameters are on the trainer's float
   * scale). 0.01 moved the shipped chess net's output weights by 2.6% (rms) in two games; 0.001 is a
   * tenth of that. Measured with these defaults: 150 online games against the fixed supervised chess
   * net (1000 nodes/move, tools/compare/tdleaf-comparison.ts --model nnue), then 5000 nodes/move against it:
   * +54 Elo [+16, +94] and +67 [+26, +109] (200 games each, two opening seeds).
   */
  readonly nnueAlpha: number;
  readonly beta: number;
  readonly pruneBlundersCp: number;
  readonly maxChangePerGameCp: number;
  readonly ratingFloor: number;
  readonly networkTimeLossMs: number;
  readonly minMoves: number;
}

/**
 * Defaults, shared by the config schema and `kishi train tdleaf`. beta = atanh(0.25) / 100: KnightCap's
 * squashing, one pawn -> 0.25 (src/learning/tdleaf/squash.ts); alpha 1000 is a tenth of KnightCap's
 * alpha = 1.0 (which is 1e4 on the centipawn scale).
 */
export const LEARNING_DEFAULTS: LearningConfig = {
  online: false,
  lambda: 0.7,
  alpha: 1000,
  nnueAlpha: 0.001,
  beta: Math.atanh(0.25) / 100,
  pruneBlundersCp: 150,
  maxChangePerGameCp: 10,
  ratingFloor: 0,
  networkTimeLossMs: 2000,
  minMoves: 5,
};

const d = LEARNING_DEFAULTS;

export const learningSection = section('Learning from our own games (TD-Leaf, KnightCap style).', {
  online: { type: 'boolean', default: d.online, description: 'update the live weights (engine.chessWeights / shogiWeights) after every finished game' },
  lambda: { type: 'number', minimum: 0, maximum: 1, default: d.lambda, description: 'TD-Leaf lambda, decay of the temporal differences (0..1)' },
  alpha: { type: 'number', minimum: 0, default: d.alpha, description: 'TD-Leaf step size on the centipawn scale (KnightCap alpha 1.0 = 10000)' },
  nnueAlpha: {
    type: 'number',
    minimum: 0,
    default: d.nnueAlpha,
    description: 'TD-Leaf step size when the game plays with the network evaluation (engine.<game>Eval: nnue): its float parameters, re-quantised after every game',
  },
  beta: {
    type: 'number',
    exclusiveMinimum: 0,
    default: d.beta,
    description: 'squashing tanh(beta * score), per centipawn (KnightCap: one pawn -> 0.25, 0.002554)',
  },
  pruneBlundersCp: {
    type: 'number',
    minimum: 0,
    default: d.pruneBlundersCp,
    description: 'ignore gains after an unpredicted opponent move that jumped the score by more than this, centipawns (0: off)',
  },
  maxChangePerGameCp: {
    type: 'number',
    minimum: 0,
    default: d.maxChangePerGameCp,
    description: 'online: largest change of one weight per game, centipawns (0: no cap)',
  },
  ratingFloor: {
    type: 'number',
    minimum: 0,
    default: d.ratingFloor,
    description: 'online: stop learning while our rating at the start of a game is below this (0: no floor)',
  },
  networkTimeLossMs: {
    type: 'integer',
    minimum: 0,
    default: d.networkTimeLossMs,
    description: 'a loss on time with more than this on our clock when we last had to move is the network (never learnt), milliseconds',
  },
  minMoves: { type: 'integer', minimum: 1, default: d.minMoves, description: 'games with fewer of our searched moves are not learnt from' },
});
