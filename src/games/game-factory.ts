/**
 * Builds the rules adapter for a match game: `ChessGame` (standard or Chess960) or `ShogiGame`,
 * from `startpos` or a FEN/SFEN, so the match speaks only the `GameState` interface.
 */
import type { GameKind, GameState } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { ChessGame } from './chess/chess-game.js';
import { ShogiGame } from './shogi/shogi-game.js';

export const MATCH_VARIANTS = ['standard', 'chess960'] as const;
export type MatchVariant = (typeof MATCH_VARIANTS)[number];

/** A game at `start` (`startpos` or FEN/SFEN); Err quoting the text when it is not a legal position. */
export function createGame(kind: GameKind, variant: MatchVariant, start: string): Result<GameState<unknown>, KishiError> {
  if (kind === 'chess') {
    const options = { chess960: variant === 'chess960' };
    if (start === 'startpos') return Result.ok(ChessGame.standard(options) as GameState<unknown>);
    return ChessGame.fromFen(start, options).map((g) => g as GameState<unknown>);
  }
  if (variant !== 'standard') return Result.err(new KishiError('ERR_VARIANT', `shogi has no variant ${JSON.stringify(variant)}`));
  if (start === 'startpos') return Result.ok(ShogiGame.startpos() as GameState<unknown>);
  return ShogiGame.fromSfen(start).map((g) => g as GameState<unknown>);
}
