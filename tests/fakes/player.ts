/**
 * TEST DOUBLE, not an engine: the one fake `Player` of the tests. It records every request, answers with
 * a function of the request (by default the first legal move in sorted order, from the rules adapters of
 * src/games), and behaves like a search in time: instant, thinking for a while (ended early by `stop`),
 * until `stop`, or hung (ignoring `stop`); a ponder search lasts until `ponderhit` or `stop`. Deterministic:
 * tests assert exact games and count calls, never wall-clock windows.
 */
import type { GameKind } from '../../src/core/game.js';
import { createGame } from '../../src/games/game-factory.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../src/player/player.js';
import { ChessLine } from '../../src/protocols/lichess/chess-line.js';
import type { VariantKey } from '../../src/protocols/lichess/types.js';

/** How long a (non-ponder) search lasts. */
export type FakeThink =
  /** Answers at once. */
  | 'instant'
  /** Answers when stopped (a search with no time management of its own); so does any `infinite` search. */
  | 'until-stop'
  /** Never answers, whatever it is told (a hung engine). */
  | 'hang'
  /** Answers after this many milliseconds, or earlier on `stop` unless it ignores it. */
  | { readonly ms: number; readonly ignoreStop?: boolean };

export interface FakePlayerOptions {
  readonly name?: string;
  /** The games it plays; default chess (standard, chess960, fromPosition) and shogi. */
  readonly games?: readonly GameKind[];
  /** The answer to the `index`-th request (0-based); default `firstLegal()`. */
  readonly answer?: (request: GoRequest, index: number) => GoResult;
  /** How long a search lasts; a function decides per request. Default `instant`. */
  readonly think?: FakeThink | ((request: GoRequest, index: number) => FakeThink);
  /** Every `go` rejects with this error, or an Error with this message (a crashing engine). */
  readonly fail?: string | Error;
  /** Runs at `newGame` (an engine's own reset). */
  readonly onNewGame?: () => void;
  /** Progress lines sent before the answer (default: the answer's info). */
  readonly infos?: readonly SearchInfo[];
  /** Take each `go` on the next microtask and clear the stop and ponderhit words then, as the worker players do. */
  readonly asyncStart?: boolean;
}

type Position = Pick<GoRequest, 'game' | 'variant' | 'start' | 'moves'>;

/** The sorted legal moves (UCI/USI) of a request's position: chess as lichess plays it (chessops), shogi by src/games. */
export function legalMovesOf(request: Position): string[] {
  return positionAfter(request).legal;
}

/** The legal moves of a position and its text (FEN/SFEN). */
function positionAfter(request: Position): { legal: string[]; text: string } {
  if (request.game === 'chess') {
    const line = ChessLine.create(request.variant as VariantKey, request.start).unwrap();
    line.sync(request.moves).unwrap();
    return { legal: line.legalMoves().sort(), text: line.fen() };
  }
  const g = createGame('shogi', 'standard', request.start).unwrap();
  for (const m of request.moves) g.play(g.parseMove(m).unwrap());
  return { legal: g.legalMoves().map((m) => g.moveToText(m)).sort(), text: g.toText() };
}

/** A seeded pseudo-random legal move (a linear congruential generator: reproducible games). */
export function seededRandom(seed = 1, infoTimeMs = 0) {
  let state = seed;
  return (request: GoRequest): GoResult => {
    const legal = legalMovesOf(request);
    if (legal.length === 0) return { move: 'resign' };
    state = (state * 1103515245 + 12345) % 2147483648;
    const move = legal[state % legal.length]!;
    return { move, info: { depth: 1, score: { cp: 0 }, nodes: legal.length, nps: 0, timeMs: infoTimeMs, pv: [move] } };
  };
}

/** The given moves in request order (then `resign`), each with its info when given. */
export function scripted(moves: readonly string[], infos: readonly (SearchInfo | undefined)[] = []) {
  return (_request: GoRequest, index: number): GoResult => {
    const info = infos[index];
    return { move: moves[index] ?? 'resign', ...(info ? { info } : {}) };
  };
}

export interface FirstLegalOptions {
  /** Our moves in order (index = our move number); an illegal or missing entry falls back to the first legal move. */
  readonly script?: readonly string[];
  /** The score reported for our n-th move (centipawns from our view), default 0. */
  readonly score?: (ourMoveIndex: number) => SearchInfo['score'];
  /** Answer `resign` instead of a move from this move index on. */
  readonly resignAt?: number;
  /** Count our moves by the request's position (our n-th move of the game) instead of by request (default). */
  readonly byMoveNumber?: boolean;
}

