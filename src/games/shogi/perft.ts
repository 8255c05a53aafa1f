/**
 * Perft (move-path enumeration) for the shogi adapter: the number of leaf nodes of the legal-move
 * tree to a fixed depth. Depth 1 is bulk-counted (`countLegalMoves`, no make/undo); deeper levels
 * play and undo every move on the game itself, so perft also exercises play/undo.
 * Game-end rules (sennichite, max moves, declaration) are ignored, as in every published perft.
 */
import type { MoveOrDrop, ShogiGame } from './shogi-game.js';

export function perft(game: ShogiGame, depth: number): number {
  if (depth <= 0) return 1;
  if (depth === 1) return game.countLegalMoves();
  let nodes = 0;
  for (const move of game.legalMoves()) {
    game.play(move);
    nodes += perft(game, depth - 1);
    game.undo();
  }
  return nodes;
}

/** One root move of `divide`: its USI text, the move, and the perft of the position after it. */
export interface DivideEntry {
  readonly usi: string;
  readonly move: MoveOrDrop;
  readonly nodes: number;
}

/** Perft split by root move (for comparing with another engine's `divide`/`go perft`). */
export function divide(game: ShogiGame, depth: number): DivideEntry[] {
  if (depth <= 0) return [];
  return game.legalMoves().map((move) => {
    game.play(move);
    const nodes = perft(game, depth - 1);
    game.undo();
    return { usi: game.moveToText(move), move, nodes };
  });
}
