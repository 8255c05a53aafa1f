/**
 * Replays a manifest's reference positions through an evaluator (encoder, net, masked softmax) and
 * measures how far the outputs are from the recorded ones. Used by tests/nn/model.test.ts and by
 * tools/nn/check-int8.ts.
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { FastChessBoard } from '../games/chess/fast/board.js';
import { FastShogiBoard } from '../games/shogi/fast/board.js';
import { chessContext, chessMoveIndices, encodeChess } from './chess-encoding.js';
import type { Evaluator, NnInput } from './evaluator.js';
import type { ReferencePosition } from './manifest.js';
import { encodeShogi, shogiContext, shogiMoveIndices } from './shogi-encoding.js';

const CHESS_START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** A reference position encoded for the net, with its legal moves as text (policy order). */
export interface EncodedPosition {
  readonly input: NnInput;
  readonly moves: readonly string[];
}

/** Encodes a position given as start text and moves. `ERR_REFERENCE` if it does not parse or a move is illegal. */
export const encodePosition = (game: GameKind, ref: Pick<ReferencePosition, 'start' | 'moves' | 'chess960'>): Result<EncodedPosition, KishiError> => {
  const fail = (why: string): Result<EncodedPosition, KishiError> => Result.err(new KishiError('ERR_REFERENCE', `${ref.start} ${ref.moves.join(' ')}: ${why}`));
  if (game === 'chess') {
    const b = FastChessBoard.fromFen(ref.start === 'startpos' ? CHESS_START : ref.start, ref.chess960 === true);
    if (b.isErr) return fail(b.error.message);
    const board = b.value;
    for (const m of ref.moves) {
      const mv = board.parseUci(m);
      if (mv === 0) return fail(`illegal ${m}`);
      board.makeMove(mv);
    }
    const list = new Int32Array(256);
    const n = board.generateMoves(list);
    const planes = new Float32Array(23 * 64);
    encodeChess(board, chessContext(board), planes, 0);
    const moveIndices = new Int32Array(n);
    chessMoveIndices(board, list, n, moveIndices);
    return Result.ok({ input: { planes, moveIndices, moveCount: n }, moves: Array.from(list.subarray(0, n), (m) => board.moveToUci(m)) });
  }
  const b = FastShogiBoard.fromSfen(ref.start === 'startpos' ? SHOGI_START : ref.start);
  if (b.isErr) return fail(b.error.message);
  const board = b.value;
  for (const m of ref.moves) {
    const mv = board.parseUsi(m);
    if (mv === undefined) return fail(`illegal ${m}`);
    board.makeMove(mv);
  }
  const list = new Int32Array(600);
  const n = board.generateMoves(list);
  const planes = new Float32Array(48 * 81);
  encodeShogi(board, shogiContext(board), planes, 0);
  const moveIndices = new Int32Array(n);
  shogiMoveIndices(board, list, n, moveIndices);
  return Result.ok({ input: { planes, moveIndices, moveCount: n }, moves: Array.from(list.subarray(0, n), (m) => board.moveToUsi(m)) });
};

export interface ReferenceReport {
  readonly positions: number;
  /** Largest absolute differences over all positions. */
  readonly maxValueError: number;
  readonly maxPriorError: number;
  /** Positions whose most likely move differs from the recorded one. */
  readonly top1Mismatches: number;
}

/** Evaluates every reference position and compares with the recorded outputs. */
export const checkReference = async (evaluator: Evaluator, game: GameKind, refs: readonly ReferencePosition[]): Promise<Result<ReferenceReport, KishiError>> => {
  const encoded: EncodedPosition[] = [];
  for (const ref of refs) {
    const e = encodePosition(game, ref);
    if (e.isErr) return Result.err(e.error);
    encoded.push(e.value);
  }
  const outs = await evaluator.evaluate(encoded.map((e) => e.input));
  let maxValueError = 0;
  let maxPriorError = 0;
  let top1Mismatches = 0;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    const out = outs[i]!;
    const moves = encoded[i]!.moves;
    if (Object.keys(ref.priors).length !== moves.length) {
      return Result.err(new KishiError('ERR_REFERENCE', `${ref.start}: ${moves.length} legal moves, the manifest has ${Object.keys(ref.priors).length}`));
    }
    maxValueError = Math.max(maxValueError, Math.abs(out.value - ref.value));
    let best = 0;
    for (let k = 0; k < moves.length; k++) {
      const want = ref.priors[moves[k]!];
      if (want === undefined) return Result.err(new KishiError('ERR_REFERENCE', `${ref.start}: move ${moves[k]} not in the manifest`));
      maxPriorError = Math.max(maxPriorError, Math.abs(out.priors[k]! - want));
      if (out.priors[k]! > out.priors[best]!) best = k;
    }
    const recordedBest = Object.entries(ref.priors).reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    if (moves[best] !== recordedBest) top1Mismatches++;
  }
  return Result.ok({ positions: refs.length, maxValueError, maxPriorError, top1Mismatches });
};
