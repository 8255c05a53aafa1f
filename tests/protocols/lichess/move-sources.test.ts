/**
 * The move sources asked before the engine: Polyglot book, online tablebase, chessdb, lichess cloud eval,
 * opening explorer, against local fakes that answer in the services' JSON shapes (OnlineMovesServer, and
 * the lichess test server for /api/cloud-eval).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import type { LichessConfig } from '../../../src/config/sections/lichess.js';
import { encodePolyglotBook, encodePolyglotMove } from '../../../src/books/polyglot-book.js';
import { ChessLine } from '../../../src/protocols/lichess/chess-line.js';
import { LichessClient } from '../../../src/protocols/lichess/client.js';
import { moveSourceFactory } from '../../../src/protocols/lichess/move-sources/create-move-sources.js';
import type { MoveSourceChain } from '../../../src/protocols/lichess/move-sources/move-source.js';
import { chessdbScoreToWdl } from '../../../src/protocols/lichess/move-sources/egtb.js';
import { LichessTestServer } from '../../../src/protocols/lichess/fake/server.js';
import { OnlineMovesServer } from '../../fakes/online-moves-server.js';
import type { VariantKey } from '../../../src/protocols/lichess/types.js';
import { TOKEN } from './helpers/harness.js';

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
/** K+R vs K, no castling: a tablebase position (white to move). */
const KRK = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';

let online: OnlineMovesServer;
let lichess: LichessTestServer;
let client: LichessClient;

beforeEach(async () => {
  online = new OnlineMovesServer();
  await online.start();
  lichess = new LichessTestServer({ bot: { username: 'KishiBot', token: TOKEN } });
  await lichess.start();
  client = new LichessClient({ baseUrl: lichess.url, token: TOKEN, retryForMs: 0 });
});
afterEach(async () => {
  await online.stop();
  await lichess.stop();
});

type Overrides = { [K in keyof LichessConfig]?: unknown };

function config(over: Record<string, unknown>): LichessConfig {
  const base = parseConfig('').unwrap().lichess as unknown as Record<string, unknown>;
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) {
      const av = out[k];
      out[k] = v && typeof v === 'object' && !Array.isArray(v) && av && typeof av === 'object' ? merge(av as Record<string, unknown>, v as Record<string, unknown>) : v;
    }
    return out;
  };
  return merge(base, over as Overrides) as unknown as LichessConfig;
}

function chain(over: Record<string, unknown>, random = () => 0): MoveSourceChain {
  const make = moveSourceFactory({ config: config(over), client, token: TOKEN, me: () => 'KishiBot', random, retryDelayMs: 1 });
  if (make === undefined) throw new Error('no source enabled');
  return make();
}

const line = (fen = 'startpos', moves: string[] = [], variant: VariantKey = 'standard'): ChessLine => {
  const l = ChessLine.create(variant, fen).unwrap();
  l.sync(moves).unwrap();
  return l;
};

const ask = (c: MoveSourceChain, l: ChessLine, timeLeftMs = 60_000) => c.suggest({ gameId: 'g1', line: l, timeLeftMs });

