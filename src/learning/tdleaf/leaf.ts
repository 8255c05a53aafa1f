/**
 * From a game log to TD-Leaf samples: the game is replayed on the search's own board (so the
 * repetition and fifty-move history is the one the search saw), every move is checked for legality,
 * and for each of our searched moves the principal variation is played out to its leaf.
 *
 * The search's principal variation stops at the horizon; its score comes from the quiescence search
 * below it, which does not extend the variation. So the leaf is resolved further by a quiescence
 * search that keeps its principal variation (the engine's own rules: stand pat, captures and
 * promotions, every evasion in check) with the current weights: the evaluation of that quiet leaf is
 * the score the search reported (exactly, when the weights are those it played with and its
 * quiescence did not prune), and its features are the gradient of that score. With a network
 * evaluation the leaf is found with the integer network the engine plays, and its value and
 * gradient come from the float master copy (float-network.ts; equal to the integer output up to
 * rounding), the gradient by backpropagation. A leaf decided by the
 * rules (mate, stalemate, repetition, fifty moves) has a fixed value and no gradient.
 */
import type { GameKind, Side } from '../../core/game.js';
import { ChessLinearEval } from '../../eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../eval/linear/chess-features.js';
import { ShogiLinearEval } from '../../eval/linear/shogi-eval.js';
import { SHOGI_FEATURES } from '../../eval/linear/shogi-features.js';
import { SparseVector } from '../../eval/linear/sparse.js';
import { ChessNnue } from '../../eval/nnue/chess-nnue.js';
import { ShogiNnue } from '../../eval/nnue/shogi-nnue.js';
import type { TrainableNetwork } from '../../eval/nnue/trainable.js';
import { ChessSearchBoard } from '../../search/alphabeta/chess-board.js';
import { EVAL_LIMIT } from '../../search/alphabeta/score.js';
import { QuiescenceSearch } from '../../search/alphabeta/quiescence.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { RULE_DRAW, RULE_LOSS, RULE_NONE, RULE_WIN } from '../../search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../search/alphabeta/shogi-board.js';
import type { ReadGameLog } from '../../records/game-log-reader.js';
import type { LeafSample } from './td-lambda.js';

/** The chess variants the internal board plays. */
const CHESS_VARIANTS = ['standard', 'chess960', 'fromPosition'];

/** A game's evaluation over its search board (linear, or a network), with theta shared by reference. */
export interface LeafEvaluator {
  readonly game: GameKind;
  readonly theta: Float64Array;
  /** A search board at `start` (`startpos` or FEN/SFEN), or why not. */
  board(start: string, variant: string): SearchBoard | string;
  /**
   * H(s) of the board's position from the first player's view at theta, and its gradient dH/dtheta
   * into `out` (cleared first): phi(s) for the linear evaluation, backpropagation for a network.
   */
  gradient(board: SearchBoard, out: SparseVector): number;
  /** Call after changing theta (a network is re-quantised). */
  refresh(): void;
}

/**
 * The evaluator of `game` over `theta` (used by reference): the linear evaluation, or with `network`
 * (whose master copy must be `theta`) the network, the boards searching with its integer weights.
 */
export function leafEvaluator(game: GameKind, theta: Float64Array, network?: TrainableNetwork): LeafEvaluator {
  if (network !== undefined) return networkLeafEvaluator(game, theta, network);
  if (game === 'chess') {
    const ev = new ChessLinearEval(theta);
    return {
      game,
      theta,
      board: (start, variant) => {
        if (!CHESS_VARIANTS.includes(variant)) return `variant ${variant} is not supported`;
        const b = ChessSearchBoard.fromText(start, [], ev, variant === 'chess960');
        return b.isOk ? b.value : b.error.message;
      },
      gradient: (board, out) => {
        out.clear();
        CHESS_FEATURES.extract((board as ChessSearchBoard).board, out);
        return out.dot(theta);
      },
      refresh: () => ev.refresh(),
    };
  }
  const ev = new ShogiLinearEval(theta);
  return {
    game,
    theta,
    board: (start, variant) => {
      if (variant !== 'standard') return `variant ${variant} is not supported`;
      const b = ShogiSearchBoard.fromText(start, [], ev);
      return b.isOk ? b.value : b.error.message;
    },
    gradient: (board, out) => {
      out.clear();
      SHOGI_FEATURES.extract((board as ShogiSearchBoard).board, out);
      return out.dot(theta);
    },
    refresh: () => ev.refresh(),
  };
}

