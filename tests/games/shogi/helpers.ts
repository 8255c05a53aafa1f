/** Test helpers for the shogi adapter tests: a seeded RNG and a random-game walker. */
import type { Result } from '../../../src/core/result.js';
import type { MoveOrDrop, ShogiGame } from '../../../src/games/shogi/shogi-game.js';

/** mulberry32, the project's one seeded generator (src/core/rng.ts). */
import { seededRng } from '../../../src/core/rng.js';

export const mulberry32 = seededRng;

/**
 * Plays random legal moves from `start()` until `totalPlies` plies have been played in all,
 * starting a new game when one ends by the rules or reaches `maxGamePlies`.
 * `visit` sees the game before each move and the chosen move.
 */
export function walkRandomGames(
  start: () => ShogiGame,
  totalPlies: number,
  seed: number,
  maxGamePlies: number,
  visit: (game: ShogiGame, move: MoveOrDrop, ply: number) => void,
  endOfGame?: (game: ShogiGame) => void,
): void {
  const rng = mulberry32(seed);
  let game = start();
  for (let ply = 0; ply < totalPlies; ply++) {
    if (game.outcome() !== undefined || game.plies() >= maxGamePlies) {
      endOfGame?.(game);
      game = start();
    }
    const moves = game.legalMoves();
    const move = moves[Math.floor(rng() * moves.length)]!;
    visit(game, move, ply);
    game.play(move);
  }
  endOfGame?.(game);
}

/** The error of a Result, or undefined when it is Ok (for assertions on Err values). */
export const errorOf = <T, E extends Error>(r: Result<T, E>): E | undefined => (r.isErr ? r.error : undefined);
