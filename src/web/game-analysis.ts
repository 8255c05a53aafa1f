/**
 * Kishi's review of a finished game on the local page (or of a game or position pasted there), as
 * lichess's "request a computer analysis": a score for every position (the evaluation graph), and the
 * best lines (MultiPV) of the position the person looks at. It leases a Player from the same pool as the games (alpha-beta:
 * MultiPV is alpha-beta's), searches one position at a time with a fixed node budget (the same
 * answer on any machine, light on a small one), and hands events to `emit`. The graph runs once, then
 * the lines asked for, one search at a time (a newer request for lines drops an older one); `close`
 * stops the search and gives the Player back.
 */
import type { PlayerLease } from '../bot/dispatcher.js';
import type { GameKind, GameState, Side } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
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
  | { readonly t: 'graph'; readonly ply: number; readonly turn: Side; readonly score: SearchInfo['score'] }
  | { readonly t: 'graph-done'; readonly plies: number }
  | { readonly t: 'lines'; readonly ply: number; readonly turn: Side; readonly lines: readonly AnalysisLine[] };

/** Nodes per position of the graph: a quick look (a 60-move game takes seconds). */
export const GRAPH_NODES = 20_000;
/** Nodes for the lines of the position looked at. */
export const LINES_NODES = 150_000;
/** Lines shown per position. */
export const LINES = 3;

export interface GameAnalysisOptions {
  readonly game: GameKind;
  /** FEN/SFEN of the start; the initial position when absent. */
  readonly start?: string;
  /** The game's moves from the start, UCI or USI. */
  readonly moves: readonly string[];
  readonly lease: PlayerLease;
  readonly emit: (event: AnalysisEvent) => void;
}

/** A game checked for analysis: per position, whether it has a move (mate and stalemate are not searched) and who moves. */
export interface ReplayedGame {
  readonly playable: readonly boolean[];
  readonly turns: readonly Side[];
}

/** Checks the start (FEN/SFEN, or the initial position) and every move, legal in turn. */
export function replayForAnalysis(game: GameKind, start: string | undefined, moves: readonly string[]): Result<ReplayedGame, KishiError> {
  let state: GameState<unknown>;
  if (start === undefined || start === 'startpos') state = (game === 'chess' ? ChessGame.standard() : ShogiGame.startpos()) as GameState<unknown>;
  else {
    const parsed = game === 'chess' ? ChessGame.fromFen(start) : ShogiGame.fromSfen(start);
    if (parsed.isErr) return Result.err(new KishiError('ERR_BAD_POSITION', `not a ${game === 'chess' ? 'FEN' : 'SFEN'} Kishi can play from: ${parsed.error.message}`));
    state = parsed.value as GameState<unknown>;
  }
  const playable = [state.legalMoves().length > 0];
  const turns = [state.turn()];
  for (const [i, m] of moves.entries()) {
    const move = state.parseMove(m);
    if (move.isErr) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `move ${i + 1} (${m}) is not legal there`));
    state.play(move.value);
    playable.push(state.legalMoves().length > 0 && state.outcome() === undefined);
    turns.push(state.turn());
  }
  return Result.ok({ playable, turns });
}

export class GameAnalysis {
  private graphRun: Promise<void> | undefined;
  private linesRun: Promise<unknown> = Promise.resolve();
  /** Bumped by each lines request: an older request's search reports nothing. */
  private linesGeneration = 0;
  private linesSearching = false;
  private closed = false;
  /** @param replayed the game replayed by `replayForAnalysis` (with the same game, start and moves) */
  constructor(
    private readonly opts: GameAnalysisOptions,
    private readonly replayed: ReplayedGame,
  ) {}

  /** Positions in the game: one more than its (legal) moves. */
  get positions(): number {
    return this.replayed.playable.length;
  }

  /** Scores every position, first to last (`graph` events, then `graph-done`); once per analysis. */
  graph(): Promise<void> {
    this.graphRun ??= (async () => {
      for (let ply = 0; ply < this.positions; ply++) {
        if (this.closed) return;
        if (!this.replayed.playable[ply]) continue;
        const answer = await this.search(ply, GRAPH_NODES, 1);
        if (this.closed) return;
        if (answer.info) this.opts.emit({ t: 'graph', ply, turn: this.replayed.turns[ply]!, score: answer.info.score });
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
    if (ply < 0 || ply >= this.positions || !this.replayed.playable[ply]) {
      this.opts.emit({ t: 'lines', ply, turn: this.replayed.turns[ply] ?? 'first', lines: [] });
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
    this.opts.emit({ t: 'lines', ply, turn: this.replayed.turns[ply]!, lines: [...best.values()].sort((a, b) => a.multipv - b.multipv) });
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
      {
        game: this.opts.game,
        // A chess game from a set-up position is lichess's `fromPosition` (castling rights as the FEN says).
        variant: this.opts.game === 'chess' && this.opts.start !== undefined && this.opts.start !== 'startpos' ? 'fromPosition' : 'standard',
        start: this.opts.start ?? 'startpos',
        moves: this.opts.moves.slice(0, ply),
        limits: { nodes },
        ...(multiPv > 1 ? { multiPv } : {}),
      },
      onInfo ?? (() => {}),
    );
  }
}
