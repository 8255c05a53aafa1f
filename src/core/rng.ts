/**
 * A small seeded PRNG (mulberry32) for reproducible opening orders, Chess960 starts and opening
 * generation: the same seed always gives the same match schedule.
 */

/** A function returning deterministic floats in [0, 1). */
export type Rng = () => number;

/** mulberry32 (Tommy Ettinger): 32-bit state, period 2^32, good enough for shuffling. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export const randomInt = (rng: Rng, n: number): number => Math.floor(rng() * n);

/** Fisher-Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
