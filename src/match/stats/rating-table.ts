/**
 * Print-friendly rows for a Bradley-Terry fit (bradley-terry.ts), in the spirit of Ordo's and
 * BayesElo's rating lists: rank, player, Elo, +- (half-width of the interval), interval, points,
 * games, score %, W/D/L and how the rating was obtained.
 */

import type { BradleyTerryFit, RatedPlayer } from './bradley-terry.js';

/** Column headers of {@link ratingTableRows}. */
export const RATING_TABLE_HEADER = ['#', 'player', 'elo', '+-', 'interval', 'points', 'games', 'score', 'w/d/l', 'note'] as const;

function formatNumber(x: number, decimals: number): string {
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  return x.toFixed(decimals);
}

function note(p: RatedPlayer): string {
  switch (p.status) {
    case 'anchor':
      return 'anchor';
    case 'fitted':
      return '';
    case 'unbounded-above':
      return 'unbounded above: lost no points toward an anchor';
    case 'unbounded-below':
      return 'unbounded below: took no points toward an anchor';
    case 'unidentified':
      return 'unidentified: no results linking it to an anchor';
  }
}

/**
 * The fit as string rows (header first), players sorted by rating, best first (unidentified last).
 * Elo figures are rounded to `decimals` places (default 1); infinite values print as `inf`.
 */
export function ratingTableRows(fit: BradleyTerryFit, decimals = 1): string[][] {
  const sortKey = (p: RatedPlayer): number => p.rating ?? Number.NEGATIVE_INFINITY;
  const sorted = [...fit.players].sort((a, b) => {
    if (a.rating === undefined && b.rating !== undefined) return 1;
    if (b.rating === undefined && a.rating !== undefined) return -1;
    const d = sortKey(b) - sortKey(a);
    return Number.isNaN(d) || d === 0 ? a.name.localeCompare(b.name) : d;
  });
  const rows = sorted.map((p, k) => [
    String(k + 1),
    p.name,
    p.rating === undefined ? '?' : formatNumber(p.rating, decimals),
    p.status === 'anchor' ? '-' : formatNumber(p.error, decimals),
    p.status === 'anchor' ? '-' : `[${formatNumber(p.low, decimals)}, ${formatNumber(p.high, decimals)}]`,
    String(p.points),
    String(p.games),
    p.games > 0 ? `${((100 * p.points) / p.games).toFixed(1)}%` : '-',
    `${p.wins}/${p.draws}/${p.losses}`,
    note(p),
  ]);
  return [[...RATING_TABLE_HEADER], ...rows];
}

/**
 * Aligns string rows into a plain-text table: columns whose cells are all numbers (or `inf`, `?`,
 * `-`, empty) are right-aligned, the others left-aligned;
 * columns separated by two spaces, a dashed rule under the header.
 */
export function formatTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const columns = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const numeric = Array.from({ length: columns }, (_, c) =>
    rows.slice(1).every((r) => /^([-+]?(\d+(\.\d+)?%?|inf)|\?|-|)$/.test(r[c] ?? '')),
  );
  const line = (r: readonly string[]): string =>
    widths
      .map((w, c) => (numeric[c] ? (r[c] ?? '').padStart(w) : (r[c] ?? '').padEnd(w)))
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  return [line(header!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
