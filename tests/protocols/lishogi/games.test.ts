/**
 * Full shogi games on the local server's lishogi profile: Kishi against itself (two bot accounts) and
 * Kishi against a USI engine bridged to a second account, both colours, byoyomi and Fischer clocks, with
 * faults injected (stream stalls and drops, 429s, 5xx, reconnects). Every game must end by the rules or a
 * resignation, never on time, with no move refused by the server, and every message in lishogi's shapes.
 * Small searches (short clocks) keep the games quick on busy cores; the server ends a game as a draw after
 * 30 to 80 plies (a test shortcut) so that equal engines finish in time.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShogiGameRec } from '../../../src/protocols/lishogi/fake/lishogi-server.js';
import type { LishogiHarness } from './helpers/harness.js';
import { startLishogi } from './helpers/harness.js';

const FAIRY = '/usr/games/fairy-stockfish';
const A = { username: 'KishiA', token: ['lip', 'AliceTokenDoNotLeak01'].join('_') };
const B = { username: 'KishiB', token: ['lip', 'BobTokenDoNotLeak0002'].join('_') };

let h: LishogiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** What every finished game must show. */
function expectCleanGame(h: LishogiHarness, g: ShogiGameRec): void {
  expect(g.status).not.toBe('outoftime');
  expect(g.status).not.toBe('aborted');
  expect(g.refused).toEqual([]);
  expect(['mate', 'resign', 'draw', 'repetition', 'perpetualCheck', 'stalemate']).toContain(g.status);
  // Never past the main time and the current period: the clock after each move is never flagged.
  for (const m of g.log) if (m.clockAfterMs >= 0) expect(m.clockAfterMs).toBeGreaterThan(0);
  expect(h.schemas.failures).toEqual([]);
}

const finishedBy = async (h: LishogiHarness, id: string): Promise<void> => {
  await h.server.waitFor(() => [...h.bots.values()].every((b) => b.finished.some((e) => e.gameId === id)), 20_000);
  for (const b of h.bots.values()) {
    const end = b.finished.find((e) => e.gameId === id);
    expect(end?.status).not.toBe('disconnected');
  }
};

