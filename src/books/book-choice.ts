/**
 * Choosing a book move, as lichess-bot's `engine.polyglot` does:
 * - `selection`: `weighted_random` (chance proportional to weight), `uniform_random` (every move alike) or
 *   `best_move` (the highest weight; the first listed on a tie); entries lighter than `minWeight` are left
 *   out in every mode.
 * - `normalization` across several books of one variant: `none` takes the first book that has a move for the
 *   position (lichess-bot's order); `max` and `sum` divide each book's weights by its largest weight or by
 *   their sum for this position, add the results per move over all books, and choose from that merged list.
 * Pure: the random source is passed in.
 */

export const BOOK_SELECTIONS = ['weighted_random', 'uniform_random', 'best_move'] as const;
export type BookSelection = (typeof BOOK_SELECTIONS)[number];
export const BOOK_NORMALIZATIONS = ['none', 'max', 'sum'] as const;
export type BookNormalization = (typeof BOOK_NORMALIZATIONS)[number];

/** One candidate from one book: the move in UCI and its Polyglot weight. */
export interface WeightedMove {
  readonly move: string;
  readonly weight: number;
}

export interface BookChoiceOptions {
  readonly selection: BookSelection;
  readonly minWeight: number;
  readonly normalization: BookNormalization;
  /** Uniform in [0, 1). */
  readonly random: () => number;
}

function select(moves: readonly WeightedMove[], selection: BookSelection, random: () => number): string | undefined {
  if (moves.length === 0) return undefined;
  switch (selection) {
    case 'best_move': {
      let best = moves[0]!;
      for (const m of moves) if (m.weight > best.weight) best = m;
      return best.move;
    }
    case 'uniform_random':
      return moves[Math.min(moves.length - 1, Math.floor(random() * moves.length))]!.move;
    case 'weighted_random': {
      const total = moves.reduce((s, m) => s + m.weight, 0);
      if (total <= 0) return undefined;
      let r = random() * total;
      for (const m of moves) {
        if (m.weight <= 0) continue;
        r -= m.weight;
        if (r < 0) return m.move;
      }
      return [...moves].reverse().find((m) => m.weight > 0)?.move;
    }
  }
}

/** The move to play from the candidates of each book (in the configured book order), or undefined. */
export function chooseBookMove(books: readonly (readonly WeightedMove[])[], opts: BookChoiceOptions): string | undefined {
  const usable = books.map((b) => b.filter((m) => m.weight >= opts.minWeight)).filter((b) => b.length > 0);
  if (opts.normalization === 'none') {
    for (const b of usable) {
      const m = select(b, opts.selection, opts.random);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  const merged = new Map<string, number>();
  for (const b of usable) {
    const scale = opts.normalization === 'max' ? Math.max(...b.map((m) => m.weight)) : b.reduce((s, m) => s + m.weight, 0);
    if (scale <= 0) continue;
    for (const m of b) merged.set(m.move, (merged.get(m.move) ?? 0) + m.weight / scale);
  }
  return select(
    [...merged].map(([move, weight]) => ({ move, weight })),
    opts.selection,
    opts.random,
  );
}
