/**
 * One game on the local lichess-compatible server: the position (chessops validates every move, in either
 * castling form), the move list in lichess's notation (standard castling as `e1g1`, Chess960 as king-to-rook),
 * the clocks (running from the second ply, as on lichess; before that each side has `firstMoveMs` to move
 * or the game is aborted), draw and takeback offers, and the end by the rules (mate, stalemate, threefold,
 * fifty moves, insufficient material, variant end), by resignation, abort, time, or claim.
 */
import type { Position } from 'chessops/chess';
import { normalizeMove, castlingSide } from 'chessops/chess';
import { lichessRules } from 'chessops/compat';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { kingCastlesTo, makeUci, parseUci } from 'chessops/util';
import { setupPosition } from 'chessops/variant';
import type { Color, GameStateEvent, LichessGameStatus as GameStatus, Speed, VariantKey } from '../types.js';

export interface SimUser {
  readonly id: string;
  readonly username: string;
  readonly title?: 'BOT';
  readonly rating: number;
  /** An engine level: the player is lichess's AI (`aiLevel`). */
  readonly aiLevel?: number;
}

export interface SimClock {
  /** Milliseconds. */
  readonly initial: number;
  readonly increment: number;
}

export interface SimGameInit {
  readonly id: string;
  readonly white: SimUser;
  readonly black: SimUser;
  readonly variant: VariantKey;
  /** `startpos` or a FEN. */
  readonly initialFen: string;
  readonly clock?: SimClock;
  readonly daysPerTurn?: number;
  readonly rated: boolean;
  readonly speed: Speed;
  readonly createdAt: number;
  /** Time each side has for its first move before the game is aborted, milliseconds. */
  readonly firstMoveMs: number;
  readonly source: 'friend' | 'lobby' | 'api';
}

export const UNLIMITED_MS = 2147483647;

export class SimGame {
  readonly init: SimGameInit;
  private pos: Position;
  readonly moves: string[] = [];
  /** The mover's clock after each move, ms (the PGN export's `[%clk]`); undefined for a game without a clock. */
  readonly clockAfter: (number | undefined)[] = [];
  /** How long each move took, from its mover's turn start to the move, ms (the first two included: no clock runs then). */
  readonly spentMs: number[] = [];
  private readonly history: Position[] = [];
  private readonly keys: string[] = [];
  status: GameStatus = 'started';
  winner: Color | undefined;
  wtime: number;
  btime: number;
  wdraw = false;
  bdraw = false;
  wtakeback = false;
  btakeback = false;
  /** When the side to move started thinking. */
  turnStartedAt: number;
  /** Ids of the players who are connected (for `opponentGone`). */
  readonly chat: { user: string; room: 'player' | 'spectator'; text: string }[] = [];
  private readonly start: Position;

  constructor(init: SimGameInit, now: number) {
    this.init = init;
    const fen = init.initialFen === 'startpos' ? INITIAL_FEN : init.initialFen;
    const setup = parseFen(fen).unwrap();
    this.start = setupPosition(lichessRules(init.variant), setup).unwrap();
    this.pos = this.start.clone();
    this.keys.push(this.repetitionKey());
    const base = init.clock ? init.clock.initial : init.daysPerTurn !== undefined ? init.daysPerTurn * 86_400_000 : UNLIMITED_MS;
    this.wtime = base;
    this.btime = base;
    this.turnStartedAt = now;
  }

  get id(): string {
    return this.init.id;
  }

  turn(): Color {
    return this.pos.turn;
  }

  plies(): number {
    return this.moves.length;
  }

  fen(): string {
    return makeFen(this.pos.toSetup());
  }

  /** The current position (a copy). */
  position(): Position {
    return this.pos.clone();
  }

  colorOf(userId: string): Color | undefined {
    if (this.init.white.id === userId) return 'white';
    if (this.init.black.id === userId) return 'black';
    return undefined;
  }

  player(color: Color): SimUser {
    return color === 'white' ? this.init.white : this.init.black;
  }

  isOver(): boolean {
    return this.status !== 'started';
  }

  /** Clocks run once both sides have moved. */
  clockRunning(): boolean {
    return this.init.clock !== undefined && this.moves.length >= 2 && !this.isOver();
  }

  /** The mover's time left now, milliseconds. */
  timeLeft(color: Color, now: number): number {
    const t = color === 'white' ? this.wtime : this.btime;
    return this.clockRunning() && this.turn() === color ? t - (now - this.turnStartedAt) : t;
  }

  /** Milliseconds until the side to move flags (or must make its first move); undefined without a deadline. */
  deadline(now: number): number | undefined {
    if (this.isOver()) return undefined;
    if (this.moves.length < 2) return this.init.firstMoveMs - (now - this.turnStartedAt);
    if (this.init.clock === undefined) return undefined;
    return this.timeLeft(this.turn(), now);
  }

  /** Checks time: ends the game when the side to move has flagged or missed its first move. */
  checkTime(now: number): boolean {
    const left = this.deadline(now);
    if (left === undefined || left > 0) return false;
    if (this.moves.length < 2) this.finish('aborted', undefined);
    else {
      const loser = this.turn();
      if (loser === 'white') this.wtime = 0;
      else this.btime = 0;
      const winnerColor: Color = loser === 'white' ? 'black' : 'white';
      this.finish('outoftime', this.pos.hasInsufficientMaterial(winnerColor) ? undefined : winnerColor);
    }
    return true;
  }

