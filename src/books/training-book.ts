/**
 * The small opening book of the training games (the paper kept self-play diverse with "a small
 * opening book"): chess, the first `size` positions of data/openings/chess-balanced.epd; shogi, the
 * first `plies` moves of the lines of data/openings/taya36.sfen, duplicates dropped, the
 * first `size` of them. When the file is missing, a few built-in lines stand in.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { Opening } from './openings.js';
import { parseOpening, splitOpeningLine } from './openings.js';
import { randomInt, seededRng } from '../core/rng.js';
import { resolveModelPath } from '../core/package-path.js';

export const DEFAULT_BOOKS: Readonly<Record<GameKind, string>> = {
  chess: 'data/openings/chess-balanced.epd',
  shogi: 'data/openings/taya36.sfen',
};

/** Built-in stand-ins: common first moves. */
const BUILT_IN: Readonly<Record<GameKind, readonly string[]>> = {
  chess: [
    'startpos moves e2e4 e7e5',
    'startpos moves e2e4 c7c5',
    'startpos moves e2e4 e7e6',
    'startpos moves e2e4 c7c6',
    'startpos moves d2d4 d7d5',
    'startpos moves d2d4 g8f6',
    'startpos moves c2c4 e7e5',
    'startpos moves g1f3 d7d5',
  ],
  shogi: [
    'startpos moves 7g7f 3c3d',
    'startpos moves 7g7f 8c8d',
    'startpos moves 2g2f 8c8d',
    'startpos moves 2g2f 3c3d',
    'startpos moves 5g5f 3c3d',
    'startpos moves 6g6f 8c8d',
    'startpos moves 7g7f 3c3d 2g2f 4c4d',
    'startpos moves 7g7f 8c8d 2g2f 8d8e',
  ],
};

export interface TrainingBook {
  readonly openings: readonly Opening[];
  /** The file read, or `built-in`. */
  readonly source: string;
}

/**
 * Loads the book: `file` (default per game) resolved against the working directory, then the
 * package root. `plies` cuts every line to its first moves (shogi default 8; chess keeps the EPD positions).
 */
export const loadTrainingBook = (game: GameKind, file: string | undefined, size: number, plies?: number): Result<TrainingBook, KishiError> => {
  const path = resolveModelPath(file ?? DEFAULT_BOOKS[game]);
  let lines: { text: string; source: string }[];
  let source: string;
  if (existsSync(path)) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      return Result.err(new KishiError('ERR_OPENING', `cannot read ${path}: ${(e as Error).message}`));
    }
    lines = text.split(/\r?\n/).map((t, i) => ({ text: t.trim(), source: `${path}:${i + 1}` }));
    source = path;
  } else if (file !== undefined) {
    return Result.err(new KishiError('ERR_OPENING', `opening book ${path} does not exist`));
  } else {
    lines = BUILT_IN[game].map((t, i) => ({ text: t, source: `built-in:${i + 1}` }));
    source = 'built-in';
  }
  const cut = plies ?? (game === 'shogi' ? 8 : undefined);
  const seen = new Set<string>();
  const out: Opening[] = [];
  // Lines are cut before they are checked, and reading stops at `size` openings: checking a line
  // with the rules adapters costs milliseconds per move.
  for (const line of lines) {
    if (out.length >= size) break;
    if (line.text === '' || line.text.startsWith('#')) continue;
    const split = splitOpeningLine(game, line.text);
    if (split.isErr) return Result.err(new KishiError(split.error.code, `${line.source}: ${split.error.message}`));
    const moves = cut !== undefined ? split.value.moves.slice(0, cut) : split.value.moves;
    const key = `${split.value.start} ${moves.join(' ')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const head = split.value.start === 'startpos' ? 'startpos' : `${game === 'chess' ? 'fen' : 'sfen'} ${split.value.start}`;
    const o = parseOpening(game, 'standard', moves.length > 0 ? `${head} moves ${moves.join(' ')}` : head, line.source);
    if (o.isErr) return Result.err(o.error);
    out.push(o.value);
  }
  return Result.ok({ openings: out, source });
};

/** The opening of training game `index` (0-based): a seeded draw, the same on every run and resume. */
export const openingFor = (book: TrainingBook, seed: number, index: number): Opening => {
  const rng = seededRng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  rng();
  return book.openings[randomInt(rng, book.openings.length)]!;
};
