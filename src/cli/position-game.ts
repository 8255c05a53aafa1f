/**
 * Which game a position text belongs to, for the hint after a parse error: a newcomer pastes an SFEN
 * where a FEN is expected (chess is the default game of `kishi analyse` and `kishi perft`) or the
 * reverse, and "bad piece placement field" alone does not say what to change.
 */
import type { GameKind } from '../core/game.js';
import { ChessGame } from '../games/chess/index.js';
import { ShogiGame } from '../games/shogi/shogi-game.js';

/** The other game when `text`, which did not parse as a position of `game`, parses as one of it. */
export function otherGameOf(game: GameKind, text: string): GameKind | undefined {
  if (game === 'chess') return ShogiGame.fromSfen(text).isOk ? 'shogi' : undefined;
  return ChessGame.fromFen(text).isOk ? 'chess' : undefined;
}

/**
 * The hint to append to a parse error, naming the notation and the flag that fixes it (`flag` is
 * how the command selects the game, `-g shogi` or `--sfen`); empty when the text is no position of
 * the other game either.
 */
export function wrongGameHint(game: GameKind, text: string, flag: (other: GameKind) => string): string {
  const other = otherGameOf(game, text);
  if (other === undefined) return '';
  return ` (this is a ${other} position, ${other === 'shogi' ? 'an SFEN' : 'a FEN'}: ${flag(other)})`;
}
