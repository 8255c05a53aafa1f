/**
 * Moves that do not need a search: an opening book, online opening sources and online tablebases, asked
 * before the engine as lichess-bot does (`engine_wrapper.play_move`): book → online tablebase → chessdb →
 * lichess cloud eval → opening explorer → engine. The game asks one `MoveSourceChain` per game; a source
 * answers a legal UCI move (with an optional score and line for the records), or nothing.
 * - The online opening sources are asked only up to `onlineMoves.maxDepth` full moves, and a game stops
 *   asking them after `maxOutOfBookMoves` turns where none of them knew the position (lichess-bot's
 *   `out_of_online_opening_book_moves`); the tablebase is always asked.
 * - A source that fails (network, bad answer) counts as not knowing; the engine plays instead, so a dead
 *   online service never costs a move.
 * - A suggested move that is not legal in the position is ignored.
 */
import type winston from 'winston';
import type { SearchInfo } from '../../../player/player.js';
import type { ChessLine } from '../chess-line.js';

export interface MoveQuery {
  readonly gameId: string;
  /** The game so far (variant, position, legality). */
  readonly line: ChessLine;
  /** Our clock now, milliseconds (Infinity without a clock). */
  readonly timeLeftMs: number;
}

export interface MoveSuggestion {
  /** UCI, legal in the query's position. */
  readonly move: string;
  /** Which source answered (for logs). */
  readonly source: string;
  /** A score and line for the records, when the source gives one (score from the mover's view). */
  readonly info?: SearchInfo;
  /** The tablebase says drawn and the config asks to offer a draw. */
  readonly offerDraw?: boolean;
  /** The tablebase says lost and the config asks to resign. */
  readonly resign?: boolean;
}

/** One source of moves. `suggest` never rejects. */
export interface MoveSource {
  readonly name: string;
  /** `opening`: counts toward maxDepth / maxOutOfBookMoves; `book`, `tablebase`: asked always. */
  readonly kind: 'book' | 'tablebase' | 'opening';
  suggest(q: MoveQuery): Promise<MoveSuggestion | undefined>;
}

export interface MoveSourceChainOptions {
  readonly sources: readonly MoveSource[];
  readonly maxOutOfBookMoves: number;
  /** Full-move number up to which the opening sources are asked. */
  readonly maxDepth: number;
  readonly log?: winston.Logger;
}

/** The sources of one game, in order, with the game's miss counter. */
export class MoveSourceChain {
  private misses = 0;
  /** Counters for tests: answers per source name, and turns no opening source knew. */
  readonly stats = { answers: {} as Record<string, number>, misses: 0 };

  constructor(private readonly opts: MoveSourceChainOptions) {}

  get empty(): boolean {
    return this.opts.sources.length === 0;
  }

  async suggest(q: MoveQuery): Promise<MoveSuggestion | undefined> {
    const plies = q.line.plies();
    const openingAllowed = plies <= this.opts.maxDepth * 2 - 1 && this.misses < this.opts.maxOutOfBookMoves;
    let askedOpening = false;
    for (const source of this.opts.sources) {
      if (source.kind === 'opening') {
        if (!openingAllowed) continue;
        askedOpening = true;
      }
      let s: MoveSuggestion | undefined;
      try {
        s = await source.suggest(q);
      } catch (e) {
        this.opts.log?.debug(`game ${q.gameId}: ${source.name} failed: ${(e as Error).message}`);
        s = undefined;
      }
      if (s === undefined) continue;
      if (!q.line.isLegal(s.move)) {
        this.opts.log?.warn(`game ${q.gameId}: ${source.name} suggested ${s.move}, not legal in ${q.line.fen()}; ignored`);
        continue;
      }
      this.stats.answers[source.name] = (this.stats.answers[source.name] ?? 0) + 1;
      this.opts.log?.info(`game ${q.gameId}: ${s.move} from ${s.source}`);
      return s;
    }
    if (askedOpening) {
      this.misses++;
      this.stats.misses++;
      if (this.misses === this.opts.maxOutOfBookMoves) this.opts.log?.info(`game ${q.gameId}: out of the online opening books; no more asking`);
    }
    return undefined;
  }
}