/** The network's evaluator: boards with the integer network, H and its gradient from the float master copy. */
function networkLeafEvaluator(game: GameKind, theta: Float64Array, network: TrainableNetwork): LeafEvaluator {
  if (network.theta !== theta) throw new Error('the network\'s master copy must be theta');
  if (network.game !== game) throw new Error(`a ${network.game} network for a ${game} game`);
  // The boards carry a linear evaluator that the network replaces.
  const chess = game === 'chess' ? new ChessLinearEval(new Float64Array(CHESS_FEATURES.size)) : undefined;
  const shogi = game === 'shogi' ? new ShogiLinearEval(new Float64Array(SHOGI_FEATURES.size)) : undefined;
  return {
    game,
    theta,
    board: (start, variant) => {
      if (chess !== undefined) {
        if (!CHESS_VARIANTS.includes(variant)) return `variant ${variant} is not supported`;
        const b = ChessSearchBoard.fromText(start, [], chess, variant === 'chess960', new ChessNnue(network.net));
        return b.isOk ? b.value : b.error.message;
      }
      if (variant !== 'standard') return `variant ${variant} is not supported`;
      const b = ShogiSearchBoard.fromText(start, [], shogi!, new ShogiNnue(network.net));
      return b.isOk ? b.value : b.error.message;
    },
    gradient: (board, out) => {
      out.clear();
      return network.value((board as ChessSearchBoard | ShogiSearchBoard).board, out);
    },
    refresh: () => network.sync(),
  };
}

/** A resolved principal leaf. */
export interface ResolvedLeaf {
  /** The moves played from the root: the logged pv, then the quiescence pv. */
  readonly moves: readonly number[];
  /** H(leaf) from the root mover's view, centipawns, or the terminal value's centipawn stand-in. */
  readonly value: number;
  /** dH(leaf)/dtheta from the root mover's view (phi(leaf) for the linear evaluation); empty when terminal. */
  readonly features: Map<number, number>;
  /** Fixed squashed value from the root mover's view, for a leaf decided by the rules. */
  readonly terminal?: number;
  /** The quiet leaf position (FEN/SFEN). */
  readonly text: string;
}

/**
 * The engine's quiescence search (src/search/alphabeta/quiescence.ts: stand pat unless in check;
 * captures and promotions in its order, or every evasion in check; mate when an evasion is
 * missing) without its pruning or a node budget, keeping its principal variation.
 */
class LeafQuiescence extends QuiescenceSearch {
  protected poll(): void {}

  /** The quiescence line from the board's position (the board is left as it was). */
  line(board: SearchBoard): number[] {
    return this.principalLine(board);
  }
}

const leafQuiescence = new LeafQuiescence();

/**
 * Resolves the principal leaf below the board's current position after `pvMoves` (already legal
 * move numbers): plays them, applies the rules at the leaf, then follows the quiescence pv. The board
 * is left as it was. `sign` is +1 when the root mover is the first player, else -1.
 */
export function resolveLeaf(board: SearchBoard, pvMoves: readonly number[], ev: LeafEvaluator, rootSideToMove: number): ResolvedLeaf {
  const sign = rootSideToMove === 0 ? 1 : -1;
  const played: number[] = [];
  const undo = (): void => {
    for (let i = 0; i < played.length; i++) board.unmake();
  };
  for (const m of pvMoves) {
    board.make(m);
    played.push(m);
  }
  // The rules first (the search applies them at every node below the root).
  if (played.length > 0) {
    const rule = board.ruleState();
    if (rule !== RULE_NONE) {
      const text = board.toText();
      // RULE_WIN/LOSS are from the side to move at the leaf.
      const leafMoverIsRoot = board.sideToMove() === rootSideToMove;
      const forMover = rule === RULE_DRAW ? 0 : rule === RULE_WIN ? 1 : rule === RULE_LOSS ? -1 : 0;
      const terminal = leafMoverIsRoot ? forMover : -forMover;
      undo();
      return { moves: played, value: terminal * EVAL_LIMIT, features: new Map(), terminal, text };
    }
  }
  for (const m of leafQuiescence.line(board)) {
    board.make(m);
    played.push(m);
  }
  const text = board.toText();
  let result: ResolvedLeaf;
  const list = new Int32Array(board.maxMoves);
  if (board.generate(list, false) === 0) {
    // Mate (or stalemate / shogi no-move loss).
    const inCheck = board.inCheck();
    const lost = board.noMovesIsLoss(inCheck);
    const leafMoverIsRoot = board.sideToMove() === rootSideToMove;
    const terminal = lost ? (leafMoverIsRoot ? -1 : 1) : 0;
    result = { moves: played, value: terminal * EVAL_LIMIT, features: new Map(), terminal, text };
  } else {
    const phi = new SparseVector();
    const value = sign * ev.gradient(board, phi);
    const features = new Map<number, number>();
    for (const [i, v] of phi.toMap()) features.set(i, sign * v);
    result = { moves: played, value, features, text };
  }
  for (let i = 0; i < played.length; i++) board.unmake();
  return result;
}

/** A problem replaying a log, at a line of its file. */
export interface ReplayProblem {
  readonly line: number;
  readonly message: string;
}

