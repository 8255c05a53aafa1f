/** The test CSA server reproduces what shogi-server did in tests/fixtures/csa/. */
import { afterEach, describe, expect, it } from 'vitest';
import { CsaTestServer } from './server.js';
import type { TestServerOptions } from './server.js';
import { readTranscript } from '../../protocols/csa/replay.js';
import { LineClient } from './line-client.js';

let server: CsaTestServer | undefined;
const clients: LineClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await server?.stop();
  server = undefined;
});

async function setup(opts: TestServerOptions = {}): Promise<number> {
  server = new CsaTestServer({ offTurnDelayMs: 50, closeAfterGameMs: 100, ...opts });
  return server.start();
}

async function connect(port: number): Promise<LineClient> {
  const c = await LineClient.connect(port);
  clients.push(c);
  return c;
}

/** bob (black) and alice (white) in game `game`, both agreed and started. */
async function startedGame(port: number, game = 'csatest-300-10F'): Promise<[LineClient, LineClient]> {
  const bob = await connect(port);
  const alice = await connect(port);
  bob.send(`LOGIN bob ${game},pw-bob`);
  await bob.until((l) => l.startsWith('LOGIN:'));
  const [sa, sb] = await Promise.all([alice.loginAndSummary('alice', `${game},pw-alice`), bob.until((l) => l === 'END Game_Summary')]);
  expect(sa.find((l) => l.startsWith('Your_Turn'))).toBe('Your_Turn:-');
  expect(sb.find((l) => l.startsWith('Your_Turn'))).toBe('Your_Turn:+');
  bob.send('AGREE');
  alice.send('AGREE');
  await bob.until((l) => l.startsWith('START:'));
  await alice.until((l) => l.startsWith('START:'));
  return [bob, alice];
}

