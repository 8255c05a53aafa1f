/**
 * The Polyglot book as a move source (lichess-bot `engine.polyglot`): the books configured for the game's
 * variant (fromPosition uses the standard ones), read once per process, asked for our moves up to
 * `maxDepth` full moves; the move is chosen per `selection`, `minWeight` and `normalization`
 * (src/books/book-choice.ts). A book file that cannot be read is reported once and skipped.
 */
import { readFileSync } from 'node:fs';
import type winston from 'winston';
import type { Chess } from 'chessops/chess';
import { parseSquare } from 'chessops/util';
import type { PolyglotConfig } from '../../../config/sections/lichess.js';
import { chooseBookMove } from '../../../books/book-choice.js';
import type { WeightedMove } from '../../../books/book-choice.js';
import { PolyglotBook, decodePolyglotMove } from '../../../books/polyglot-book.js';
import type { BoardProbe } from '../../../books/polyglot-book.js';
import { polyglotKey } from '../../../games/chess/zobrist.js';
import type { MoveQuery, MoveSource, MoveSuggestion } from './move-source.js';

/** Books by path, loaded on first use and shared by every game. */
export class BookLibrary {
  private readonly books = new Map<string, PolyglotBook | undefined>();

  constructor(private readonly log?: winston.Logger) {}

  get(path: string): PolyglotBook | undefined {
    if (!this.books.has(path)) {
      try {
        this.books.set(path, new PolyglotBook(readFileSync(path)));
      } catch (e) {
        this.log?.warn(`opening book ${path} cannot be read: ${(e as Error).message}; skipped`);
        this.books.set(path, undefined);
      }
    }
    return this.books.get(path);
  }
}

export class BookSource implements MoveSource {
  readonly name = 'book';
  readonly kind = 'book';

  constructor(
    private readonly config: PolyglotConfig,
    private readonly library: BookLibrary,
    private readonly random: () => number = Math.random,
  ) {}

  async suggest(q: MoveQuery): Promise<MoveSuggestion | undefined> {
    const cfg = this.config;
    const line = q.line;
    if (!cfg.enabled || line.plies() > cfg.maxDepth * 2 - 1) return undefined;
    const variant = line.variant === 'fromPosition' ? 'standard' : line.variant;
    const paths = (cfg.book as Readonly<Record<string, readonly string[]>>)[variant] ?? [];
    if (paths.length === 0) return undefined;
    const pos = line.position();
    const key = polyglotKey(pos as unknown as Chess);
    const probe: BoardProbe = {
      pieceAt: (sq) => {
        const s = parseSquare(sq);
        return s === undefined ? undefined : pos.board.get(s);
      },
    };
    const chess960 = line.variant === 'chess960';
    const candidates: WeightedMove[][] = [];
    for (const path of paths) {
      const book = this.library.get(path);
      if (book === undefined) continue;
      candidates.push(
        book
          .entries(key)
          .map((e) => ({ move: decodePolyglotMove(e.move, probe, chess960), weight: e.weight }))
          .filter((m) => line.isLegal(m.move)),
      );
    }
    const move = chooseBookMove(candidates, { selection: cfg.selection, minWeight: cfg.minWeight, normalization: cfg.normalization, random: this.random });
    return move === undefined ? undefined : { move, source: 'opening book' };
  }
}
