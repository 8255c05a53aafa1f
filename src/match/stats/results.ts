/**
 * Match result counts, always from the point of view of the first engine (the one being tested).
 *
 * Two shapes, as fishtest and fastchess keep them:
 * - trinomial (per game): wins, draws, losses;
 * - pentanomial (per game pair, the same opening played with colours swapped): how many pairs
 *   scored 0, 1/2, 1, 3/2 and 2 points, low to high: [LL, LD+DL, WL+LW+DD, WD+DW, WW]
 *   (fastchess "Ptnml(0-2)", fishtest `results["pentanomial"]`).
 *
 * fishtest's LLR code takes plain frequency arrays, low to high: [L, D, W] or the pentanomial.
 */

/** Per-game counts from the first engine's point of view. */
export interface Wdl {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** Per-pair counts, low to high: pairs scoring 0, 0.5, 1, 1.5, 2 points (of 2). */
export type Pentanomial = readonly [ll: number, ld: number, even: number, wd: number, ww: number];

/** The score of one game for the first engine: loss, draw or win. */
export const GAME_SCORES = [0, 0.5, 1] as const;
export type GameScore = (typeof GAME_SCORES)[number];

/** No games yet. */
export const EMPTY_WDL: Wdl = { wins: 0, draws: 0, losses: 0 };
/** No game pairs yet. */
export const EMPTY_PENTANOMIAL: Pentanomial = [0, 0, 0, 0, 0];

/** fishtest's trinomial frequency array, low to high: [losses, draws, wins]. */
export function wdlFrequencies(wdl: Wdl): readonly [number, number, number] {
  return [wdl.losses, wdl.draws, wdl.wins];
}

/** The count of games in a W/D/L record. */
export function wdlGames(wdl: Wdl): number {
  return wdl.wins + wdl.draws + wdl.losses;
}

/** Adds one game's score to a W/D/L record (returns a new record). */
export function addGame(wdl: Wdl, score: GameScore): Wdl {
  if (score === 1) return { ...wdl, wins: wdl.wins + 1 };
  if (score === 0) return { ...wdl, losses: wdl.losses + 1 };
  return { ...wdl, draws: wdl.draws + 1 };
}

/**
 * The pentanomial bucket of a game pair: 2 * (first + second), i.e. the pair's points in half
 * points: 0 = LL, 1 = LD/DL, 2 = WL/LW/DD, 3 = WD/DW, 4 = WW.
 */
export function pairBucket(first: GameScore, second: GameScore): 0 | 1 | 2 | 3 | 4 {
  return (2 * (first + second)) as 0 | 1 | 2 | 3 | 4;
}

/** Adds one finished game pair to a pentanomial record (returns a new record). */
export function addPair(penta: Pentanomial, first: GameScore, second: GameScore): Pentanomial {
  const out = [...penta] as [number, number, number, number, number];
  out[pairBucket(first, second)] += 1;
  return out;
}

/** The count of game pairs in a pentanomial record. */
export function pentanomialPairs(penta: Pentanomial): number {
  return penta[0] + penta[1] + penta[2] + penta[3] + penta[4];
}

/**
 * Throws a RangeError unless `counts` is a frequency array of length 3 or 5 with finite,
 * non-negative entries. Bad counts are a caller bug, not an expected failure.
 */
export function assertFrequencies(counts: readonly number[]): void {
  if (counts.length !== 3 && counts.length !== 5) {
    throw new RangeError(`expected 3 (L,D,W) or 5 (pentanomial) counts, got ${JSON.stringify(counts)}`);
  }
  for (const c of counts) {
    if (!Number.isFinite(c) || c < 0) throw new RangeError(`bad result count in ${JSON.stringify(counts)}`);
  }
}
