import { expect, test } from 'vitest';
import { fitBradleyTerry } from '../../../src/match/stats/bradley-terry.js';
import { formatTable, ratingTableRows, RATING_TABLE_HEADER } from '../../../src/match/stats/rating-table.js';

const fit = fitBradleyTerry(
  [
    { player: 'kishi', opponent: 'sf-0', wins: 60, draws: 25, losses: 15 },
    { player: 'kishi', opponent: 'sf-1', wins: 30, draws: 30, losses: 40 },
    { player: 'winner', opponent: 'sf-0', wins: 10, draws: 0, losses: 0 },
  ],
  { anchors: { 'sf-0': 1000, 'sf-1': 1300 }, players: ['absent'] },
);

test('rows: sorted by rating, infinite and unknown values printable', () => {
  const rows = ratingTableRows(fit);
  expect(rows[0]).toEqual([...RATING_TABLE_HEADER]);
  expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual([
    ['1', 'winner', 'inf', 'inf', '[-inf, inf]'],
    ['2', 'sf-1', '1300.0', '-', '-'],
    ['3', 'kishi', '1223.4', '53.3', '[1170.1, 1276.7]'],
    ['4', 'sf-0', '1000.0', '-', '-'],
    ['5', 'absent', '?', 'inf', '[-inf, inf]'],
  ]);
  expect(rows[3]!.slice(5)).toEqual(['117.5', '200', '58.8%', '90/55/55', '']);
});

test('aligned text', () => {
  expect(formatTable(ratingTableRows(fit, 0)).split('\n').slice(0, 5)).toEqual([
    '#  player   elo   +-  interval      points  games   score  w/d/l     note',
    '-  ------  ----  ---  ------------  ------  -----  ------  --------  ------------------------------------------------',
    '1  winner   inf  inf  [-inf, inf]       10     10  100.0%  10/0/0    unbounded above: lost no points toward an anchor',
    '2  sf-1    1300    -  -                 55    100   55.0%  40/30/30  anchor',
    '3  kishi   1223   53  [1170, 1277]   117.5    200   58.8%  90/55/55',
  ]);
  expect(formatTable([])).toBe('');
});
