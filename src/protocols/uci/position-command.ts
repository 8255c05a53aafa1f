/**
 * The `position` command of both protocols: `position <start words> [moves m1 m2 ...]`, checked
 * move by move on the rules adapter (the dialect parses the start words).
 *
 * GUIs send the whole game before every search. When the new command continues the previous one
 * (same start, the previous moves as a prefix), only the new moves are checked, on a clone of the
 * previous game: replaying a long shogi game through shogiops costs tens of milliseconds, which a
 * fast time control cannot spare.
 */
import { KishiError, Result } from '../../core/result.js';
import type { Dialect, EngineSettings, PositionState } from './dialect.js';

/** Splits `position` tokens into the start words and the moves. */
export function splitPosition(tokens: readonly string[]): { head: string[]; moves: string[] } {
  const at = tokens.indexOf('moves');
  return at < 0 ? { head: [...tokens], moves: [] } : { head: tokens.slice(0, at), moves: tokens.slice(at + 1) };
}

const isPrefix = (a: readonly string[], b: readonly string[]): boolean => a.length <= b.length && a.every((m, i) => b[i] === m);

/** A parsed `position`; `refused` says which move was illegal (the position stops before it). */
export type ParsedPosition = PositionState & { readonly refused?: KishiError };

/**
 * Parses and checks a `position` command; `previous` (when given) may be extended instead of replayed.
 * A bad start is an error; an illegal or malformed move ends the move list there, as Stockfish does: the
 * position is the one before that move, and `refused` says which move it was.
 */
export function parsePosition(
  dialect: Dialect,
  tokens: readonly string[],
  settings: EngineSettings,
  previous?: PositionState,
): Result<ParsedPosition, KishiError> {
  const { head, moves } = splitPosition(tokens);
  const start = dialect.parseStart(head, settings);
  if (start.isErr) return Result.err(start.error);
  const { start: startText, variant } = start.value;
  const continues = previous !== undefined && previous.start === startText && previous.variant === variant && isPrefix(previous.sent, moves);
  const game = continues ? previous.game.clone() : start.value.game;
  const texts = continues ? [...previous.moves] : [];
  for (let i = texts.length; i < moves.length; i++) {
    const text = moves[i]!;
    const m = game.parseMove(text);
    if (m.isErr) {
      const refused = new KishiError(m.error.code, `move ${i + 1} (${text}): ${m.error.message}`);
      return Result.ok({ start: startText, variant, moves: texts, sent: moves.slice(0, i), game, refused });
    }
    texts.push(game.moveToText(m.value));
    game.play(m.value);
  }
  return Result.ok({ start: startText, variant, moves: texts, sent: moves, game });
}

/** The position of a dialect's `position startpos`. */
export const startPosition = (dialect: Dialect, settings: EngineSettings): PositionState =>
  parsePosition(dialect, ['startpos'], settings).unwrap();
