/**
 * PGN records of chess games, written by chessops' PGN writer (`chessops/pgn` `makePgn`): tag pairs in
 * the order given, SAN moves with their comments, the result from the `Result` tag. The callers (a
 * `kishi match` game, a lichess game, a game on the local page) decide the tags and what each comment
 * says; this module turns their moves into SAN (chessops) and the record into text. Reads back with
 * chessops' `parsePgn`.
 */
import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { ChildNode, defaultGame, makePgn } from 'chessops/pgn';
import type { PgnNodeData } from 'chessops/pgn';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { KishiError, Result } from '../core/result.js';

/** One move of the record and the comment after it. */
export interface PgnMove {
  readonly san: string;
  readonly comment?: string;
}

export interface PgnRecord {
  /** Tag pairs in order, `Result` among them (its value ends the movetext); `FEN` when the game starts elsewhere. */
  readonly tags: readonly (readonly [string, string])[];
  /** A comment before the first move (for a game without moves, why it ended). */
  readonly startComment?: string;
  readonly moves: readonly PgnMove[];
}

/** The record as PGN text (one line of movetext, a blank line after the tags, LF line ends). */
export function writePgn(r: PgnRecord): string {
  const game = defaultGame<PgnNodeData>(() => new Map(r.tags.map(([k, v]) => [k, v])));
  if (r.startComment !== undefined) game.comments = [r.startComment];
  let node = game.moves;
  for (const m of r.moves) {
    const child = new ChildNode<PgnNodeData>({ san: m.san, ...(m.comment !== undefined ? { comments: [m.comment] } : {}) });
    node.children.push(child);
    node = child;
  }
  return makePgn(game);
}

/** The start position of a chess game: `startpos` or a FEN. */
export function chessStart(start: string): Result<Chess, KishiError> {
  if (start === 'startpos') return Result.ok(Chess.default());
  const setup = parseFen(start);
  if (setup.isErr) return Result.err(new KishiError('ERR_FEN', `bad FEN ${JSON.stringify(start)}: ${setup.error.message}`));
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) return Result.err(new KishiError('ERR_FEN', `impossible position ${JSON.stringify(start)}: ${pos.error.message}`));
  return Result.ok(pos.value);
}

/** The FEN of a start (`startpos` -> the standard FEN), as the `FEN` tag wants it. */
export const startFen = (start: string): Result<string, KishiError> => chessStart(start).map((pos) => makeFen(pos.toSetup()));

/**
 * UCI moves from `start` as SAN (chessops). Castling may be king-to (standard UCI) or king-takes-rook
 * (Chess960 UCI). Err at the first move that is not legal, naming it.
 */
export function sanMoves(start: string, moves: readonly string[]): Result<string[], KishiError> {
  const pos = chessStart(start);
  if (pos.isErr) return Result.err(pos.error);
  const out: string[] = [];
  for (const [i, uci] of moves.entries()) {
    const move = parseUci(uci);
    const norm = move === undefined ? undefined : normalizeMove(pos.value, move);
    if (norm === undefined || !pos.value.isLegal(norm)) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `move ${i + 1} (${uci}) is not legal`));
    out.push(makeSanAndPlay(pos.value, norm));
  }
  return Result.ok(out);
}