/**
 * An answer: the scripted move for our n-th move while it is legal, else the first legal move in sorted
 * order; `resign` when there is none. The info carries `score` (default 0 cp) and a PV of the move; `ponder`
 * is the reply's first legal move; `pvLeaf` the position after the move.
 */
export function firstLegal(opts: FirstLegalOptions = {}) {
  return (request: GoRequest, requestIndex: number): GoResult => {
    const index = opts.byMoveNumber === true ? Math.floor(request.moves.length / 2) : requestIndex;
    if (opts.resignAt !== undefined && index >= opts.resignAt) return { move: 'resign' };
    const legal = legalMovesOf(request);
    const wanted = opts.script?.[index];
    const move = wanted !== undefined && legal.includes(wanted) ? wanted : legal[0];
    if (move === undefined) return { move: 'resign' };
    const after = positionAfter({ ...request, moves: [...request.moves, move] });
    const reply = after.legal[0];
    const info: SearchInfo = { depth: 1, score: opts.score?.(index) ?? { cp: 0 }, nodes: legal.length, nps: 0, timeMs: 0, pv: [move] };
    return { move, info, pvLeaf: after.text, ...(reply !== undefined ? { ponder: reply } : {}) };
  };
}

export class FakePlayer implements Player {
  readonly name: string;
  /** The requests as the front-end built them, less the time stamp `sentAt` (kept in `sentAts`). */
  readonly requests: GoRequest[] = [];
  /** Each request's `sentAt` (undefined when the front-end set none). */
  readonly sentAts: (number | undefined)[] = [];
  stops = 0;
  ponderhits = 0;
  /** Ponder searches ended by `stop` (a ponder miss). */
  ponderStops = 0;
  newGames = 0;
  closed = false;
  /** When each `go` and each `stop` came (Date.now()), for tests that compare the two loosely. */
  readonly goAt: number[] = [];
  readonly stopAt: number[] = [];
  /** The stop and ponderhit words, cleared when a `go` starts (as the worker players' shared memory). */
  stopWord = false;
  ponderhitWord = false;
  private wake: (() => void) | undefined;

  constructor(private readonly opts: FakePlayerOptions = {}) {
    this.name = opts.name ?? 'fake player (test double)';
  }

  supports(game: GameKind, variant: string): boolean {
    const games = this.opts.games ?? ['chess', 'shogi'];
    if (!games.includes(game)) return false;
    return game === 'shogi' ? variant === 'standard' : ['standard', 'chess960', 'fromPosition'].includes(variant);
  }

  async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    if (this.opts.asyncStart === true) await Promise.resolve();
    this.stopWord = false;
    this.ponderhitWord = false;
    const index = this.requests.length;
    const { sentAt, ...rest } = request;
    this.requests.push(rest);
    this.sentAts.push(sentAt);
    this.goAt.push(Date.now());
    const fail = this.opts.fail;
    if (fail !== undefined) throw typeof fail === 'string' ? new Error(fail) : fail;
    const answer = (this.opts.answer ?? firstLegal())(request, index);
    if (this.opts.infos !== undefined) for (const info of this.opts.infos) onInfo?.(info);
    else if (answer.info !== undefined) onInfo?.(answer.info);
    const planned = typeof this.opts.think === 'function' ? this.opts.think(request, index) : (this.opts.think ?? 'instant');
    const think: FakeThink = request.limits?.infinite === true && planned !== 'hang' ? 'until-stop' : planned;
    if (request.ponder === true) {
      await this.until(() => this.stopWord || this.ponderhitWord);
      if (this.stopWord && !this.ponderhitWord) this.ponderStops++;
    } else if (think === 'hang') {
      await new Promise<never>(() => undefined);
    } else if (think === 'until-stop') {
      await this.until(() => this.stopWord);
    } else if (think !== 'instant' && think.ignoreStop === true) {
      await new Promise((r) => setTimeout(r, think.ms));
    } else if (think !== 'instant') {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise((r) => (timer = setTimeout(r, think.ms))), this.until(() => this.stopWord)]);
      clearTimeout(timer);
      this.wake = undefined;
    }
    return answer;
  }

  stop(): void {
    this.stops++;
    this.stopAt.push(Date.now());
    this.stopWord = true;
    this.wake?.();
  }

  ponderhit(): void {
    this.ponderhits++;
    this.ponderhitWord = true;
    this.wake?.();
  }

  async newGame(): Promise<void> {
    this.newGames++;
    this.opts.onNewGame?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((r) => (this.wake = r));
  }
}