describe('Kishi against itself on lishogi', () => {
  it('byoyomi clock (2 s + 2 s byoyomi): KishiA sente, with 429s, a stalled and a dropped game stream, a dropped event stream', async () => {
    // A stream stalled in byoyomi loses the game whatever the client does when the watchdog needs longer than
    // the period; the stall comes while main time is left, the drop (seen at once) later. (With a 1 s period
    // the game was lost on time now and then under the load of this machine: see the helper's notes.)
    h = await startLishogi({
      bots: [
        { ...A, engine: { kind: 'kishi' } },
        { ...B, engine: { kind: 'kishi' } },
      ],
      server: { drawAfterPlies: 40 },
      configYaml: '  challenge:\n    speeds: [ultraBullet, bullet]\n',
    });
    const id = h.server.challenge({ from: 'KishiB', to: 'KishiA', color: 'gote', clock: { limitS: 2, incrementS: 0, byoyomiS: 2, periods: 1 } });
    h.server.failRequests({ method: 'POST', path: new RegExp(`/api/bot/game/${id}/move/`) }, '429json', 2);
    // Stalled on its own turn as its clock starts: the watchdog reconnects within the main time.
    h.server.stallGameStreamAt(id, 2, 'KishiA');
    h.server.dropGameStreamAt(id, 15, 'KishiB');
    h.server.failRequests({ method: 'GET', path: new RegExp(`/api/bot/game/stream/${id}`) }, '429json', 1, 1);
    setTimeout(() => h?.server.dropEventStream('KishiA'), 1500);
    const g = await h.server.waitForEnd(id, 120_000);
    expectCleanGame(h, g);
    expect(g.players[0].username).toBe('KishiA');
    expect(g.log.length).toBeGreaterThan(10);
    // Both sides reached byoyomi and kept within it.
    expect(g.log.some((m) => m.spentPeriods > 0 || m.clockAfterMs === 2000)).toBe(true);
    await finishedBy(h, id);
    expect(h.server.stats.faultsServed).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('Fischer clock (3 s + 1 s): KishiB sente, KishiA pondering, with 502s, split chunks and a stalled stream', async () => {
    h = await startLishogi({
      bots: [
        { ...A, engine: { kind: 'kishi' }, ponder: true },
        { ...B, engine: { kind: 'kishi' } },
      ],
      server: { drawAfterPlies: 50 },
    });
    h.server.setChunkMode('split');
    const id = h.server.challenge({ from: 'KishiA', to: 'KishiB', color: 'gote', clock: { limitS: 3, incrementS: 1, byoyomiS: 0, periods: 0 } });
    h.server.failRequests({ method: 'POST', path: new RegExp(`/api/bot/game/${id}/move/`) }, '502', 2);
    h.server.stallGameStreamAt(id, 12);
    const g = await h.server.waitForEnd(id, 120_000);
    expectCleanGame(h, g);
    expect(g.players[0].username).toBe('KishiB');
    await finishedBy(h, id);
  }, 180_000);
});

describe('Kishi against itself with lishogi\'s own 750 ms bot move hold', () => {
  it('the shortest byoyomi accepted by default (0 + 2 s): every move within its period', async () => {
    h = await startLishogi({
      bots: [
        { ...A, engine: { kind: 'kishi' } },
        { ...B, engine: { kind: 'kishi' } },
      ],
      server: { drawAfterPlies: 30, botMoveDelayMs: 750 },
    });
    const id = h.server.challenge({ from: 'KishiA', to: 'KishiB', color: 'random', clock: { limitS: 0, incrementS: 0, byoyomiS: 2, periods: 1 } });
    h.server.failRequests({ method: 'POST', path: new RegExp(`/api/bot/game/${id}/move/`) }, '429json', 1);
    const g = await h.server.waitForEnd(id, 120_000);
    expectCleanGame(h, g);
    expect(g.moves.length).toBeGreaterThanOrEqual(20);
    await finishedBy(h, id);
  }, 150_000);
});

describe.skipIf(!existsSync(FAIRY))('Kishi against a USI engine bridged to a second lishogi account', () => {
  it('byoyomi (0 + 1 s byoyomi, 2 periods): Kishi gote; Fischer (2 s + 1 s): Kishi sente', async () => {
    h = await startLishogi({
      bots: [
        { ...A, engine: { kind: 'kishi' } },
        // The engine searches a fixed 20000 nodes a move (quick on busy cores); Kishi plans from the clock.
        { username: 'FairyBridge', token: ['lip', 'FairyTokenDoNotLeak03'].join('_'), engine: { kind: 'usi', spec: `usi:${FAIRY}` }, nodes: 20_000 },
      ],
      server: { drawAfterPlies: 80 },
      configYaml: '  challenge:\n    speeds: [ultraBullet, bullet]\n    minByoyomiS: 1\n',
    });
    const byo = h.server.challenge({ from: 'FairyBridge', to: 'KishiA', color: 'sente', clock: { limitS: 0, incrementS: 0, byoyomiS: 1, periods: 2 } });
    h.server.failRequests({ method: 'POST', path: new RegExp(`/api/bot/game/${byo}/move/`) }, '429json', 1);
    h.server.dropGameStreamAt(byo, 6, 'KishiA');
    const g1 = await h.server.waitForEnd(byo, 150_000);
    expectCleanGame(h, g1);
    expect(g1.players[1].username).toBe('KishiA');
    await finishedBy(h, byo);
    const fischer = h.server.challenge({ from: 'KishiA', to: 'FairyBridge', color: 'sente', clock: { limitS: 2, incrementS: 1, byoyomiS: 0, periods: 0 } });
    h.server.stallGameStreamAt(fischer, 9, 'KishiA');
    const g2 = await h.server.waitForEnd(fischer, 150_000);
    expectCleanGame(h, g2);
    expect(g2.players[0].username).toBe('KishiA');
    await finishedBy(h, fischer);
  }, 320_000);
});
