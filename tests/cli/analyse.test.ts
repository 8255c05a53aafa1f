import { describe, expect, it, vi } from 'vitest';
import { analyse, analysePosition, formatScore, MultiPvCollector } from '../../src/cli/analyse.js';
import type { SearchInfo } from '../../src/player/player.js';
import { Result } from '../../src/core/result.js';
import { FakePlayer } from '../fakes/player.js';

const info = (depth: number, multipv: number, cp: number, pv: string[]): SearchInfo => ({ depth, multipv, score: { cp }, nodes: 1, nps: 1, timeMs: 1, pv });

describe('kishi analyse', () => {
  it('writes scores as an analysis pane does', () => {
    expect(formatScore({ cp: 35 })).toBe('+0.35');
    expect(formatScore({ cp: -120 })).toBe('-1.20');
    expect(formatScore({ cp: 0 })).toBe('+0.00');
    expect(formatScore({ mate: 5 })).toBe('#3');
    expect(formatScore({ mate: -4 })).toBe('#-2');
  });

  it('completes a depth when its k lines arrived, best first', () => {
    const c = new MultiPvCollector(2);
    expect(c.add(info(1, 1, 10, ['e2e4']))).toBeUndefined();
    expect(c.add(info(1, 2, 5, ['d2d4']))!.map((l) => l.pv[0])).toEqual(['e2e4', 'd2d4']);
    c.add(info(2, 2, 3, ['e2e4']));
    expect(c.complete().map((l) => l.depth)).toEqual([1, 1]);
    c.add(info(2, 1, 8, ['d2d4']));
    expect(c.complete().map((l) => l.pv[0])).toEqual(['d2d4', 'e2e4']);
  });

  it('names as bestmove line 1 of the last complete depth, not a move of an unfinished depth (--movetime)', async () => {
    // Depth 3 completes with Nc3 best; the clock stops depth 4 after its first line (Bb5), which the
    // engine answers with: the printed lines end at depth 3, so the answer must be Nc3 with its line.
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    const infos = [info(3, 1, 20, ['b1c3', 'g8f6']), info(3, 2, 15, ['f1b5', 'g8f6']), info(3, 3, 10, ['f1c4', 'f8c5']), info(4, 1, 25, ['f1b5', 'c6d4'])];
    for (const json of [false, true]) {
      const out: string[] = [];
      const player = new FakePlayer({ answer: () => ({ move: 'f1b5', ponder: 'c6d4', info: infos[3]! }), infos });
      const code = await analyse(fen, { game: 'chess', multipv: 3, movetime: 1000, json }, (l) => out.push(l), () => Result.ok(player));
      expect(code).toBe(0);
      if (json) expect((JSON.parse(out.join('\n')) as { bestmove: string }).bestmove).toBe('b1c3');
      else {
        expect(out.filter((l) => l.startsWith('depth '))).toHaveLength(1);
        expect(out).toContain(' 1.   +0.20  Nc3 Nf6');
        expect(out.at(-1)).toBe('bestmove b1c3 ponder g8f6');
      }
    }
  });

  it('says an SFEN given without -g shogi is a shogi position (and a FEN with -g shogi a chess one)', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
    try {
      const sfen = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
      expect(await analyse(sfen, { game: 'chess', multipv: 1, depth: 1 }, () => {})).toBe(2);
      expect(err.at(-1)).toMatch(/^kishi analyse: invalid FEN .*: bad piece placement field .* \(this is a shogi position, an SFEN: add -g shogi\)\n$/);
      expect(await analyse('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', { game: 'shogi', multipv: 1, depth: 1 }, () => {})).toBe(2);
      expect(err.at(-1)).toMatch(/\(this is a chess position, a FEN: add -g chess\)\n$/);
      // A bad move of a good position is about the move, not the game.
      expect(await analyse('startpos', { game: 'chess', multipv: 1, depth: 1, moves: 'e2e5' }, () => {})).toBe(2);
      expect(err.at(-1)).not.toContain('this is a');
    } finally {
      spy.mockRestore();
    }
  });

  it('takes the deepest lines when fewer legal moves than k exist', () => {
    const c = new MultiPvCollector(3);
    c.add(info(1, 1, 10, ['e1e2']));
    c.add(info(2, 1, 12, ['e1d1']));
    expect(c.complete().map((l) => l.pv[0])).toEqual(['e1d1']);
  });

  it('checks the position and moves with the rules, naming the bad move', () => {
    const bad = analysePosition('chess', 'startpos', ['e2e4', 'e7e9']);
    expect(bad.isErr && bad.error.message).toMatch(/move e7e9/);
    const illegal = analysePosition('shogi', 'startpos', ['7g7f', '7g7f']);
    expect(illegal.isErr && illegal.error.message).toMatch(/move 7g7f/);
    expect(analysePosition('chess', 'not a fen', []).isErr).toBe(true);
    const ok = analysePosition('chess', 'startpos', ['e2e4']);
    expect(ok.isOk && ok.value.notate(['e7e5', 'g1f3', 'b8c6'])).toBe('e5 Nf3 Nc6');
    const shogi = analysePosition('shogi', 'startpos', []);
    expect(shogi.isOk && shogi.value.notate(['7g7f', '3c3d'])).toBe('P-76 P-34');
  });

  it('prints k lines per depth and plays line 1 (chess and shogi)', async () => {
    for (const game of ['chess', 'shogi'] as const) {
      const out: string[] = [];
      const code = await analyse('startpos', { game, multipv: 2, depth: 4, threads: 1, hash: 8 }, (l) => out.push(l));
      expect(code).toBe(0);
      expect(out.filter((l) => l.startsWith('depth ')).length).toBeGreaterThanOrEqual(3);
      const last = out.lastIndexOf(out.filter((l) => l.startsWith('depth 4 '))[0]!);
      expect(out[last + 1]).toMatch(/^ 1\. +[+-]\d+\.\d\d {2}\S/);
      expect(out[last + 2]).toMatch(/^ 2\. /);
      expect(out.at(-1)).toMatch(/^bestmove \S+/);
    }
    const json: string[] = [];
    await analyse('startpos', { game: 'chess', multipv: 2, depth: 3, threads: 1, hash: 8, json: true }, (l) => json.push(l));
    const parsed = JSON.parse(json.join('\n')) as { bestmove: string; lines: { multipv: number; pv: string[] }[] };
    expect(parsed.lines.map((l) => l.multipv)).toEqual([1, 2]);
    expect(parsed.bestmove).toBe(parsed.lines[0]!.pv[0]);
  }, 60_000);
});
