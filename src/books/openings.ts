/**
 * Opening files and the match schedule of openings.
 *
 * Line formats (blank lines and `#` comments skipped):
 * - chess: EPD or FEN (`<board> <turn> <castling> <ep> [halfmove fullmove] [EPD operations]`);
 *   or `startpos [moves ...]`, `fen <FEN> [moves ...]` (UCI moves);
 * - shogi: SFEN (`<board> <turn> <hands> [move number]`, optionally after `sfen `), followed by
 *   `moves ...`; or `startpos [moves ...]` (USI moves), e.g. data/openings/taya36.sfen.
 *   A leading `position ` is accepted in both games.
 *
 * Each opening is checked with the rules adapter (position legal, moves legal) and its moves are
 * rewritten in the adapter's notation. The schedule gives game pair k (games 2k and 2k+1, the same
 * opening with colours swapped) the k-th opening of a seeded shuffle (or file order), cycling
 * when there are more pairs than openings.
 */
import { readFileSync } from 'node:fs';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { chess960Fen } from '../games/chess/chess960.js';
import type { MatchVariant } from '../games/game-factory.js';
import { createGame } from '../games/game-factory.js';
import type { Rng } from '../core/rng.js';
import { randomInt, seededRng, shuffled } from '../core/rng.js';

export interface Opening {
  /** `startpos` or the start FEN/SFEN. */
  readonly start: string;
  /** Book moves from `start`, UCI/USI (normalised by the adapter). */
  readonly moves: readonly string[];
  /** Where it came from: `file:line`, `startpos`, `chess960 #518`. */
  readonly source: string;
}

export const OPENING_ORDERS = ['random', 'sequential'] as const;
export type OpeningOrder = (typeof OPENING_ORDERS)[number];

const EPD_FIELDS = 4;

/** Splits one opening line into start and move texts (no legality check yet). */
export function splitOpeningLine(kind: GameKind, line: string): Result<{ start: string; moves: string[] }, KishiError> {
  let t = line.trim().replace(/^position\s+/, '');
  const bad = (why: string): Result<never, KishiError> => Result.err(new KishiError('ERR_OPENING', `${why}: ${JSON.stringify(line)}`));
  const afterMoves = (rest: string): string[] => {
    const m = /(?:^|\s)moves\s+(.*)$/.exec(rest);
    return m ? m[1]!.trim().split(/\s+/).filter((x) => x !== '') : [];
  };
  if (t === 'startpos' || t.startsWith('startpos ')) return Result.ok({ start: 'startpos', moves: afterMoves(t) });
  t = t.replace(/^(fen|sfen)\s+/, '');
  const movesAt = t.search(/(?:^|\s)moves(?:\s|$)/);
  const head = (movesAt >= 0 ? t.slice(0, movesAt) : t).trim();
  const moves = movesAt >= 0 ? afterMoves(t.slice(movesAt)) : [];
  const fields = head.split(/\s+/);
  if (kind === 'chess') {
    if (fields.length < EPD_FIELDS) return bad('expected a FEN or EPD');
    const full = fields.length >= 6 && /^\d+$/.test(fields[4]!) && /^\d+$/.test(fields[5]!);
    // EPD keeps the move counters in the hmvc/fmvn operations.
    const hmvc = /(?:^|[\s;])hmvc\s+(\d+)/.exec(head)?.[1] ?? '0';
    const fmvn = /(?:^|[\s;])fmvn\s+(\d+)/.exec(head)?.[1] ?? '1';
    const fen = full ? fields.slice(0, 6).join(' ') : `${fields.slice(0, EPD_FIELDS).join(' ')} ${hmvc} ${fmvn}`;
    return Result.ok({ start: fen, moves });
  }
  if (fields.length < 3) return bad('expected an SFEN');
  const sfen = fields.length >= 4 && /^\d+$/.test(fields[3]!) ? fields.slice(0, 4).join(' ') : `${fields.slice(0, 3).join(' ')} 1`;
  return Result.ok({ start: sfen, moves });
}

/** Parses and checks one opening. */
export function parseOpening(kind: GameKind, variant: MatchVariant, line: string, source: string): Result<Opening, KishiError> {
  const split = splitOpeningLine(kind, line);
  if (split.isErr) return Result.err(new KishiError(split.error.code, `${source}: ${split.error.message}`));
  const game = createGame(kind, variant, split.value.start);
  if (game.isErr) return Result.err(new KishiError(game.error.code, `${source}: ${game.error.message}`));
  const normalised: string[] = [];
  for (const text of split.value.moves) {
    const m = game.value.parseMove(text);
    if (m.isErr) return Result.err(new KishiError('ERR_OPENING', `${source}: ${m.error.message}`));
    normalised.push(game.value.moveToText(m.value));
    game.value.play(m.value);
  }
  if (game.value.outcome() !== undefined) return Result.err(new KishiError('ERR_OPENING', `${source}: the game is already over after the opening`));
  return Result.ok({ start: split.value.start, moves: normalised, source });
}

/** Parses an opening file's text; Err at the first bad line. */
export function parseOpenings(kind: GameKind, variant: MatchVariant, text: string, name: string): Result<Opening[], KishiError> {
  const out: Opening[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const o = parseOpening(kind, variant, line, `${name}:${i + 1}`);
    if (o.isErr) return Result.err(o.error);
    out.push(o.value);
  }
  if (out.length === 0) return Result.err(new KishiError('ERR_OPENING', `${name}: no openings in the file`));
  return Result.ok(out);
}

/** Reads an opening file. */
export function loadOpenings(kind: GameKind, variant: MatchVariant, file: string): Result<Opening[], KishiError> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return Result.err(new KishiError('ERR_OPENING', `cannot read ${file}: ${(e as Error).message}`));
  }
  return parseOpenings(kind, variant, text, file);
}

/** The default when no file is given: the start position, or random Chess960 starts. */
export function defaultOpenings(kind: GameKind, variant: MatchVariant, count: number, rng: Rng): Opening[] {
  if (kind === 'chess' && variant === 'chess960') {
    return Array.from({ length: Math.max(1, count) }, () => {
      const n = randomInt(rng, 960);
      return { start: chess960Fen(n)!, moves: [], source: `chess960 #${n}` };
    });
  }
  return [{ start: 'startpos', moves: [], source: 'startpos' }];
}

/** The opening of each game pair (see the module comment). */
export function openingSchedule(openings: readonly Opening[], pairs: number, order: OpeningOrder, seed: number): Opening[] {
  const list = order === 'random' ? shuffled(openings, seededRng(seed)) : [...openings];
  return Array.from({ length: pairs }, (_, k) => list[k % list.length]!);
}
