/**
 * The learning curve of the AlphaZero loop: the Elo of each promoted net against the first best
 * net (the bootstrap net, Elo 0), as the sum of the gate results along the chain of promotions.
 * Each gate's 95% interval adds in quadrature (independent matches), so the band widens along the
 * chain: honest, if loose. Written as two `kishi-curve` files (x = self-play games, x = trainer
 * steps) and drawn with the plot code of `kishi plot` (src/plot).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { renderSvg } from '../../plot/render.js';
import { runCurveSpec } from '../../plot/specs.js';
import type { GateMatchResult } from './gate.js';

/** One promoted net on the curve. */
export interface CurveEntry {
  readonly generation: number;
  readonly label: string;
  /** Self-play games played before the net was trained (all generations), and cumulative trainer steps. */
  readonly games: number;
  readonly steps: number;
  readonly elo: number;
  readonly low: number;
  readonly high: number;
  /** Games of the gate that promoted it (0 for the first net). */
  readonly gateGames: number;
}

/** Half-widths larger than this (or infinite, after a whitewash) count as this. */
export const MAX_HALF_WIDTH = 1000;

const halfWidth = (r: GateMatchResult): number => {
  const h = (r.eloHigh - r.eloLow) / 2;
  return Number.isFinite(h) ? Math.min(h, MAX_HALF_WIDTH) : MAX_HALF_WIDTH;
};

const gateElo = (r: GateMatchResult): number => (Number.isFinite(r.elo) ? r.elo : Math.sign(r.elo) * MAX_HALF_WIDTH);

/** The curve entry of a net promoted on `gate` after `prev` (the previous best's entry). */
export function promotedEntry(prev: CurveEntry, gate: GateMatchResult, at: { generation: number; label: string; games: number; steps: number }): CurveEntry {
  const prevHalf = (prev.high - prev.low) / 2;
  const half = Math.sqrt(prevHalf * prevHalf + halfWidth(gate) ** 2);
  const elo = prev.elo + gateElo(gate);
  return { ...at, elo, low: elo - half, high: elo + half, gateGames: gate.games };
}

/** The first net of the curve (Elo 0 by definition). */
export const firstEntry = (at: { generation: number; label: string; games: number; steps: number }): CurveEntry => ({ ...at, elo: 0, low: 0, high: 0, gateGames: 0 });

/** The `kishi-curve` file for x = `games` or `steps`. */
export function curveFile(entries: readonly CurveEntry[], x: 'games' | 'steps', game: string): Record<string, unknown> {
  return {
    kind: 'kishi-curve',
    x: x === 'games' ? 'self-play games' : 'training steps',
    game,
    chart: { title: `AlphaZero loop (${game}): promoted nets`, xTitle: x === 'games' ? 'self-play games' : 'training steps', yTitle: 'Elo vs the first net (95% interval)', zeroRule: true },
    reference: 'the first best net (Elo 0); each promotion adds its gate result (95% intervals added in quadrature)',
    points: entries.map((e) => ({ x: x === 'games' ? e.games : e.steps, elo: e.elo, low: e.low, high: e.high, series: 'promoted nets', games: e.gateGames, generation: e.generation, label: e.label })),
  };
}

/** Writes curve-games.json / curve-steps.json and, when vega is installed, their SVGs. Returns the notes (e.g. why no SVG). */
export async function writeCurves(dir: string, entries: readonly CurveEntry[], game: string): Promise<Result<string[], KishiError>> {
  const notes: string[] = [];
  for (const x of ['games', 'steps'] as const) {
    const file = curveFile(entries, x, game);
    const base = join(dir, `curve-${x}`);
    try {
      writeFileSync(`${base}.json`, `${JSON.stringify(file, null, 1)}\n`);
    } catch (e) {
      return Result.err(new KishiError('ERR_CURVE', `${base}.json: ${(e as Error).message}`));
    }
    // the chart stored in the file: `kishi plot curve-<x>.json` draws this same one
    const spec = runCurveSpec(file as unknown as Parameters<typeof runCurveSpec>[0]);
    writeFileSync(`${base}.vl.json`, `${JSON.stringify(spec, null, 2)}\n`);
    const svg = await renderSvg(spec);
    if (svg.isErr) notes.push(svg.error.message);
    else writeFileSync(`${base}.svg`, svg.value);
  }
  return Result.ok(notes);
}