  /** Plays a move for `color`; the text is UCI in either castling form. */
  play(color: Color, uci: string, now: number): { ok: true } | { ok: false; error: string } {
    if (this.isOver() || this.turn() !== color) return { ok: false, error: 'Not your turn, or game already over' };
    if (this.checkTime(now)) return { ok: false, error: 'Not your turn, or game already over' };
    const parsed = parseUci(uci);
    if (parsed === undefined) return { ok: false, error: `Invalid UCI: ${uci}` };
    const move = normalizeMove(this.pos, parsed);
    if (!this.pos.isLegal(move)) return { ok: false, error: `Invalid UCI: ${uci}` };
    const side = castlingSide(this.pos, move);
    const text =
      side !== undefined && this.init.variant !== 'chess960' && !('role' in move)
        ? makeUci({ from: move.from, to: kingCastlesTo(color, side) })
        : makeUci(move);
    if (this.clockRunning()) {
      const spent = now - this.turnStartedAt;
      const inc = this.init.clock?.increment ?? 0;
      if (color === 'white') this.wtime = this.wtime - spent + inc;
      else this.btime = this.btime - spent + inc;
    }
    this.history.push(this.pos.clone());
    this.pos.play(move);
    this.moves.push(text);
    this.clockAfter.push(this.init.clock === undefined ? undefined : color === 'white' ? this.wtime : this.btime);
    this.spentMs.push(now - this.turnStartedAt);
    this.keys.push(this.repetitionKey());
    this.turnStartedAt = now;
    // A move cancels the mover's pending offers of the other side's takeback; draw offers stand for one move.
    if (color === 'white') this.bdraw = false;
    else this.wdraw = false;
    this.wtakeback = this.btakeback = false;
    if (this.init.daysPerTurn !== undefined) {
      if (color === 'white') this.wtime = this.init.daysPerTurn * 86_400_000;
      else this.btime = this.init.daysPerTurn * 86_400_000;
    }
    this.checkRules();
    return { ok: true };
  }

  /** Takes back the last move (or two, so that the asker is to move again). */
  takeback(asker: Color): void {
    const n = this.turn() === asker ? 2 : 1;
    for (let i = 0; i < n && this.history.length > 0; i++) {
      const prev = this.history.pop();
      if (prev) this.pos = prev;
      this.moves.pop();
      this.clockAfter.pop();
      this.spentMs.pop();
      this.keys.pop();
    }
    this.wtakeback = this.btakeback = false;
  }

  /** Whether `color` offers a draw or asks for a takeback now. */
  offers(kind: 'draw' | 'takeback', color: Color): boolean {
    if (kind === 'draw') return color === 'white' ? this.wdraw : this.bdraw;
    return color === 'white' ? this.wtakeback : this.btakeback;
  }

  /** Makes (`on`) or withdraws `color`'s offer of a draw or a takeback. */
  setOffer(kind: 'draw' | 'takeback', color: Color, on: boolean): void {
    if (kind === 'draw') {
      if (color === 'white') this.wdraw = on;
      else this.bdraw = on;
    } else if (color === 'white') this.wtakeback = on;
    else this.btakeback = on;
  }

  finish(status: GameStatus, winner: Color | undefined): void {
    if (this.isOver()) return;
    this.status = status;
    this.winner = winner;
    this.wdraw = this.bdraw = this.wtakeback = this.btakeback = false;
  }

  /** The `gameState` line for this game now. */
  state(now: number): GameStateEvent {
    const clockless = this.init.clock === undefined;
    const running = this.clockRunning();
    const t = (c: Color): number => Math.max(0, Math.round(running && !clockless ? this.timeLeft(c, now) : c === 'white' ? this.wtime : this.btime));
    const st: Record<string, unknown> = {
      type: 'gameState',
      moves: this.moves.join(' '),
      wtime: t('white'),
      btime: t('black'),
      winc: this.init.clock?.increment ?? 0,
      binc: this.init.clock?.increment ?? 0,
      status: this.status,
    };
    if (this.winner) st.winner = this.winner;
    // lila leaves false flags out.
    if (this.wdraw) st.wdraw = true;
    if (this.bdraw) st.bdraw = true;
    if (this.wtakeback) st.wtakeback = true;
    if (this.btakeback) st.btakeback = true;
    if (!this.isOver() && this.moves.length < 2) {
      st.expiration = {
        idleMillis: Math.max(0, now - this.turnStartedAt),
        millisToMove: Math.max(0, Math.round(this.init.firstMoveMs - (now - this.turnStartedAt))),
      };
    }
    return st as unknown as GameStateEvent;
  }

  private repetitionKey(): string {
    return makeFen(this.pos.toSetup()).split(' ').slice(0, 4).join(' ');
  }

  private checkRules(): void {
    const pos = this.pos;
    const mover: Color = pos.turn === 'white' ? 'black' : 'white';
    const outcome = pos.outcome();
    if (pos.isVariantEnd()) {
      this.finish('variantEnd', outcome?.winner);
      return;
    }
    if (pos.isCheckmate()) {
      this.finish('mate', mover);
      return;
    }
    if (pos.isStalemate()) {
      this.finish('stalemate', undefined);
      return;
    }
    if (pos.isInsufficientMaterial()) {
      this.finish('draw', undefined);
      return;
    }
    const key = this.keys[this.keys.length - 1];
    if (this.keys.filter((k) => k === key).length >= 3 || pos.halfmoves >= 100) this.finish('draw', undefined);
  }
}
