/**
 * Mate checks around the MCTS root. A value network, even resolved by a capture search, does not
 * see a mate delivered by a run of checks, and the tree MCTS grows in a tenth of a second is too
 * shallow to find one: in the shogi games MCTS lost to alpha-beta it was often mated while valuing
 * its position at +300 (docs/experiments/2026-11-27-shogi-mate-guard.md, session 11). dlshogi (Yamaoka) runs a mate search beside
 * its MCTS for this reason. Here the alpha-beta engine's check-only AND/OR search
 * (src/search/alphabeta/mate-search.ts) runs at the root, node-limited:
 *
 * - before the search, a mate of the side to move within `mateGuardPlies` is played at once;
 * - after it, the chosen move is tested for a mate the opponent then has within the same length;
 *   if it has one the next move by visits is tested, up to `mateGuardCandidates` moves. When all of
 *   them lose to a mate the search's choice stands (the mate may be longer than it looks).
 *
 * The boards are alpha-beta search boards over the MCTS root's own position (the moves that led to
 * it included), so sennichite and perpetual check count in the mate search as they do in alpha-beta's.
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { ChessLinearEval } from '../eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../eval/linear/chess-features.js';
import { ShogiLinearEval } from '../eval/linear/shogi-eval.js';
import { SHOGI_FEATURES } from '../eval/linear/shogi-features.js';
import { FastChessBoard } from '../games/chess/fast/board.js';
import type { FastShogiBoard } from '../games/shogi/fast/board.js';
import { ChessSearchBoard } from '../search/alphabeta/chess-board.js';
import { MateSearch, type MateLimits } from '../search/alphabeta/mate-search.js';
import type { SearchBoard } from '../search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../search/alphabeta/shogi-board.js';

export interface MateGuardSettings {
  /** Longest mate looked for, plies (odd; 0: no guard). */
  readonly plies: number;
  /** Node limit of each mate search. */
  readonly nodes: number;
  /** Root moves tested after the search, best first. */
  readonly candidates: number;
}

/** What the guard decided after the search. */
export interface GuardVerdict {
  /** The move to play (the search's choice when nothing better was proven). */
  readonly move: string;
  /** Moves rejected because the opponent then mates, in the order tested. */
  readonly rejected: readonly string[];
}

export class MctsMateGuard {
  private readonly search = new MateSearch(2);
  /** Evaluations the search boards need to exist; the mate search never calls them. */
  private readonly chessEval = new ChessLinearEval(new Float64Array(CHESS_FEATURES.size));
  private readonly shogiEval = new ShogiLinearEval(new Float64Array(SHOGI_FEATURES.size));

  constructor(
    readonly game: GameKind,
    readonly settings: MateGuardSettings,
  ) {}

  /** The request's position as a search board. */
  board(start: string, moves: readonly string[], chess960: boolean): Result<SearchBoard, KishiError> {
    if (this.game === 'chess') return ChessSearchBoard.fromText(start, moves, this.chessEval, chess960);
    return ShogiSearchBoard.fromText(start, moves, this.shogiEval);
  }

  /**
   * A search board over `board`, a position already parsed (the MCTS engine's root). The guard's
   * make/unmake on it are balanced, so the board is left as it was found: it may be the MCTS
   * board's own, so long as the guard does not run while the MCTS search does.
   */
  boardOn(board: FastChessBoard | FastShogiBoard): SearchBoard {
    return board instanceof FastChessBoard ? new ChessSearchBoard(board, this.chessEval) : new ShogiSearchBoard(board, this.shogiEval);
  }

  /**
   * A mating line (USI/UCI moves) for the side to move within the guard's length, or undefined.
   * `signal` is the player's control array (word 0: stop); `hardMs` caps the time.
   */
  ownMate(board: SearchBoard, signal?: Int32Array, hardMs?: number): string[] | undefined {
    const r = this.search.solve(board, this.limits(signal, hardMs));
    if (r.kind !== 'mate') return undefined;
    const line: string[] = [];
    for (const m of r.moves) {
      line.push(board.moveToText(m));
      board.make(m);
    }
    for (let i = 0; i < r.moves.length; i++) board.unmake();
    return line;
  }

  /**
   * Tests `ranked` (legal moves in USI/UCI, the search's choice first) in order and returns the
   * first after which the opponent has no mate found, with the moves rejected on the way.
   */
  check(board: SearchBoard, ranked: readonly string[], signal?: Int32Array, hardMs?: number): GuardVerdict {
    const rejected: string[] = [];
    const start = performance.now();
    const n = Math.min(ranked.length, this.settings.candidates);
    for (let i = 0; i < n; i++) {
      const text = ranked[i]!;
      const m = board.parseMove(text);
      if (m === 0) break;
      board.make(m);
      const r = this.search.solve(board, this.limits(signal, hardMs === undefined ? undefined : hardMs - (performance.now() - start)));
      board.unmake();
      if (r.kind !== 'mate') return { move: text, rejected };
      rejected.push(text);
    }
    return { move: ranked[0]!, rejected };
  }

  private limits(signal: Int32Array | undefined, hardMs: number | undefined): MateLimits {
    const { plies, nodes } = this.settings;
    return { maxPlies: plies, nodes, ...(signal !== undefined ? { signal } : {}), ...(hardMs !== undefined ? { hardMs: Math.max(1, hardMs) } : {}) };
  }
}
