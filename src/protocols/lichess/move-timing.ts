/**
 * Small timing rules from lichess-bot that are not the engine's business. Pure.
 * - `fakeThinkMs` (lichess-bot `fake_think_time`): after the first ten plies, wait 1.5 % of
 *   min(initial clock, our clock), less as the game goes on (down by a third at ply 120), at most 5 s.
 * - `staleGameMs` (lichess-bot `should_terminate_now`): a real-time game with no update from lichess for the
 *   mover's clock plus increment plus a minute is stuck; the handler leaves it.
 */

export function fakeThinkMs(plies: number, initialMs: number, ourClockMs: number): number {
  if (plies <= 9) return 0;
  const delay = Math.min(initialMs, ourClockMs) * 0.015;
  const accel = 1 - Math.max(0, Math.min(100, plies - 20)) / 150;
  return Math.max(0, Math.min(5000, delay * accel));
}

export function staleGameMs(moverClockMs: number, moverIncrementMs: number): number {
  return Math.max(0, moverClockMs) + Math.max(0, moverIncrementMs) + 60_000;
}