describe('the move-source chain', () => {
  it('is not built when every source is off', () => {
    expect(moveSourceFactory({ config: config({}), client, token: TOKEN, me: () => 'x' })).toBeUndefined();
  });

  it('plays Polyglot book moves up to maxDepth, from the books of the variant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-book-'));
    const path = join(dir, 'tiny.bin');
    writeFileSync(
      path,
      encodePolyglotBook([
        { key: 0x463b96181691fc9cn, move: encodePolyglotMove('e2e4'), weight: 10, learn: 0 },
        { key: 0x463b96181691fc9cn, move: encodePolyglotMove('d2d4'), weight: 5, learn: 0 },
        { key: 0x823c9b50fd114196n, move: encodePolyglotMove('c7c5'), weight: 1, learn: 0 },
      ]),
    );
    const c = chain({ polyglot: { enabled: true, book: { standard: [join(dir, 'missing.bin'), path] }, selection: 'best_move', maxDepth: 1 } });
    expect(await ask(c, line())).toEqual({ move: 'e2e4', source: 'opening book' });
    expect(await ask(c, line('startpos', ['e2e4']))).toEqual({ move: 'c7c5', source: 'opening book' });
    // maxDepth 1: our first move only (ply 0 and 1); ply 2 is out of the book.
    expect(await ask(c, line('startpos', ['e2e4', 'c7c5']))).toBeUndefined();
    // chess960 has no books configured.
    expect(await ask(c, line(START_FEN, [], 'chess960'))).toBeUndefined();
    expect(c.stats.answers).toEqual({ book: 2 });
  });

  it('chessdb: best (querypv, depth gate) and good (querybest), standard chess only', async () => {
    online.chessdb.set(`querypv ${START_FEN}`, { status: 'ok', score: 25, depth: 30, pv: ['e2e4', 'e7e5', 'g1f3'], pvSAN: ['e4', 'e5', 'Nf3'] });
    online.chessdb.set(`querybest ${START_FEN}`, { status: 'ok', move: 'd2d4' });
    const url = `${online.url}/cdb.php`;
    const best = chain({ onlineMoves: { chessdbBook: { enabled: true, url, moveQuality: 'best', minDepth: 20 } } });
    const s = await ask(best, line());
    expect(s?.move).toBe('e2e4');
    expect(s?.info).toMatchObject({ depth: 30, score: { cp: 25 }, pv: ['e2e4', 'e7e5', 'g1f3'] });
    const deep = chain({ onlineMoves: { chessdbBook: { enabled: true, url, moveQuality: 'best', minDepth: 31 } } });
    expect(await ask(deep, line())).toBeUndefined();
    const good = chain({ onlineMoves: { chessdbBook: { enabled: true, url, moveQuality: 'good' } } });
    expect((await ask(good, line()))?.move).toBe('d2d4');
    expect(await ask(good, line(START_FEN, [], 'chess960'))).toBeUndefined();
    expect(online.requests.map((r) => [r.query.action, r.query.json, r.authorization])).toEqual([
      ['querypv', '1', undefined],
      ['querypv', '1', undefined],
      ['querybest', '1', undefined],
    ]);
  });

  it('lichess cloud eval: best line, or a random good line within maxScoreDifferenceCp (scores from the mover)', async () => {
    lichess.cloudEvals.set(AFTER_E4, {
      depth: 40,
      knodes: 5000,
      pvs: [
        { moves: 'c7c5 g1f3', cp: 30 },
        { moves: 'e7e5 g1f3', cp: 35 },
        { moves: 'e7e6 d2d4', cp: 60 },
      ],
    });
    const best = chain({ onlineMoves: { lichessCloudAnalysis: { enabled: true, moveQuality: 'best', minDepth: 20 } } });
    const s = await ask(best, line('startpos', ['e2e4']));
    expect(s?.move).toBe('c7c5');
    expect(s?.info).toMatchObject({ depth: 40, nodes: 5_000_000, score: { cp: -30 }, pv: ['c7c5', 'g1f3'] });
    // good: black wants low white scores; within 10 cp of -30 (black's view) only c5 and e5 qualify.
    const good = chain({ onlineMoves: { lichessCloudAnalysis: { enabled: true, moveQuality: 'good', maxScoreDifferenceCp: 10 } } }, () => 0.99);
    expect((await ask(good, line('startpos', ['e2e4'])))?.move).toBe('e7e5');
    const shallow = chain({ onlineMoves: { lichessCloudAnalysis: { enabled: true, minDepth: 41 } } });
    expect(await ask(shallow, line('startpos', ['e2e4']))).toBeUndefined();
    // Not in the cloud: 404, no move.
    expect(await ask(best, line())).toBeUndefined();
    const asked = lichess.stats.requests.filter((r) => r.path.startsWith('/api/cloud-eval')).map((r) => new URL(r.path, 'http://x').searchParams.get('multiPv'));
    expect(asked).toEqual(['1', '5', '1', '1']);
  });

  it('opening explorer: masters by win rate, lichess by games played, player as ndjson; sent with the token', async () => {
    const moves = [
      { uci: 'e7e5', san: 'e5', averageRating: 2400, white: 45, draws: 40, black: 20 },
      { uci: 'c7c5', san: 'c5', averageRating: 2450, white: 30, draws: 30, black: 40 },
      { uci: 'a7a6', san: 'a6', averageRating: 2300, white: 0, draws: 0, black: 5 },
    ];
    for (const src of ['masters', 'lichess', 'player']) online.explorer.set(`${src} ${AFTER_E4}`, { white: 70, draws: 70, black: 65, moves, topGames: [] });
    const ex = (over: Record<string, unknown>) => chain({ onlineMoves: { lichessOpeningExplorer: { enabled: true, url: online.url, ...over } } });
    // Black's win rate: e5 0.38 (105 games), c5 0.55 (100 games), a6 1.0 but only 5 games (< minGames 10).
    expect((await ask(ex({ source: 'masters', sort: 'winrate' }), line('startpos', ['e2e4'])))?.move).toBe('c7c5');
    expect((await ask(ex({ source: 'lichess', sort: 'games_played' }), line('startpos', ['e2e4'])))?.move).toBe('e7e5');
    expect((await ask(ex({ source: 'player', sort: 'winrate', minGames: 1 }), line('startpos', ['e2e4'])))?.move).toBe('a7a6');
    expect(online.requests.map((r) => r.path)).toEqual(['/masters', '/lichess', '/player']);
    expect(online.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(online.requests[2]?.query).toMatchObject({ player: 'KishiBot', color: 'black', variant: 'standard', recentGames: '0' });
    expect(online.requests[1]?.query).toMatchObject({ topGames: '0', recentGames: '0', moves: '100' });
  });

  it('online tablebase (lichess): the best move, its result as a score, a draw offer on 0 and resignation on -2', async () => {
    online.tablebase.set(`standard ${KRK}`, {
      category: 'win',
      dtz: 31,
      dtm: 31,
      checkmate: false,
      stalemate: false,
      moves: [
        { uci: 'a1a4', san: 'Ra4', category: 'loss', dtz: -30, dtm: -30, zeroing: false },
        { uci: 'e1d2', san: 'Kd2', category: 'loss', dtz: -32, dtm: -32, zeroing: false },
      ],
    });
    const drawn = '8/8/8/4k3/8/8/8/4K3 w - - 0 1';
    online.tablebase.set(`standard ${drawn}`, { category: 'draw', moves: [{ uci: 'e1d2', san: 'Kd2', category: 'draw', dtz: 0, dtm: null }] });
    const lost = '8/8/8/4k3/8/8/8/r3K3 w - - 0 1';
    online.tablebase.set(`standard ${lost}`, { category: 'loss', moves: [{ uci: 'e1f2', san: 'Kf2', category: 'win', dtz: 20, dtm: 20 }] });
    const c = chain({
      onlineMoves: { onlineEgtb: { enabled: true, url: online.url } },
      drawOrResign: { resignEnabled: true, offerDrawEnabled: true },
    });
    const win = await ask(c, line(KRK));
    expect(win).toMatchObject({ move: 'a1a4', info: { score: { cp: 9900 } } });
    expect(win?.offerDraw).toBeUndefined();
    expect(await ask(c, line(drawn))).toMatchObject({ move: 'e1d2', offerDraw: true, info: { score: { cp: 0 } } });
    expect(await ask(c, line(lost))).toMatchObject({ move: 'e1f2', resign: true, info: { score: { cp: -9900 } } });
    // Castling rights or too many pieces: not asked.
    expect(await ask(c, line())).toBeUndefined();
    expect(online.requests.length).toBe(3);
  });

  it('online tablebase (chessdb): the score maps to win/draw/loss', async () => {
    expect([-25000, -20001, -1, 0, 1, 20000, 20001].map(chessdbScoreToWdl)).toEqual([-2, -2, -1, 0, 1, 1, 2]);
    online.chessdb.set(`querypv ${KRK}`, { status: 'ok', score: 29970, depth: 0, pv: ['a1a4'] });
    const c = chain({ onlineMoves: { onlineEgtb: { enabled: true, source: 'chessdb' }, chessdbBook: { url: `${online.url}/cdb.php` } } });
    expect(await ask(c, line(KRK))).toMatchObject({ move: 'a1a4', info: { score: { cp: 9900 } } });
  });

  it('retries a 5xx up to maxRetries, then gives up; honours minTimeS; ignores an illegal suggestion', async () => {
    online.chessdb.set(`querybest ${START_FEN}`, { status: 'ok', move: 'e2e4' });
    const url = `${online.url}/cdb.php`;
    const c = chain({ onlineMoves: { maxRetries: 2, chessdbBook: { enabled: true, url, minTimeS: 20 } } });
    online.fail(2);
    expect((await ask(c, line()))?.move).toBe('e2e4');
    expect(online.requests.length).toBe(3);
    online.fail(3);
    expect(await ask(c, line())).toBeUndefined();
    expect(online.requests.length).toBe(6);
    // Under 20 s on our clock: not asked at all.
    expect(await ask(c, line(), 19_999)).toBeUndefined();
    expect(online.requests.length).toBe(6);
    online.chessdb.set(`querybest ${AFTER_E4}`, { status: 'ok', move: 'e2e4' });
    expect(await ask(c, line('startpos', ['e2e4']))).toBeUndefined();
  });

  it('stops asking the opening sources after maxOutOfBookMoves misses and past maxDepth; the tablebase is still asked', async () => {
    const c = chain({
      onlineMoves: {
        maxOutOfBookMoves: 2,
        maxDepth: 2,
        chessdbBook: { enabled: true, url: `${online.url}/cdb.php` },
        onlineEgtb: { enabled: true, url: online.url },
      },
    });
    // maxDepth 2: plies 0..3 may ask the opening sources.
    expect(await ask(c, line('startpos', ['e2e4', 'e7e5', 'g1f3', 'b8c6']))).toBeUndefined();
    expect(online.requests.length).toBe(0);
    await ask(c, line());
    await ask(c, line('startpos', ['e2e4']));
    expect(c.stats.misses).toBe(2);
    await ask(c, line('startpos', ['e2e4', 'e7e5']));
    expect(online.requests.map((r) => r.path)).toEqual(['/cdb.php', '/cdb.php']);
    await ask(c, line(KRK));
    expect(online.requests.map((r) => r.path)).toEqual(['/cdb.php', '/cdb.php', '/standard']);
  });
});