describe('CSA test server', () => {
  it('sends the Game_Summary shogi-server sends, line for line', async () => {
    const port = await setup();
    const [bob] = await startedGame(port);
    const real = readTranscript('transcript-direct-300-10F.txt')
      .filter((e) => e.who === 'bob' && e.dir === '<<')
      .map((e) => e.line);
    const summary = bob.lines.slice(bob.lines.indexOf('BEGIN Game_Summary'), bob.lines.indexOf('END Game_Summary') + 1);
    const strip = (ls: string[]): string[] => ls.map((l) => (l.startsWith('Game_ID:') ? l.replace(/\d{14}$/, '<stamp>') : l));
    expect(strip(summary)).toEqual(strip(real.slice(real.indexOf('BEGIN Game_Summary'), real.indexOf('END Game_Summary') + 1)));
    expect(bob.lines[0]).toBe('LOGIN:bob OK');
  });

  it('echoes moves with ,T to both, strips comments, answers blank lines, closes after the game', async () => {
    const port = await setup();
    const [bob, alice] = await startedGame(port);
    bob.send('');
    expect(await bob.next()).toBe('');
    bob.send("+7776FU,'* 30 -3334FU +2726FU");
    expect(await bob.next()).toBe('+7776FU,T0');
    expect(await alice.next()).toBe('+7776FU,T0');
    alice.send('-3334FU');
    expect(await alice.next()).toBe('-3334FU,T0');
    bob.send('%TORYO');
    expect(await bob.until((l) => l === '#LOSE')).toEqual(['-3334FU,T0', '%TORYO', '#RESIGN', '#LOSE']);
    expect(await alice.until((l) => l === '#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);
    await Promise.all([bob.waitClosed(), alice.waitClosed()]);
    const g = server!.finished[0]!;
    expect(g.moves).toEqual([
      { csa: '+7776FU', t: 0, comment: "'* 30 -3334FU +2726FU" },
      { csa: '-3334FU', t: 0 },
    ]);
    expect([g.reason, g.winner]).toEqual(['RESIGN', '-']);
  });

  it('an illegal move, %CHUDAN and a bad %KACHI lose for the sender', async () => {
    const port = await setup({ colours: 'first-black' });
    let [bob, alice] = await startedGame(port);
    bob.send('+5554FU');
    expect(await bob.until((l) => l.startsWith('#LOSE'))).toEqual(['#ILLEGAL_MOVE', '#LOSE']);
    expect(await alice.until((l) => l.startsWith('#WIN'))).toEqual(['#ILLEGAL_MOVE', '#WIN']);
    [bob, alice] = await startedGame(port);
    bob.send('+7776FU');
    await alice.next();
    alice.send('%CHUDAN');
    expect(await alice.until((l) => l === '#LOSE')).toEqual(['#ILLEGAL_MOVE', '#LOSE']);
    [bob, alice] = await startedGame(port);
    bob.send('%KACHI');
    expect(await bob.until((l) => l === '#LOSE')).toEqual(['%KACHI,T0', '%KACHI', '#ILLEGAL_MOVE', '#LOSE']);
    expect(server!.finished.map((g) => [g.reason, g.loser])).toEqual([
      ['ILLEGAL_MOVE', 'bob'],
      ['ILLEGAL_MOVE', 'alice'],
      ['ILLEGAL_MOVE', 'bob'],
    ]);
  });

  it('queues a move sent out of turn and applies it after the opponent moves', async () => {
    const port = await setup();
    const [bob, alice] = await startedGame(port);
    alice.send('-3334FU'); // out of turn
    bob.send('+7776FU');
    expect(await bob.until((l) => l.startsWith('-3334FU'))).toEqual(['+7776FU,T0', '-3334FU,T0']);
    expect(await alice.until((l) => l.startsWith('-3334FU'))).toEqual(['+7776FU,T0', '-3334FU,T0']);
  });

  it('time-up edge: a move at remaining+increment-1 s passes, silence past it is #TIME_UP', async () => {
    const port = await setup();
    // 1+1F in 1 s units: the mover must finish strictly before 2 s.
    const [bob, alice] = await startedGame(port, 'csatest-1-1F');
    await new Promise((r) => setTimeout(r, 1300));
    bob.send('+7776FU');
    expect(await bob.next()).toBe('+7776FU,T1'); // remaining 1 + 1 - 1 = 1
    // alice now has 1 + 1 = 2 s; she says nothing: flagged at 2 s.
    const t0 = Date.now();
    expect(await alice.until((l) => l === '#LOSE')).toEqual(['+7776FU,T1', '#TIME_UP', '#LOSE']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1500);
    expect(await bob.until((l) => l === '#WIN')).toEqual(['#TIME_UP', '#WIN']);
  });

  it('like shogi-server, a lazy clock flags a silent mover only at its periodic check', async () => {
    const port = await setup({ unitMs: 10, timeUpCheck: 'lazy', lazyCheckMs: 600 });
    const [bob] = await startedGame(port, 'csatest-3-2F'); // 50 ms to move
    const t0 = Date.now();
    expect(await bob.until((l) => l === '#LOSE')).toEqual(['#TIME_UP', '#LOSE']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
  });

  it('draws by sennichite on the fourth repetition and censors at Max_Moves', async () => {
    const port = await setup();
    const [bob, alice] = await startedGame(port);
    const cycle = ['+5958OU', '-5152OU', '+5859OU', '-5251OU'];
    for (let i = 0; i < 12; i++) {
      const m = cycle[i % 4]!;
      (m.startsWith('+') ? bob : alice).send(m);
      await bob.until((l) => l.startsWith(m));
    }
    expect(await bob.until((l) => l === '#DRAW')).toEqual(['#SENNICHITE', '#DRAW']);
    server!.finished.length = 0;
    await server!.stop();
    const port2 = await setup({ maxMoves: 2 });
    const [b2, a2] = await startedGame(port2);
    b2.send('+7776FU');
    await a2.next();
    a2.send('-3334FU');
    expect(await a2.until((l) => l === '#CENSORED')).toEqual(['-3334FU,T0', '#MAX_MOVES', '#CENSORED']);
  });

  it('a dropped player resigns: the opponent gets %TORYO #RESIGN #WIN', async () => {
    const port = await setup();
    const [bob, alice] = await startedGame(port);
    bob.destroy();
    expect(await alice.until((l) => l === '#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);
    expect(server!.finished[0]!.reason).toBe('DISCONNECT');
  });

  it('pairs floodgate games on the schedule, rated logins only', async () => {
    const port = await setup({ floodgateIntervalMs: 150 });
    const a = await connect(port);
    const b = await connect(port);
    const u = await connect(port);
    a.send('LOGIN ann floodgate-300-10F,trip-a');
    b.send('LOGIN ben floodgate-300-10F,trip-b');
    u.send('LOGIN ivan floodgate-300-10F');
    for (const c of [a, b, u]) await c.until((l) => l.startsWith('LOGIN:'));
    expect(server!.waiting().sort()).toEqual(['ann', 'ben', 'ivan']);
    await a.until((l) => l === 'END Game_Summary');
    await b.until((l) => l === 'END Game_Summary');
    expect(server!.waiting()).toEqual(['ivan']); // unrated: never paired ("Nobody found")
    await new Promise((r) => setTimeout(r, 400));
    expect(u.lines).toEqual(['LOGIN:ivan OK']);
  });

  it('handles the login edge cases of transcript-login-edgecases.txt', async () => {
    const port = await setup();
    const carol = await connect(port);
    carol.send('LOGIN carol csatest-300-10F,pw');
    expect(await carol.next()).toBe('LOGIN:carol OK');
    carol.send('LOGOUT');
    expect(await carol.next()).toBe('LOGOUT:completed');
    const dave1 = await connect(port);
    dave1.send('LOGIN dave csatest-600-10F,pw1');
    expect(await dave1.next()).toBe('LOGIN:dave OK');
    const dave2 = await connect(port);
    dave2.send('LOGIN dave csatest-600-10F,pw2');
    expect(await dave2.next()).toBe('LOGIN:incorrect');
    const bad = await connect(port);
    bad.send('LOGIN eve pw extra');
    expect(await bad.until((l) => l.startsWith('type'))).toEqual([
      'LOGIN:incorrect',
      "type 'LOGIN name password' or 'LOGIN name password x1'",
    ]);
    const frank = await connect(port);
    frank.send('LOGIN frank pw x1');
    frank.send('%%GAME floodgate-300-10F +');
    expect(await frank.until((l) => l.startsWith('##[ERROR]'))).toEqual([
      'LOGIN:frank OK',
      '##[LOGIN] +OK x1',
      '##[ERROR] You are not allowed to specify TEBAN + for the game floodgate-300-10F',
    ]);
  });

  it('keeps an x1 connection open after the game', async () => {
    const port = await setup();
    const a = await connect(port);
    const b = await connect(port);
    a.send('LOGIN xa pw x1');
    b.send('LOGIN xb pw x1');
    await a.until((l) => l === '##[LOGIN] +OK x1');
    await b.until((l) => l === '##[LOGIN] +OK x1');
    a.send('%%GAME csatest-300-10F *');
    b.send('%%GAME csatest-300-10F *');
    await a.until((l) => l === 'END Game_Summary');
    await b.until((l) => l === 'END Game_Summary');
    a.send('AGREE');
    b.send('AGREE');
    await a.until((l) => l.startsWith('START:'));
    a.send('%TORYO');
    await a.until((l) => l === '#LOSE');
    await new Promise((r) => setTimeout(r, 250));
    expect(a.closed).toBe(false);
    a.send('%%VERSION');
    expect(await a.until((l) => l === '##[VERSION] +OK')).toHaveLength(2);
  });
});
