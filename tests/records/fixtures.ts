/** Game-log data the record tests and the watch-view tests share. */
import type { GameLogHeader } from '../../src/records/game-log.js';

/** The chess start position as FEN (what the game log's `position` holds before the first move). */
export const CHESS_START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A version-1 header of a lichess chess game `g1`, Kishi first, with `over` applied. */
export const chessHeader = (over: Partial<GameLogHeader> = {}): GameLogHeader => ({
  type: 'header',
  version: 1,
  game: 'chess',
  variant: 'standard',
  server: 'lichess',
  gameId: 'g1',
  start: 'startpos',
  ourSide: 'first',
  players: { first: { name: 'kishi', rating: 1500 }, second: { name: 'opp', rating: 1600 } },
  startedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
