/**
 * Opponents driven by the local server: a script of moves and actions, then an engine policy
 * (first legal move, seeded random, or greedy: mate in one, else the most valuable capture, else random).
 * Deterministic for a given seed, so tests can assert exact outcomes.
 */
import type { Position } from 'chessops/chess';
import { makeUci } from 'chessops/util';
import type { Role } from 'chessops/types';
import { seededRng } from '../../../core/rng.js';

export type OpponentAction =
  | { readonly type: 'move'; readonly uci: string; readonly offerDraw?: boolean }
  | { readonly type: 'resign' }
  | { readonly type: 'offerDraw' }
  | { readonly type: 'proposeTakeback' }
  | { readonly type: 'chat'; readonly text: string; readonly room?: 'player' | 'spectator' }
  /** Leaves the game: lichess sends `opponentGone` and lets the other side claim after `claimAfterS`. */
  | { readonly type: 'leave' }
  /** Never moves again (the abort or the clock decides). */
  | { readonly type: 'stall' }
  /** Waits before the next action, milliseconds. */
  | { readonly type: 'pause'; readonly ms: number };

export interface OpponentSpec {
  /** Played in order on the opponent's turns; a string is a UCI move. Non-move actions run before the next move. */
  readonly script?: readonly (string | OpponentAction)[];
  /** After the script: how to choose moves. */
  readonly then?: 'firstLegal' | 'random' | 'greedy' | 'stall' | 'resign';
  readonly seed?: number;
  /** Think time per move, milliseconds. */
  readonly delayMs?: number;
  /** Accept the bot's draw offers. */
  readonly acceptDraws?: boolean;
  /** Accept the bot's takeback requests. */
  readonly acceptTakebacks?: boolean;
  /** Resign once the game has this many plies (keeps engine-vs-engine games short). */
  readonly maxPlies?: number;
}

const VALUE: Readonly<Record<Role, number>> = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };

/** Every legal move in UCI (king-to-rook castling), promotions to all pieces. */
export function legalUcis(pos: Position): string[] {
  const out: string[] = [];
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const rank = to >> 3;
      if (piece?.role === 'pawn' && (rank === 0 || rank === 7)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight'] as const) out.push(makeUci({ from, to, promotion }));
      } else out.push(makeUci({ from, to }));
    }
  }
  return out.sort();
}

/** A small deterministic generator (mulberry32, src/core/rng.ts). */
export const seededRandom = seededRng;

export class OpponentDriver {
  private step = 0;
  private readonly random: () => number;

  constructor(readonly spec: OpponentSpec) {
    this.random = seededRandom(spec.seed ?? 1);
  }

  /** The actions for this turn, ending with a move, `resign`, `stall` or `leave` (or nothing left to do). */
  turn(pos: Position, plies = 0): OpponentAction[] {
    const actions: OpponentAction[] = [];
    if (this.spec.maxPlies !== undefined && plies >= this.spec.maxPlies) return [{ type: 'resign' }];
    const script = this.spec.script ?? [];
    while (this.step < script.length) {
      const item = script[this.step++];
      if (item === undefined) break;
      const action: OpponentAction = typeof item === 'string' ? { type: 'move', uci: item } : item;
      actions.push(action);
      if (action.type === 'move' || action.type === 'resign' || action.type === 'stall' || action.type === 'leave') return actions;
    }
    const then = this.spec.then ?? 'firstLegal';
    if (then === 'stall') return [...actions, { type: 'stall' }];
    if (then === 'resign') return [...actions, { type: 'resign' }];
    const moves = legalUcis(pos);
    if (moves.length === 0) return actions;
    const choice = then === 'firstLegal' ? moves[0] : then === 'random' ? this.pickRandom(moves) : this.greedy(pos, moves);
    return choice === undefined ? actions : [...actions, { type: 'move', uci: choice }];
  }

  private pickRandom(moves: readonly string[]): string | undefined {
    return moves[Math.floor(this.random() * moves.length)];
  }

  private greedy(pos: Position, moves: readonly string[]): string | undefined {
    let best: string | undefined;
    let bestValue = 0;
    for (const uci of moves) {
      const after = pos.clone();
      const fromSq = squareOf(uci.slice(0, 2));
      const toSq = squareOf(uci.slice(2, 4));
      const promotion = uci.length > 4 ? roleOf(uci[4] ?? 'q') : undefined;
      const captured = pos.board.get(toSq);
      after.play({ from: fromSq, to: toSq, ...(promotion ? { promotion } : {}) });
      if (after.isCheckmate()) return uci;
      const value = captured && captured.color !== pos.turn ? VALUE[captured.role] : 0;
      if (value > bestValue) {
        bestValue = value;
        best = uci;
      }
    }
    return best ?? this.pickRandom(moves);
  }
}

const squareOf = (name: string): number => (name.charCodeAt(0) - 97) + 8 * (name.charCodeAt(1) - 49);
const roleOf = (c: string): Role => (c === 'r' ? 'rook' : c === 'b' ? 'bishop' : c === 'n' ? 'knight' : c === 'k' ? 'king' : 'queen');
