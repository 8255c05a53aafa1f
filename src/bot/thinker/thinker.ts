/**
 * The Thinker: everything between a front-end's "it is our turn" and the move it sends, shared by the
 * lichess game (src/protocols/lichess/game/) and the CSA client (src/protocols/csa/client.ts), which keep
 * only their protocol state machines. As lichess-bot keeps it in its engine wrapper and lc0 in its
 * search stoppers:
 * - think: one `Player.go` per move with the move's one time plan (time-plan.ts), one search at a time
 *   (a new `go` waits until the previous one has settled, as the Player API asks);
 * - ponder: search the position after the reply the Player expects; when the opponent plays it, `think`
 *   turns the running search into ours (`ponderhit`), otherwise it stops it and starts afresh;
 * - stop in time: one guard per move stops the Player at the plan's `stopMs` and, should it still not
 *   answer within `graceMs`, decides a fallback move (fallbackMove in position.ts);
 * - an answer that is not legal (or a win declaration the rules do not allow) becomes the fallback move;
 *   a Player that fails hands the fallback to the front-end, which decides whether to play it;
 * - draw offers and resignation from the history of our scores (draw-or-resign.ts), when configured.
 */
import type { DrawOrResignConfig } from '../../config/sections/draw-or-resign.js';
import type { GameKind } from '../../core/game.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../player/player.js';
import { drawConditionHolds, scoreToCp, shouldAcceptDraw, shouldResign } from './draw-or-resign.js';
import { fallbackMove } from './position.js';
import type { ThinkerPosition } from './position.js';
import { planMove } from './time-plan.js';
import type { MoveTime, TimePlan } from './time-plan.js';

/** The logging the Thinker needs; a winston logger fits. */
export interface ThinkerLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ThinkerOptions {
  /** The game the time plan is made for (expected game lengths differ). */
  readonly game: GameKind;
  /** Where the Thinker says what it does (stops, fallbacks, ponder hits, errors). */
  readonly log: ThinkerLog;
  /** Put before every log line (`game abc123: `). */
  readonly logPrefix?: string;
  /** After the guard stopped a Player, how long it may still take to answer before the fallback, ms. */
  readonly graceMs: number;
  /** Resign and offer draws from our scores (lichess `drawOrResign`); absent: never by score. */
  readonly drawOrResign?: DrawOrResignConfig;
  /** Every progress line of the search that counts (for chat's `!eval`). */
  readonly onInfo?: (info: SearchInfo) => void;
}

/** One position to search. */
export interface Turn {
  /** Game, variant, start and moves; a ponder turn's moves end with our move and the reply guessed. */
  readonly request: Pick<GoRequest, 'game' | 'variant' | 'start' | 'moves'>;
  /** The position after `request.moves` (checks the answer, picks the fallback). */
  readonly position: ThinkerPosition;
  /** The clock and limits as the front-end knows them; planned here, once. */
  readonly time: MoveTime;
  /** When our turn began (epoch ms; the guard counts from here); default now. */
  readonly startedAt?: number;
}

/** What to do with our turn. */
export type Decision =
  /** Play `move`. */
  | {
      readonly kind: 'move';
      readonly move: string;
      /** The Player's answer (its info filled from the last progress line when it had none). */
      readonly result: GoResult;
      /** Offer a draw with the move. */
      readonly offerDraw: boolean;
      /** Why the Player's own move was not played: a legal move picked by the Thinker instead. */
      readonly fallback?: 'illegal' | 'overrun' | 'failed';
    }
  /** Resign: the Player said so, the scores say so (`drawOrResign`), or no legal move is left. */
  | { readonly kind: 'resign'; readonly why: string; readonly result?: GoResult }
  /** Shogi: declare the win by the entering-king rule (checked legal). */
  | { readonly kind: 'declare'; readonly result: GoResult }
  /** The Player threw; `fallback` is the move (or resignation) the Thinker would play instead. */
  | { readonly kind: 'failed'; readonly error: Error; readonly fallback: Decision }
  /** The search was stopped and forgotten (`cancel`, a new `think` or a ponder miss) before it decided. */
  | { readonly kind: 'cancelled' };

interface Search {
  readonly player: Player;
  readonly moves: readonly string[];
  pondering: boolean;
  /** Set for a search that decides our move (from the start, or at ponderhit). */
  turn?: Turn;
  plan?: TimePlan;
  lastInfo?: SearchInfo;
  timers: NodeJS.Timeout[];
  readonly decided: Promise<Decision>;
  settle(d: Decision): void;
}

const sameMoves = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((m, i) => m === b[i]);

export class Thinker {
  private search: Search | undefined;
  /** The previous `go`, which must settle before the next one starts. */
  private busy: Promise<unknown> = Promise.resolve();
  /** Our scores (centipawns, side-to-move view) by the ply of our move. */
  private readonly scores = new Map<number, number>();

  constructor(private readonly opts: ThinkerOptions) {}

