/**
 * Short real matches through the match runner: Stockfish against itself (chess and Chess960, nodes
 * limited) and fairy-stockfish against itself (shogi); the PGN/CSA records read back with
 * chessops/shogiops and replay to the recorded final positions. Skipped where the Debian engines
 * are not installed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { normalizedCsaLines, parseCsaHeader, parseCsaMovesOrDrops } from 'shogiops/notation/csa';
import { makeSfen } from 'shogiops/sfen';
import { expect, it } from 'vitest';
import type { EngineSpec } from '../../src/engines/engine-spec.js';
import { runMatch } from '../../src/match/match-runner.js';
import { loadOpenings } from '../../src/books/openings.js';
import { FAIRY, STOCKFISH, entry, haveEngine, matchConfig, nodesTc, tempDir } from './helpers.js';
import { describeIf, engineMissing } from '../setup/skip.js';

const spec = (name: string, command: string, options: Record<string, string> = {}): EngineSpec => ({ name, command, args: [], options, time: {}, kishi: false });

/** Replays every game of a PGN file with chessops; returns [plies, final FEN] per game. */
function replayPgn(text: string): [number, string][] {
  return parsePgn(text).map((g) => {
    const pos = startingPosition(g.headers).unwrap();
    let plies = 0;
    for (const node of g.moves.mainline()) {
      const move = parseSan(pos, node.san);
      if (move === undefined) throw new Error(`unreadable SAN ${node.san}`);
      pos.play(move);
      plies++;
    }
    return [plies, makeFen(pos.toSetup())];
  });
}

describeIf(haveEngine(STOCKFISH), engineMissing(STOCKFISH))('Stockfish vs Stockfish', () => {
  it('plays a short nodes-limited match; the PGN reads back with chessops', async () => {
    const out = tempDir('sf');
    const m = await runMatch(
      matchConfig({
        engines: [entry(spec('sf-a', STOCKFISH, { Hash: '8' }), nodesTc(1500)), entry(spec('sf-b', STOCKFISH, { Hash: '8' }), nodesTc(1500))],
        games: 4,
        concurrency: 2,
        openings: [
          { start: 'startpos', moves: ['e2e4', 'e7e5'], source: 'test:1' },
          { start: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', moves: [], source: 'test:2' },
        ],
        adjudication: { maxMoves: 40, resign: { moveCount: 3, score: 1000, twoSided: true } },
        outDir: out,
      }),
    );
    expect(m.gamesPlayed).toBe(4);
    const r = m.results;
    expect(r.wdl.wins + r.wdl.draws + r.wdl.losses).toBe(4);
    expect(r.pentanomial.reduce((a, b) => a + b, 0)).toBe(2);
    expect(Object.keys(r.forfeits)).toEqual([]);
    const summaries = m.games;
    expect(summaries.map((g) => g.round)).toEqual(['1.1', '1.2', '2.1', '2.2']);
    expect(summaries.map((g) => [g.first, g.second])).toEqual([
      ['sf-a', 'sf-b'],
      ['sf-b', 'sf-a'],
      ['sf-a', 'sf-b'],
      ['sf-b', 'sf-a'],
    ]);
    const games = replayPgn(readFileSync(join(out, 'games.pgn'), 'utf8'));
    expect(games).toEqual(summaries.map((g) => [g.plies, g.final]));
    for (const g of summaries) expect(['checkmate', 'max-moves', 'adjudication-resign', 'threefold-repetition', 'stalemate', 'insufficient-material', 'fifty-moves']).toContain(g.reason);
  });

  it('plays Chess960 with UCI_Chess960; the PGN carries the start FEN and Variant', async () => {
    const out = tempDir('sf960');
    const m = await runMatch(
      matchConfig({
        variant: 'chess960',
        engines: [entry(spec('sf-a', STOCKFISH), nodesTc(1000)), entry(spec('sf-b', STOCKFISH), nodesTc(1000))],
        games: 2,
        concurrency: 2,
        openings: [{ start: 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', moves: [], source: 'frc' }],
        adjudication: { maxMoves: 30 },
        outDir: out,
      }),
    );
    expect(m.gamesPlayed).toBe(2);
    expect(Object.keys(m.results.forfeits)).toEqual([]);
    const text = readFileSync(join(out, 'games.pgn'), 'utf8');
    expect(text).toContain('[Variant "Chess960"]');
    // chessops writes X-FEN castling (KQkq for the outermost rooks), which reads back the same.
    expect(text).toContain('[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"]');
    expect(replayPgn(text)).toEqual(m.games.map((g) => [g.plies, g.final]));
  });
});

describeIf(haveEngine(FAIRY), engineMissing(FAIRY))('fairy-stockfish vs fairy-stockfish (shogi)', () => {
  it('plays from taya36 openings; the CSA records read back with shogiops', async () => {
    const out = tempDir('fairy');
    const openings = loadOpenings('shogi', 'standard', 'data/openings/taya36.sfen');
    expect(openings.isOk).toBe(true);
    const m = await runMatch(
      matchConfig({
        game: 'shogi',
        engines: [entry(spec('fairy-a', FAIRY), nodesTc(3000)), entry(spec('fairy-b', FAIRY), nodesTc(3000))],
        games: 2,
        concurrency: 2,
        openings: openings.unwrap(),
        openingOrder: 'random',
        seed: 7,
        adjudication: { maxMoves: 60 },
        outDir: out,
      }),
    );
    expect(m.gamesPlayed).toBe(2);
    expect(Object.keys(m.results.forfeits)).toEqual([]);
    expect(m.games[0]!.opening).toBe(m.games[1]!.opening);
    for (const g of m.games) {
      const text = readFileSync(join(out, g.record!), 'utf8');
      const start = parseCsaHeader(text).unwrap();
      const lines = normalizedCsaLines(text).filter((l) => /^[+-]\d{4}[A-Z]{2}$/.test(l));
      const moves = parseCsaMovesOrDrops(start, lines);
      expect(moves.length).toBe(g.plies);
      const pos = start.clone();
      for (const md of moves) pos.play(md);
      expect(text).toMatch(/^'\*\* -?\d+ /m);
      // Board, side to move and hands agree (the CSA header carries no move number).
      expect(makeSfen(pos).split(' ').slice(0, 3)).toEqual(g.final.split(' ').slice(0, 3));
    }
  });
});
