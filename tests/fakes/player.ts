/**
 * TEST DOUBLE, not an engine: the one fake `Player` of the tests. It records every request, answers with
 * a function of the request (by default the first legal move in sorted order, from the rules adapters of
 * src/games), and behaves like a search in time: instant, thinking for a while (ended early by `stop`),
 * until `stop`, or hung (ignoring `stop`); a ponder search lasts until `ponderhit` or `stop`. Deterministic:
 * tests assert exact games and count calls, never wall-clock windows.
 */
import type { GameKind } from '../../src/core/game.js';
import { createGame } from '../../src/match/game-factory.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../src/player/player.js';

/** How long a (non-ponder) search lasts. */
export type FakeThink =
  /** Answers at once. */
  | 'instant'
  /** Answers when stopped (a search with no time management of its own). */
  | 'until-stop'
  /** Never answers, whatever it is told (a hung engine). */
  | 'hang'
  /** Answers after this many milliseconds, or earlier on `stop`. */
  | { readonly ms: number };

export interface FakePlayerOptions {
  readonly name?: string;
  /** The games it plays; default chess (standard, chess960, fromPosition) and shogi. */
  readonly games?: readonly GameKind[];
  /** The answer to the `index`-th request (0-based); default `firstLegal()`. */
  readonly answer?: (request: GoRequest, index: number) => GoResult;
  /** How long a search lasts; a function decides per request. Default `instant`. */
  readonly think?: FakeThink | ((request: GoRequest, index: number) => FakeThink);
  /** Every `go` rejects with this message (a crashing engine). */
  readonly fail?: string;
  /** Take each `go` on the next microtask and clear the stop and ponderhit words then, as the worker players do. */
  readonly asyncStart?: boolean;
}

/** The sorted legal moves (UCI/USI) of a request's position. */
export function legalMovesOf(request: Pick<GoRequest, 'game' | 'variant' | 'start' | 'moves'>): string[] {
  const variant = request.game === 'chess' && request.variant === 'chess960' ? 'chess960' : 'standard';
  const g = createGame(request.game, variant, request.start).unwrap();
  for (const m of request.moves) g.play(g.parseMove(m).unwrap());
  return g.legalMoves().map((m) => g.moveToText(m)).sort();
}

/**
 * An answer: the scripted move for our n-th move (n = `index`) while it is legal, else the first legal move;
 * `resign` when there is none. The info carries `score` (default 0 cp) and a PV of the move; `ponder` is
 * the reply's first legal move.
 */
export function firstLegal(opts: { readonly script?: readonly string[]; readonly score?: (index: number) => SearchInfo['score'] } = {}) {
  return (request: GoRequest, index: number): GoResult => {
    const legal = legalMovesOf(request);
    const scripted = opts.script?.[index];
    const move = scripted !== undefined && legal.includes(scripted) ? scripted : legal[0];
    if (move === undefined) return { move: 'resign' };
    const after = { ...request, moves: [...request.moves, move] };
    const reply = legalMovesOf(after)[0];
    const info: SearchInfo = { depth: 1, score: opts.score?.(index) ?? { cp: 0 }, nodes: legal.length, nps: 0, timeMs: 0, pv: [move] };
    return { move, info, ...(reply !== undefined ? { ponder: reply } : {}) };
  };
}

export class FakePlayer implements Player {
  readonly name: string;
  readonly requests: GoRequest[] = [];
  stops = 0;
  ponderhits = 0;
  /** Ponder searches ended by `stop` (a ponder miss). */
  ponderStops = 0;
  newGames = 0;
  closed = false;
  /** When each `go` and each `stop` came (Date.now()), for tests that compare the two loosely. */
  readonly goAt: number[] = [];
  readonly stopAt: number[] = [];
  private stopWord = false;
  private hitWord = false;
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
    this.hitWord = false;
    const index = this.requests.length;
    this.requests.push(request);
    this.goAt.push(Date.now());
    if (this.opts.fail !== undefined) throw new Error(this.opts.fail);
    const answer = (this.opts.answer ?? firstLegal())(request, index);
    if (answer.info !== undefined) onInfo?.(answer.info);
    const think = typeof this.opts.think === 'function' ? this.opts.think(request, index) : (this.opts.think ?? 'instant');
    if (request.ponder === true) {
      await this.until(() => this.stopWord || this.hitWord);
      if (this.stopWord && !this.hitWord) this.ponderStops++;
    } else if (think === 'hang') {
      await new Promise<never>(() => undefined);
    } else if (think === 'until-stop') {
      await this.until(() => this.stopWord);
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
    this.hitWord = true;
    this.wake?.();
  }

  async newGame(): Promise<void> {
    this.newGames++;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((r) => (this.wake = r));
  }
}