  /**
   * Thinks about our move with `player`: a ponder search on exactly these moves (on the same Player)
   * goes on as ours (ponderhit), anything else running is stopped first. Resolves with the decision,
   * or `cancelled` when the search is stopped and forgotten first; never rejects.
   */
  think(player: Player, turn: Turn): Promise<Decision> {
    const s = this.search;
    if (s !== undefined && s.pondering && s.player === player && sameMoves(s.moves, turn.request.moves)) {
      s.pondering = false;
      this.arm(s, turn);
      this.log('debug', `ponderhit ${turn.request.moves[turn.request.moves.length - 1] ?? ''}`);
      player.ponderhit();
      return s.decided;
    }
    this.cancel();
    if (turn.position.legalMoves().length === 0) {
      this.log('info', 'no legal move: resigning');
      return Promise.resolve({ kind: 'resign', why: 'no legal move' });
    }
    const plan = planMove(this.opts.game, turn.time);
    const limits = turn.time.limits;
    const request: GoRequest = {
      ...turn.request,
      moves: [...turn.request.moves],
      ...(turn.time.clock ? { clock: turn.time.clock } : {}),
      ...(limits && Object.keys(limits).length > 0 ? { limits } : {}),
      ...(plan.budget ? { budget: plan.budget } : {}),
      sentAt: turn.startedAt ?? Date.now(),
    };
    const search = this.start(player, request, false);
    this.arm(search, turn, plan);
    return search.decided;
  }

  /**
   * Searches on the opponent's time: `turn.request.moves` end with our move and the reply the Player
   * expects. The search runs until `think` on the same moves (ponderhit) or anything else (stopped);
   * should it end by itself before, its answer is forgotten. Stops any search running.
   */
  ponder(player: Player, turn: Pick<Turn, 'request' | 'time'>): void {
    this.cancel();
    const request: GoRequest = {
      ...turn.request,
      moves: [...turn.request.moves],
      ...(turn.time.clock ? { clock: turn.time.clock } : {}),
      // Fixed limits hold from ponderhit on (a correspondence move time); the guard comes with `think`.
      ...(turn.time.limits && Object.keys(turn.time.limits).length > 0 ? { limits: turn.time.limits } : {}),
      ponder: true,
    };
    this.start(player, request, true);
    this.log('debug', `pondering on ${turn.request.moves[turn.request.moves.length - 1] ?? ''}`);
  }

  /**
   * A new game on `player`: stops any search, forgets the scores, and runs the Player's `newGame` once
   * its last search has settled (the next search waits for it). Never rejects; a failure is logged.
   */
  newGame(player: Player): Promise<void> {
    this.cancel();
    this.scores.clear();
    const done = this.busy.then(() => player.newGame()).catch((e: unknown) => this.log('warn', `player newGame failed: ${String(e)}`));
    this.busy = done;
    return done;
  }

  /** The moves of the search running, and whether it is a ponder search; undefined when none runs. */
  current(): { readonly moves: readonly string[]; readonly pondering: boolean } | undefined {
    const s = this.search;
    return s === undefined ? undefined : { moves: s.moves, pondering: s.pondering };
  }

  /** Stops the search running, if any, and forgets it: its `think` resolves `cancelled`. */
  cancel(): void {
    const s = this.search;
    if (s === undefined) return;
    this.clear(s);
    s.settle({ kind: 'cancelled' });
    s.player.stop();
  }

  /**
   * The policy on an answer for our move at ply `ply` (from the Player, or from a book or tablebase
   * source): notes its score, resigns by score or when it says `resign`, checks a win declaration and
   * the move's legality (a fallback move otherwise), offers a draw by score or when `offerDraw`.
   */
  decide(ply: number, position: ThinkerPosition, result: GoResult, offerDraw = false): Decision {
    if (result.info) this.scores.set(ply, scoreToCp(result.info.score));
    const cfg = this.opts.drawOrResign;
    const history = this.scoreHistory();
    if (result.move === 'resign') return { kind: 'resign', why: 'the player or the tablebase resigned', result };
    if (cfg !== undefined && shouldResign(history, cfg)) return { kind: 'resign', why: `scores ${history.slice(-cfg.resignMoves).join(', ')}`, result };
    if (result.move === 'win') {
      if (position.canDeclareWin?.() === true) return { kind: 'declare', result };
      this.log('error', 'the player declared a win, but the declaration is not legal here: playing a fallback move');
      return this.fallback(position, result.info, 'illegal');
    }
    const illegal = position.illegalReason(result.move);
    if (illegal !== undefined) {
      this.log('error', `the player chose ${result.move}: ${illegal}; playing a fallback move`);
      return this.fallback(position, result.info, 'illegal');
    }
    const draw = offerDraw || (cfg !== undefined && drawConditionHolds(history, position.pieceCount(), cfg));
    return { kind: 'move', move: result.move, result, offerDraw: draw };
  }

