/**
 * The trainer's side of a network evaluation (`--model nnue`), chess or shogi: search boards that
 * play with the integer network re-derived from the float master copy theta (src/eval/nnue/
 * trainable.ts), and H(s) with its gradient by backpropagation (float-network.ts) where the linear
 * adapters give phi(s). TreeStrap's update rule is unchanged: Delta theta = eta * sum (delta_a +
 * delta_b) * dH/dtheta; for a linear H that is the paper's phi(s), for the network its gradient (the
 * paper's rule is gradient descent on the squared bound violations, which is what this is).
 *
 * "material" (the fixed reference of evaluations and `--init material`) is the start network.
 */
import { ChessLinearEval } from '../../eval/linear/chess-eval.js';
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../eval/linear/material.js';
import { ShogiLinearEval } from '../../eval/linear/shogi-eval.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { WeightsProvenance } from '../../eval/linear/weights.js';
import { ChessNnue } from '../../eval/nnue/chess-nnue.js';
import { paramNames, quantise } from '../../eval/nnue/float-network.js';
import type { NnueManifest } from '../../eval/nnue/format.js';
import { ShogiNnue } from '../../eval/nnue/shogi-nnue.js';
import { TrainableNetwork } from '../../eval/nnue/trainable.js';
import type { GameKind } from '../../core/game.js';
import type { KishiError, Result } from '../../core/result.js';
import { ChessSearchBoard } from '../../search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../search/alphabeta/shogi-board.js';
import { learntNetworkFiles, startedFrom } from '../nnue/network-files.js';
import { ChessTrainingAdapter } from './chess-adapter.js';
import { ShogiTrainingAdapter } from './shogi-adapter.js';
import type { EnginePlayer, GameEnd, ModelFile, TrainingAdapter } from './training-adapter.js';

/** The parameter "feature set" of a network: version names the architecture, names the parameters. */
export const networkParameterSet = (t: TrainableNetwork): FeatureSet<never> => {
  const n = t.net;
  const names = paramNames(t.layout);
  return {
    game: n.game,
    version: `nnue-${n.game}-${n.features}x${n.hidden}-${n.activation}`,
    size: t.layout.size,
    names,
    indexOf: new Map(names.map((x, i) => [x, i])),
    // Parameters are not features of a board: nothing calls this for a network (see `gradient`).
    extract: () => {
      throw new Error('a network has no linear features');
    },
  };
};

export class NnueTrainingAdapter implements TrainingAdapter {
  readonly game: GameKind;
  readonly featureSet: FeatureSet<never>;
  readonly theta: Float64Array;
  readonly trainable: TrainableNetwork;
  /** The rules (`outcome`) and the linear evaluator the search boards carry unused. */
  private readonly rules: ChessTrainingAdapter | ShogiTrainingAdapter;
  private readonly chessLinear: ChessLinearEval | undefined;
  private readonly shogiLinear: ShogiLinearEval | undefined;
  private readonly linearTheta: Float64Array;

  /**
   * `theta`: the float master copy being learned (used by reference), of `start`'s architecture;
   * `startTheta`: the start network's, the fixed reference; `manifest`: the start network's (kept in
   * the files written, references recomputed).
   */
  constructor(
    private readonly start: TrainableNetwork,
    theta: Float64Array,
    private readonly manifest: NnueManifest,
  ) {
    this.trainable = new TrainableNetwork(start.net, theta);
    this.theta = theta;
    this.game = start.net.game;
    this.featureSet = networkParameterSet(this.trainable);
    this.linearTheta = this.game === 'chess' ? chessMaterialTheta() : shogiMaterialTheta();
    if (this.game === 'chess') {
      this.rules = new ChessTrainingAdapter(this.linearTheta);
      this.chessLinear = new ChessLinearEval(this.linearTheta);
    } else {
      this.rules = new ShogiTrainingAdapter(this.linearTheta);
      this.shogiLinear = new ShogiLinearEval(this.linearTheta);
    }
  }

  board(start: string, moves: readonly string[]): Result<SearchBoard, KishiError> {
    if (this.game === 'chess') return ChessSearchBoard.fromText(start, moves, this.chessLinear!, false, new ChessNnue(this.trainable.net));
    return ShogiSearchBoard.fromText(start, moves, this.shogiLinear!, new ShogiNnue(this.trainable.net));
  }

  /** dH/dtheta at the board's position (first player's view); the linear trainer's phi(s). */
  features(board: SearchBoard, out: SparseVector): void {
    this.gradient(board, out);
  }

  gradient(board: SearchBoard, out: SparseVector): number {
    out.clear();
    return this.trainable.value((board as ChessSearchBoard | ShogiSearchBoard).board, out);
  }

  /** Re-quantises the network from theta and re-attaches the boards' accumulators (a full refresh). */
  refresh(boards: readonly SearchBoard[]): void {
    this.trainable.sync();
    for (const b of boards) {
      if (b instanceof ChessSearchBoard) b.nnue?.attach(b.board);
      else if (b instanceof ShogiSearchBoard) b.nnue?.attach(b.board);
    }
  }

  /** The start network's parameters (the fixed reference). */
  materialTheta(): Float64Array {
    return this.start.theta.slice();
  }

  enginePlayer(theta: Float64Array): EnginePlayer {
    return { theta: this.linearTheta, nnue: quantise(theta, this.start.net) };
  }

  modelFiles(theta: Float64Array, provenance: WeightsProvenance): readonly ModelFile[] {
    const t = new TrainableNetwork(this.start.net, theta.slice());
    const f = learntNetworkFiles(t, this.manifest, {
      method: provenance.method,
      ...(provenance.games !== undefined ? { games: provenance.games } : {}),
      date: provenance.date ?? new Date().toISOString(),
      ...(provenance.notes !== undefined ? { notes: `${provenance.command ?? ''}; ${provenance.notes}` } : {}),
      startedFrom: startedFrom(this.manifest),
    });
    return [
      { suffix: '.bin.master', data: f.master },
      { suffix: '.manifest.json', data: f.manifest },
      { suffix: '.bin', data: f.bin },
    ];
  }

  outcome(board: SearchBoard): GameEnd | undefined {
    return this.rules.outcome(board);
  }
}