// ---- presets: the configurations the tests name ------------------------------------------------------

export interface FirstLegalPlayerOptions {
  /** Our moves in order (index = our move number of the game); an illegal or missing entry falls back to the first legal move. */
  readonly script?: readonly string[];
  /** The score reported for our n-th move (centipawns from our view), default 0. */
  readonly score?: (ourMoveIndex: number) => SearchInfo['score'];
  /** Pretend to think this long (resolves early on `stop`), milliseconds. */
  readonly thinkMs?: number;
  /** Answer `resign` instead of a move from this move index on. */
  readonly resignAt?: number;
  /** Every search fails (a crashing engine). */
  readonly fail?: boolean;
}

/**
 * Chess: plays its scripted moves (by move number) while they are legal, then the first legal move in
 * sorted UCI order, with scripted scores, so that draw/resign policies can be tested; ponders until
 * ponderhit or stop.
 */
export class FirstLegalPlayer extends FakePlayer {
  constructor(opts: FirstLegalPlayerOptions = {}) {
    super({
      name: 'first-legal test double',
      games: ['chess'],
      answer: firstLegal({
        byMoveNumber: true,
        ...(opts.script ? { script: opts.script } : {}),
        ...(opts.score ? { score: opts.score } : {}),
        ...(opts.resignAt !== undefined ? { resignAt: opts.resignAt } : {}),
      }),
      ...(opts.thinkMs ? { think: { ms: opts.thinkMs } } : {}),
      ...(opts.fail ? { fail: 'test double: search failed' } : {}),
    });
  }
}

/** Shogi: a seeded pseudo-random legal move after `delayMs` (which `stop` does not shorten), with an info line. */
export class RandomMover extends FakePlayer {
  constructor(seed = 1, delayMs = 0) {
    super({ name: 'random-mover (test double)', games: ['shogi'], answer: seededRandom(seed, delayMs), think: { ms: delayMs, ignoreStop: true } });
  }
}

/** Shogi: the given USI moves in request order (then `resign`), with the given infos, each after its delay. */
export class ScriptedPlayer extends FakePlayer {
  constructor(moves: readonly string[], infos: readonly (SearchInfo | undefined)[] = [], delaysMs: readonly number[] = []) {
    super({
      name: 'scripted (test double)',
      games: ['shogi'],
      answer: scripted(moves, infos),
      think: (_r, i) => ((delaysMs[i] ?? 0) > 0 ? { ms: delaysMs[i]!, ignoreStop: true } : 'instant'),
    });
  }
}

/**
 * Shogi: thinks until `stop` (then answers the first legal move), like a search with no time management
 * at all; with `ignoreStop` it never answers, like a hung engine.
 */
export class ForeverThinker extends FakePlayer {
  constructor(ignoreStop = false) {
    super({
      name: 'forever-thinker (test double)',
      games: ['shogi'],
      answer: (request) => {
        const move = legalMovesOf(request)[0] ?? 'resign';
        return { move, info: { depth: 3, score: { cp: 12 }, nodes: 100, nps: 1000, timeMs: 0, pv: [move] } };
      },
      think: ignoreStop ? 'hang' : 'until-stop',
    });
  }
}

/**
 * Shogi: a random mover with a simple time manager, to use its clock the way an engine would: it thinks
 * `remaining/20 + increment/2` (or 30% of the byoyomi once the main time is gone), then plays.
 */
export class PacedRandomMover extends FakePlayer {
  readonly thinkMs: number[];
  constructor(seed = 1) {
    const thinkMs: number[] = [];
    super({
      name: 'paced-random-mover (test double)',
      games: ['shogi'],
      answer: seededRandom(seed),
      think: (request) => {
        const c = request.clock;
        if (c === undefined) return 'instant';
        const first = sideToMove(request) === 'first';
        const main = first ? c.firstMs : c.secondMs;
        const inc = first ? c.firstIncMs : c.secondIncMs;
        const ms = Math.floor(main > 0 ? main / 20 + inc / 2 : 0.3 * (inc + c.byoyomiMs));
        thinkMs.push(ms);
        return { ms, ignoreStop: true };
      },
    });
    this.thinkMs = thinkMs;
  }
}

/** The side to move of a request's position. */
export function sideToMove(request: Position): 'first' | 'second' {
  const g = createGame(request.game, request.game === 'chess' && request.variant === 'chess960' ? 'chess960' : 'standard', request.start).unwrap();
  for (const m of request.moves) g.play(g.parseMove(m).unwrap());
  return g.turn();
}