/** The TD-Leaf view of one logged game. */
export interface GameSamples {
  readonly samples: LeafSample[];
  /** The log line of each sample's move. */
  readonly lines: number[];
  /** Differences between the recomputed leaf evaluation and the logged score, centipawns (diagnostic). */
  readonly scoreGaps: number[];
}

const SPECIAL_MOVES = new Set(['resign', 'win', '%TORYO', '%KACHI']);

/** Compares the fields of two FEN/SFEN texts that must agree: placement and side to move. */
const samePosition = (a: string, b: string): boolean => {
  const fa = a.trim().split(/\s+/);
  const fb = b.trim().split(/\s+/);
  return fa[0] === fb[0] && fa[1] === fb[1];
};

/**
 * Replays `log` and returns a sample per searched move of ours, or the first problem that makes the
 * log unusable (an illegal move, a pv illegal in its position, positions that disagree with the moves).
 */
export function gameSamples(log: ReadGameLog, ev: LeafEvaluator): GameSamples | ReplayProblem {
  const h = log.header;
  const ours: Side = h.ourSide;
  const made = ev.board(h.start, h.variant);
  if (typeof made === 'string') return { line: 1, message: `cannot set up the start position: ${made}` };
  const board = made;
  const samples: LeafSample[] = [];
  const lines: number[] = [];
  const scoreGaps: number[] = [];
  const predicted: (string | undefined)[] = [];
  const samplePly: number[] = [];
  const moves = log.moves;
  for (let k = 0; k < moves.length; k++) {
    const m = moves[k]!;
    if (m.ply !== k) return { line: m.line, message: `move for ply ${m.ply} where ply ${k} was expected` };
    if (SPECIAL_MOVES.has(m.move)) {
      if (k === moves.length - 1) break;
      return { line: m.line, message: `${m.move} before the last move` };
    }
    const here = board.toText();
    if (m.position !== '' && !samePosition(m.position, here)) {
      return { line: m.line, message: `logged position ${JSON.stringify(m.position)} does not follow from the moves (${here})` };
    }
    const moverSide = board.sideToMove() === 0 ? 'first' : 'second';
    if (moverSide !== m.side) return { line: m.line, message: `move by ${m.side}, but ${moverSide} is to move in ${here}` };
    const s = m.search;
    if (m.ours && m.side === ours && s !== undefined && s.pv.length > 0) {
      const pvMoves: number[] = [];
      for (const text of s.pv) {
        const pm = board.parseMove(text);
        if (pm === 0) {
          for (let i = 0; i < pvMoves.length; i++) board.unmake();
          return { line: m.line, message: `pv move ${JSON.stringify(text)} is illegal in its position (pv ${s.pv.join(' ')} from ${here})` };
        }
        pvMoves.push(pm);
        board.make(pm);
      }
      const leafText = board.toText();
      for (let i = 0; i < pvMoves.length; i++) board.unmake();
      if (s.pvLeaf !== undefined && !samePosition(s.pvLeaf, leafText)) {
        return { line: m.line, message: `logged pvLeaf ${JSON.stringify(s.pvLeaf)} is not the end of the pv (${leafText})` };
      }
      const leaf = resolveLeaf(board, pvMoves, ev, board.sideToMove());
      const score = s.score;
      let sample: LeafSample;
      if ('mate' in score) {
        // A proven mate: the leaf is the mated position, whatever the weights.
        const terminal = score.mate > 0 ? 1 : -1;
        sample = { value: terminal * EVAL_LIMIT, features: new Map(), terminal };
      } else {
        sample = leaf.terminal !== undefined ? { value: leaf.value, features: leaf.features, terminal: leaf.terminal } : { value: leaf.value, features: leaf.features };
        scoreGaps.push(leaf.terminal !== undefined ? 0 : leaf.value - score.cp);
      }
      samples.push(sample);
      lines.push(m.line);
      predicted.push(s.pv[1]);
      samplePly.push(k);
    }
    const mv = board.parseMove(m.move);
    if (mv === 0) return { line: m.line, message: `move ${JSON.stringify(m.move)} is illegal in the recorded position ${here}` };
    board.make(mv);
  }
  // Whether each opponent reply was the one our pv predicted (KnightCap's blunder pruning).
  const withReplies = samples.map((s, i) => {
    const reply = moves[samplePly[i]! + 1];
    if (reply === undefined || reply.ours || predicted[i] === undefined) return s;
    return { ...s, replyPredicted: reply.move === predicted[i] };
  });
  return { samples: withReplies, lines, scoreGaps };
}

/** Whether a `gameSamples` answer is a problem. */
export const isReplayProblem = (x: GameSamples | ReplayProblem): x is ReplayProblem => 'message' in x;

/** The result from our view: +1 win, 0 draw, -1 loss (undefined for an unfinished game). */
export const resultForUs = (log: ReadGameLog): number | undefined => {
  const r = log.result;
  if (r === undefined) return undefined;
  return r.winner === null ? 0 : r.winner === log.header.ourSide ? 1 : -1;
};
