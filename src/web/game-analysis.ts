/**
 * Kishi's review of a finished game on the local page, as lichess's "request a computer analysis":
 * a score for every position of the game (the evaluation graph), and the best lines (MultiPV) of the
 * position the person looks at. It leases a Player from the same pool as the games (alpha-beta:
 * MultiPV is alpha-beta's), searches one position at a time with a fixed node budget (the same
 * answer on any machine, light on a small one), and hands events to `emit`. The graph runs once, then
 * the lines asked for, one search at a time (a newer request for lines drops an older one); `close`
 * stops the search and gives the Player back.
 */
import type { PlayerLease } from '../bot/dispatcher.js';
import type { GameKind, GameState } from '../core/game.js';
import { ChessGame } from '../games/chess/index.js';
import { ShogiGame } from '../games/shogi/index.js';
import type { GoResult, SearchInfo } from '../player/player.js';

/** One line of the MultiPV answer, from the side to move's view. */
export interface AnalysisLine {
  readonly multipv: number;
  readonly depth: number;
  readonly score: SearchInfo['score'];
  /** UCI (chess) or USI (shogi) from the analysed position. */
  readonly pv: readonly string[];
}

/** What the page is told; scores are from the view of the side to move at `ply` (the position after `ply` moves). */
export type AnalysisEvent =
  | { readonly t: 'graph'; readonly ply: number; readonly score: SearchInfo['score'] }
  | { readonly t: 'graph-done'; readonly plies: number }
  | { readonly t: 'lines'; readonly ply: number; readonly lines: readonly AnalysisLine[] };

/** Nodes per position of the graph: a quick look (a 60-move game takes seconds). */
export const GRAPH_NODES = 20_000;
/** Nodes for the lines of the position looked at. */
export const LINES_NODES = 150_000;
/** Lines shown per position. */
export const LINES = 3;

export interface GameAnalysisOptions {
  readonly game: GameKind;
  /** The game's moves from the initial position, UCI or USI. */
  readonly moves: readonly string[];
  readonly lease: PlayerLease;
  readonly emit: (event: AnalysisEvent) => void;
}

export class GameAnalysis {
  private graphRun: Promise<void> | undefined;
  private linesRun: Promise<unknown> = Promise.resolve();
  /** Bumped by each lines request: an older request's search reports nothing. */
  private linesGeneration = 0;
  private linesSearching = false;
  private closed = false;
  /** Whether each position has a legal move (a mate or stalemate position is not searched). */
  private readonly playable: readonly boolean[];

  constructor(private readonly opts: GameAnalysisOptions) {
    const state = (opts.game === 'chess' ? ChessGame.standard() : ShogiGame.startpos()) as GameState<unknown>;
    const playable = [state.legalMoves().length > 0];
    for (const m of opts.moves) {
      const move = state.parseMove(m);
      if (move.isErr) break;
      state.play(move.value);
      playable.push(state.legalMoves().length > 0 && state.outcome() === undefined);
    }
    this.playable = playable;
  }

  /** Positions in the game: one more than its (legal) moves. */
  get positions(): number {
    return this.playable.length;
  }

  /** Scores every position, first to last (`graph` events, then `graph-done`); once per analysis. */
  graph(): Promise<void> {
    this.graphRun ??= (async () => {
      for (let ply = 0; ply < this.positions; ply++) {
        if (this.closed) return;
        if (!this.playable[ply]) continue;
        const answer = await this.search(ply, GRAPH_NODES, 1);
        if (this.closed) return;
        if (answer.info) this.opts.emit({ t: 'graph', ply, score: answer.info.score });
      }
      this.opts.emit({ t: 'graph-done', plies: this.positions - 1 });
    })();
    return this.graphRun;
  }

  /**
   * The best LINES lines of the position after `ply` moves (one `lines` event when the search ends),
   * after the graph; a later request stops this one and drops its answer.
   */
  async lines(ply: number): Promise<void> {
    const generation = ++this.linesGeneration;
    // The graph first (started here when not yet asked for): the Player searches one position at a time.
    await this.graph().catch(() => undefined);
    if (this.linesSearching) this.opts.lease.player.stop();
    await this.linesRun.catch(() => undefined);
    if (generation !== this.linesGeneration || this.closed) return;
    if (ply < 0 || ply >= this.positions || !this.playable[ply]) {
      this.opts.emit({ t: 'lines', ply, lines: [] });
      return;
    }
    const best = new Map<number, AnalysisLine>();
    this.linesSearching = true;
    const run = this.search(ply, LINES_NODES, LINES, (info) => {
      const k = info.multipv ?? 1;
      best.set(k, { multipv: k, depth: info.depth, score: info.score, pv: info.pv });
    }).finally(() => (this.linesSearching = false));
    this.linesRun = run;
    const answer = await run;
    if (generation !== this.linesGeneration || this.closed) return;
    if (best.size === 0 && answer.info) best.set(1, { multipv: 1, depth: answer.info.depth, score: answer.info.score, pv: answer.info.pv });
    this.opts.emit({ t: 'lines', ply, lines: [...best.values()].sort((a, b) => a.multipv - b.multipv) });
  }

  /** Stops the search and gives the Player back to the pool; later requests do nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.opts.lease.player.stop();
    await Promise.all([this.graphRun?.catch(() => undefined), this.linesRun.catch(() => undefined)]);
    await this.opts.lease.release();
  }

  private search(ply: number, nodes: number, multiPv: number, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    return this.opts.lease.player.go(
      { game: this.opts.game, variant: 'standard', start: 'startpos', moves: this.opts.moves.slice(0, ply), limits: { nodes }, ...(multiPv > 1 ? { multiPv } : {}) },
      onInfo ?? (() => {}),
    );
  }
}
