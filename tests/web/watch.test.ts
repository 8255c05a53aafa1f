/**
 * The watch view's data: games in progress and finished games read from the game logs of every
 * server under records.dir, our rating game after game, and the token rule beyond localhost.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { curveFile, firstEntry, promotedEntry } from '../../src/learning/alphazero/curve.js';
import type { GateMatchResult } from '../../src/learning/alphazero/gate.js';
import { GameWatcher } from '../../src/web/watch.js';
import { WebServer, isLoopback, watchRefusal } from '../../src/web/web-server.js';
import { CHESS_START_FEN, chessHeader } from '../records/fixtures.js';

const header = (over: Record<string, unknown>) => ({ ...chessHeader(), ...over });
const lines = (...objs: unknown[]): string => objs.map((o) => JSON.stringify(o)).join('\n') + '\n';
const START = CHESS_START_FEN;
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

function writeLogs(dir: string): void {
  mkdirSync(join(dir, 'lichess'), { recursive: true });
  mkdirSync(join(dir, 'csa'), { recursive: true });
  // A lichess game in progress: Kishi played e4 with a search, the opponent replied.
  writeFileSync(
    join(dir, 'lichess', 'live1.jsonl.part'),
    lines(
      header({ gameId: 'live1', url: 'https://lichess.org/live1' }),
      { type: 'move', ply: 0, side: 'first', move: 'e2e4', ours: true, position: START, clockMs: { first: 59000, second: 60000 }, search: { score: { cp: 30 }, depth: 9, nodes: 5000, nps: 100000, timeMs: 50, pv: ['e2e4', 'e7e5'] } },
      { type: 'move', ply: 1, side: 'second', move: 'e7e5', ours: false, position: AFTER_E4, clockMs: { first: 59000, second: 58000 } },
    ),
  );
  // Two finished rated lichess games (a win, then a loss) and a finished floodgate shogi draw.
  writeFileSync(join(dir, 'lichess', 'a.jsonl'), lines(header({ gameId: 'a', startedAt: '2026-01-01T01:00:00Z' }), { type: 'result', winner: 'first', status: 'mate', plies: 0, endedAt: 'x' }));
  writeFileSync(
    join(dir, 'lichess', 'b.jsonl'),
    lines(header({ gameId: 'b', startedAt: '2026-01-01T02:00:00Z', players: { first: { name: 'kishi', rating: 1510 }, second: { name: 'o' } } }), { type: 'result', winner: 'second', status: 'resign', plies: 0, endedAt: 'x' }),
  );
  writeFileSync(
    join(dir, 'csa', 'c.jsonl'),
    lines(header({ game: 'shogi', server: 'floodgate', gameId: 'c', ourSide: 'second', players: { first: { name: 'x' }, second: { name: 'kishi' } } }), { type: 'result', winner: null, status: 'sennichite', plies: 0, endedAt: 'x' }),
  );
  writeFileSync(join(dir, 'csa', 'broken.jsonl'), 'not a log\n');
}

/** An AlphaZero state directory with the curve the loop writes after two promotions (src/learning/alphazero/curve.ts). */
function alphazeroDir(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  const gate = (elo: number, half: number, games: number): GateMatchResult => ({ elo, eloLow: elo - half, eloHigh: elo + half, games, gamesPlanned: games, score: 0.5, wins: 0, draws: 0, losses: 0 });
  const e0 = firstEntry({ generation: 0, label: 'gen-0 (bootstrap)', games: 0, steps: 0 });
  const e1 = promotedEntry(e0, gate(120, 60, 40), { generation: 1, label: 'gen-1', games: 200, steps: 500 });
  const e2 = promotedEntry(e1, gate(80, 80, 40), { generation: 3, label: 'gen-3', games: 600, steps: 1500 });
  writeFileSync(join(dir, 'curve-games.json'), JSON.stringify(curveFile([e0, e1, e2], 'games', 'chess')));
  return dir;
}

