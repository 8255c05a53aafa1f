/**
 * Seeded random chess games for the adapter's property tests: a small deterministic PRNG
 * (mulberry32) and a walker that plays uniformly random legal moves, so that failures replay
 * exactly from the seed.
 */
import type { NormalMove } from 'chessops/types';
import { ChessGame } from '../../../src/games/chess/chess-game.js';

/** mulberry32, the project's one seeded generator (src/core/rng.ts). */
import { seededRng } from '../../../src/core/rng.js';

export const mulberry32 = seededRng;

/** A start for a random game: the standard position or a random Chess960 one. */
export const randomStart = (random: () => number): ChessGame => {
  if (random() < 0.5) return ChessGame.standard();
  return ChessGame.fromChess960(Math.floor(random() * 960)).unwrap();
};

/** Whether `move` castles, captures en passant or promotes. */
export const isSpecial = (game: ChessGame, move: NormalMove): boolean => {
  const pos = game.positionView();
  if (move.promotion) return true;
  if (pos.board.king.has(move.from) && pos.board[pos.turn].has(move.to)) return true;
  return pos.board.pawn.has(move.from) && move.to === pos.epSquare;
};

/**
 * Plays random games until `totalPlies` plies have been played, calling `visit(game, move)`
 * before each move is played (with the game in the position the move is legal in). A game ends
 * at an outcome or after `maxPlies`.
 */
export const walkRandomGames = (
  seed: number,
  totalPlies: number,
  maxPlies: number,
  visit: (game: ChessGame, move: NormalMove) => void,
): number => {
  const random = mulberry32(seed);
  let played = 0;
  let games = 0;
  while (played < totalPlies) {
    const game = randomStart(random);
    games++;
    while (played < totalPlies && game.plies() < maxPlies && game.outcome() === undefined) {
      const moves = game.legalMoves();
      // Castling, en passant and promotions are rare in uniformly random play; favour them.
      const special = moves.filter(m => isSpecial(game, m));
      const pool = special.length > 0 && random() < 0.5 ? special : moves;
      const move = pool[Math.floor(random() * pool.length)]!;
      visit(game, move);
      game.play(move);
      played++;
    }
  }
  return games;
};