  /**
   * The move played instead of the Player's (fallbackMove in position.ts: the first PV move of its
   * last `info` when legal, else the first legal move), or resignation when no move is legal.
   */
  fallback(position: ThinkerPosition, info: SearchInfo | undefined, why: 'illegal' | 'overrun' | 'failed'): Decision {
    const move = fallbackMove(position, info);
    if (move === undefined) return { kind: 'resign', why: 'no legal move' };
    return { kind: 'move', move, result: { move }, offerDraw: false, fallback: why };
  }

  /** Whether to accept the opponent's draw offer now (the draw condition on our scores). */
  acceptsDraw(pieces: number): boolean {
    const cfg = this.opts.drawOrResign;
    return cfg !== undefined && shouldAcceptDraw(this.scoreHistory(), pieces, cfg);
  }

  /** Notes the score of our move at `ply` (a game log read back after a restart). */
  noteScore(ply: number, score: SearchInfo['score']): void {
    this.scores.set(ply, scoreToCp(score));
  }

  /** A takeback to `plies` plies: our scores of the plies taken back no longer count. */
  takeback(plies: number): void {
    for (const ply of [...this.scores.keys()]) if (ply >= plies) this.scores.delete(ply);
  }

  /** Our scores in ply order (centipawns, mates as ±40000 less the distance). */
  scoreHistory(): number[] {
    return [...this.scores.entries()].sort((a, b) => a[0] - b[0]).map(([, cp]) => cp);
  }

  // ---- searches -----------------------------------------------------------------------------------

  /** Starts `player.go` once the previous search has settled. */
  private start(player: Player, request: GoRequest, pondering: boolean): Search {
    let settle: (d: Decision) => void = () => undefined;
    const decided = new Promise<Decision>((resolve) => (settle = resolve));
    let settled = false;
    const search: Search = {
      player,
      moves: request.moves,
      pondering,
      timers: [],
      decided,
      settle: (d) => {
        if (settled) return;
        settled = true;
        settle(d);
      },
    };
    this.search = search;
    const go = this.busy.then(() => {
      if (this.search !== search) throw new StaleSearch();
      return player.go(request, (info) => {
        if (this.search !== search) return;
        search.lastInfo = info;
        if (!search.pondering) this.opts.onInfo?.(info);
      });
    });
    this.busy = go.catch(() => undefined);
    go.then(
      (r) => this.onAnswer(search, r),
      (e: unknown) => {
        if (!(e instanceof StaleSearch)) this.onFailure(search, e);
      },
    );
    return search;
  }

  /** The guard of a search that decides our move: stop at the plan's `stopMs`, fallback after the grace. */
  private arm(search: Search, turn: Turn, plan: TimePlan = planMove(this.opts.game, turn.time)): void {
    search.turn = turn;
    search.plan = plan;
    const stopMs = plan.stopMs;
    if (stopMs === undefined) return;
    const stopIn = Math.max(0, stopMs - (Date.now() - (turn.startedAt ?? Date.now())));
    const grace = this.opts.graceMs;
    search.timers.push(
      setTimeout(() => {
        if (this.search !== search) return;
        this.log('debug', `the time plan's ${Math.round(stopMs)} ms are up: stop`);
        search.player.stop();
      }, stopIn),
      setTimeout(() => {
        if (this.search !== search) return;
        this.log('error', `the player did not answer within ${Math.round(stopMs + grace)} ms of its turn: sending a fallback move`);
        this.clear(search);
        search.settle(this.fallback(turn.position, search.lastInfo, 'overrun'));
      }, stopIn + grace),
    );
  }

  private onAnswer(search: Search, result: GoResult): void {
    if (this.search !== search) return; // stale: cancelled, or replaced by a fallback move
    this.clear(search);
    // A ponder search that ends before the opponent moved is forgotten; `think` starts afresh.
    if (search.pondering || search.turn === undefined) return;
    const info = result.info ?? search.lastInfo;
    const merged: GoResult = info ? { ...result, info } : result;
    search.settle(this.decide(search.moves.length, search.turn.position, merged));
  }

  private onFailure(search: Search, e: unknown): void {
    if (this.search !== search) return;
    this.clear(search);
    const error = e instanceof Error ? e : new Error(String(e));
    if (search.pondering || search.turn === undefined) {
      this.log('warn', `pondering failed: ${error.message}`);
      return;
    }
    search.settle({ kind: 'failed', error, fallback: this.fallback(search.turn.position, search.lastInfo, 'failed') });
  }

  private clear(search: Search): void {
    for (const t of search.timers) clearTimeout(t);
    search.timers = [];
    if (this.search === search) this.search = undefined;
  }

  private log(level: keyof ThinkerLog, message: string): void {
    this.opts.log[level](`${this.opts.logPrefix ?? ''}${message}`);
  }
}

/** Thrown inside a superseded search's promise chain; never escapes. */
class StaleSearch extends Error {}