describe('game watcher', () => {
  it('reads the curves of the AlphaZero state directories, one series each, and says why one has none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-watch-az-'));
    const az = alphazeroDir(dir, 'az-chess');
    mkdirSync(join(dir, 'az-broken'));
    writeFileSync(join(dir, 'az-broken', 'curve-games.json'), '{"kind": "kishi-curve", "points": [');
    const s = new GameWatcher(join(dir, 'records'), { alphazeroDirs: [az, join(dir, 'az-new'), join(dir, 'az-broken')] }).snapshot();
    expect(s.alphazero.map((p) => [p.series, p.x, Math.round(p.y), Math.round(p.low), Math.round(p.high)])).toEqual([
      ['az-chess', 0, 0, 0, 0],
      ['az-chess', 200, 120, 60, 180],
      // Intervals add in quadrature along the chain: sqrt(60^2 + 80^2) = 100.
      ['az-chess', 600, 200, 100, 300],
    ]);
    expect(s.alphazeroNotes).toHaveLength(2);
    expect(s.alphazeroNotes[0]).toMatch(/^az-new: no curve yet/);
    expect(s.alphazeroNotes[1]).toMatch(/^az-broken: /);
    expect(s.servers).toEqual([]);
  });


  it('summarises live and finished games from the logs of every server', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-watch-'));
    writeLogs(dir);
    const history = join(dir, 'chess-linear.json.tdleaf-history.jsonl');
    writeFileSync(history, lines({ game: 'lichess/a', largestChange: 12.5, changed: 40 }, { game: 'lichess/b', largestChange: 3, changed: 7 }) + '{"game":"torn');
    const s = new GameWatcher(dir, { tdleafHistories: [{ game: 'chess', file: history }, { game: 'shogi', file: join(dir, 'missing') }] }).snapshot();
    expect(s.tdleaf).toEqual([
      { game: 'chess', update: 1, largestChange: 12.5, changed: 40 },
      { game: 'chess', update: 2, largestChange: 3, changed: 7 },
    ]);
    expect(s.live).toHaveLength(1);
    const live = s.live[0]!;
    expect(live).toMatchObject({ server: 'lichess', gameId: 'live1', plies: 2, lastMove: 'e7e5', clockMs: { first: 59000, second: 58000 }, search: { depth: 9, pv: ['e2e4', 'e7e5'] }, searchPosition: START });
    // The server's time goes with the snapshot, so the page runs the side to move's clock from updatedMs.
    expect(s.nowMs).toBeGreaterThanOrEqual(live.updatedMs);
    expect(live.position).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    expect(s.finished.map((g) => g.gameId).sort()).toEqual(['a', 'b', 'c']);
    expect(s.tally).toEqual({ lichess: { wins: 1, draws: 0, losses: 1 }, floodgate: { wins: 0, draws: 1, losses: 0 } });
    expect(s.ratings.map((r) => [r.server, r.game, r.rating])).toEqual([
      ['lichess', 1, 1500],
      ['lichess', 2, 1510],
    ]);
  });
});

describe('watch view access', () => {
  const req = (headers: Record<string, string> = {}) => ({ headers }) as unknown as IncomingMessage;
  it('is open on this machine, needs the token beyond it', () => {
    expect(isLoopback('127.0.0.1') && isLoopback('localhost') && isLoopback('::1')).toBe(true);
    expect(isLoopback('0.0.0.0') || isLoopback('192.168.1.2')).toBe(false);
    const u = (q = '') => new URL(`http://h/api/watch${q}`);
    expect(watchRefusal('127.0.0.1', undefined, req(), u())).toBeUndefined();
    expect(watchRefusal('0.0.0.0', undefined, req(), u())).toBe('the watch view is served beyond this machine only with a token: set KISHI_WEB_TOKEN');
    expect(watchRefusal('0.0.0.0', 's3cret', req(), u())).toBe('wrong or missing watch token');
    expect(watchRefusal('0.0.0.0', 's3cret', req(), u('?token=nope'))).toBe('wrong or missing watch token');
    expect(watchRefusal('0.0.0.0', 's3cret', req(), u('?token=s3cret'))).toBeUndefined();
    expect(watchRefusal('0.0.0.0', 's3cret', req({ authorization: 'Bearer s3cret' }), u())).toBeUndefined();
  });
});

describe('watch endpoints', () => {
  let server: WebServer;
  let url: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-watch-http-'));
    writeLogs(dir);
    const config = parseConfig('web: {port: 0}').unwrap();
    const az = alphazeroDir(dir, 'az-chess');
    server = new WebServer({ config: config.web, recordsDir: dir, policy: config.lichess.drawOrResign, lease: async () => { throw new Error('no games here'); }, say: () => {}, alphazeroDirs: [az] });
    void server.start();
    while (server.url() === undefined) await new Promise((r) => setTimeout(r, 20));
    url = server.url()!;
  });
  afterAll(() => server.stop(false));

  it('serves the view, the snapshot and the rating chart', async () => {
    expect(await (await fetch(`${url}watch`)).text()).toContain('<script type="module" src="/watch.js">');
    const snap = (await (await fetch(`${url}api/watch`)).json()) as { live: { gameId: string }[] };
    expect(snap.live.map((g) => g.gameId)).toEqual(['live1']);
    const svg = await fetch(`${url}api/watch/ratings.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await svg.text()).toMatch(/^<svg[\s\S]*rating/);
    expect(await (await fetch(`${url}api/watch/tdleaf.svg`)).text()).toContain('no TD-Leaf updates yet');
    const az = await (await fetch(`${url}api/watch/alphazero.svg`)).text();
    expect(az).toMatch(/^<svg[\s\S]*AlphaZero loop: promoted nets/);
    expect(az).toContain('az-chess');
  });
});
