/**
 * Test suites at fixed node budgets (deterministic): Win At Chess and tsume problems.
 */
import { readFileSync } from 'node:fs';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import { matePlies } from '../../../src/search/alphabeta/score.js';
import { chessBoard, searcher, shogiBoard } from './helpers.js';

const WAC_NODES = 40_000;
const TSUME_NODES = 20_000;
/** Lets vitest's worker answer its RPC between long synchronous stretches. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('test suites at fixed node budgets', () => {
  it(`solves at least 80% of the first 100 WAC positions at ${WAC_NODES} nodes`, async () => {
    const lines = readFileSync(new URL('../../../data/suites/wac300.epd', import.meta.url), 'utf8').split('\n').filter(Boolean).slice(0, 100);
    let solved = 0;
    const s = searcher('tournament', {}, 16);
    for (const line of lines) {
      await breathe();
      const [, fen, ops] = /^(\S+ \S+ \S+ \S+) (.*)$/.exec(line)!;
      const bm = /bm ([^;]+);/.exec(ops!)![1]!.trim().split(/\s+/);
      const pos = Chess.fromSetup(parseFen(`${fen} 0 1`).unwrap()).unwrap();
      const best = bm.map((san) => makeUci(parseSan(pos, san)!));
      s.tt.clear();
      s.clearHeuristics();
      const b = chessBoard(`${fen} 0 1`);
      const r = s.search(b, { nodes: WAC_NODES });
      if (best.includes(b.moveToText(r.bestMove))) solved++;
    }
    expect(solved).toBeGreaterThanOrEqual(80); // 89 today
  });

  it(`finds the mate in at most 3 plies in at least 95% of the first 200 tsume problems at ${TSUME_NODES} nodes`, async () => {
    const lines = readFileSync(new URL('../../../data/suites/tsume_mate-3-ply.sfen', import.meta.url), 'utf8').split('\n').filter(Boolean).slice(0, 200);
    let solved = 0;
    const s = searcher('tournament', {}, 8);
    for (const sfen of lines) {
      await breathe();
      s.tt.clear();
      s.clearHeuristics();
      const r = s.search(shogiBoard(sfen), { nodes: TSUME_NODES });
      const mp = matePlies(r.score);
      if (mp > 0 && mp <= 3) solved++;
    }
    expect(solved).toBeGreaterThanOrEqual(190); // 200 today
  });
});
