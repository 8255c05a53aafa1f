/** Faults: a connection dropped mid-game, a server gone silent, garbage lines, an unreachable server. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGameLog } from '../../../src/records/game-log.js';
import { CsaTestServer } from '../../fakes/csa-server/server.js';
import { RandomMover } from '../../fakes/player.js';
import { startInOrder, testBot } from './harness.js';

let server: CsaTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function setup(): Promise<number> {
  server = new CsaTestServer({ unitMs: 10, maxMoves: 16, closeAfterGameMs: 50, colours: 'first-black' });
  return server.start();
}

const fast = { keepAliveMs: 150, minBlankGapMs: 100, replyTimeoutMs: 300 };

describe('CSA faults', () => {
  it('a connection dropped mid-game: clear log, record kept, logs in again for the next game', async () => {
    const port = await setup();
    server!.inject({ kind: 'drop', player: 'alice', afterPlies: 4 });
    // One game asked for: the dropped one does not count, so alice plays a second.
    const a = testBot(port, 'alice', async () => new RandomMover(1), fast, { maxGames: 1 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), fast, { maxGames: 2 });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.finished.map((g) => [g.reason, g.loser])).toEqual([
      ['DISCONNECT', 'alice'],
      ['MAX_MOVES', undefined],
    ]);
    expect(server!.logins.filter((n) => n === 'alice')).toHaveLength(2);
    const first = server!.finished[0]!.id;
    expect(a.log.notable().find((l) => l.startsWith('warn connection lost'))).toMatch(
      new RegExp(`^warn connection lost during game ${first.replace(/\+/g, '\\+')} after \\d+ moves \\((eof|error: .+)\\)$`),
    );
    const records = readdirSync(join(a.dir, 'csa')).filter((f) => f.endsWith('.csa'));
    expect(records).toHaveLength(2);
    // Our record of the dropped game ends as shogi-server words it: `abnormal`.
    expect(readFileSync(join(a.dir, 'csa', `${first}.csa`), 'utf8')).toContain("\n%CHUDAN\n'summary:abnormal:alice unknown:bob unknown\n");
    expect(readFileSync(join(b.dir, 'csa', `${first}.csa`), 'utf8')).toContain("\n'summary:toryo:alice lose:bob win\n");
    const results = server!.finished.map((g) => readGameLog(join(a.dir, 'csa', `${g.id}.jsonl`)).unwrap().result?.status);
    expect(results).toEqual(['aborted', 'max_moves']);
    // bob was told alice resigned.
    expect(b.log.notable().some((l) => l.startsWith(`info game ${first} over: WIN by RESIGN after `))).toBe(true);
  });

  it('a server that goes silent: the keep-alive goes unanswered, the client reconnects', async () => {
    const port = await setup();
    server!.inject({ kind: 'silent', player: 'alice', afterPlies: 3 });
    const a = testBot(port, 'alice', async () => new RandomMover(1), fast, { maxGames: 1 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), fast, { maxGames: 2 });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.finished.map((g) => g.reason)).toEqual(['DISCONNECT', 'MAX_MOVES']);
    const first = server!.finished[0]!.id;
    expect(a.log.notable().find((l) => l.startsWith('warn connection lost'))).toMatch(
      /\(silent\) \(the server stopped answering keep-alives\)$/,
    );
    expect(a.log.notable().find((l) => l.startsWith('warn connection lost'))).toContain(first);
    expect(a.transcript.lines.some((l) => l.startsWith('# no reply for'))).toBe(true);
    expect(server!.logins.filter((n) => n === 'alice')).toHaveLength(2);
  });

  it('LOGIN:incorrect while the server still holds the dropped connection: retries with backoff, then plays on', async () => {
    const port = await setup();
    server!.inject({ kind: 'half-open', player: 'alice', afterPlies: 4, holdMs: 500 });
    const a = testBot(port, 'alice', async () => new RandomMover(1), fast, { maxGames: 1, reconnectMs: 40, reconnectMaxMs: 160 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), fast, { maxGames: 2 });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.finished.map((g) => [g.reason, g.loser])).toEqual([
      ['DISCONNECT', 'alice'],
      ['MAX_MOVES', undefined],
    ]);
    const retries = a.log.notable().filter((l) => l.startsWith('warn csatest: login refused for alice, which logged in before'));
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries[0]).toMatch(/retry 1 of 8 in \d+\.\d s$/);
    expect(a.log.notable().some((l) => l.startsWith('error'))).toBe(false);
    // The password appears nowhere: not in the log, not in the wire transcript.
    expect([...a.log.lines, ...a.transcript.lines].join('\n')).not.toContain('pw-alice');
    expect(a.transcript.lines.filter((l) => l.startsWith('> LOGIN'))).toEqual(
      Array.from({ length: retries.length + 2 }, () => '> LOGIN alice csatest-300-10F,***'),
    );
  });

  it('LOGIN:incorrect on every retry: gives up after the bound', async () => {
    const port = await setup();
    server!.inject({ kind: 'half-open', player: 'alice', afterPlies: 2, holdMs: 60_000 });
    const a = testBot(port, 'alice', async () => new RandomMover(1), fast, { maxGames: 1, reconnectMs: 10, reconnectMaxMs: 20, refusedRetries: 3 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), fast, { maxGames: 1 });
    const runA = a.bot.start();
    await new Promise((r) => setTimeout(r, 100));
    const runB = b.bot.start();
    await expect(runA).rejects.toThrow('login refused for alice 4 times in a row: another connection still holds the name; giving up');
    expect(a.log.notable().filter((l) => l.includes('which logged in before'))).toHaveLength(3);
    await b.bot.stop(false);
    await runB.catch(() => undefined);
  });

  it('garbage lines are logged and ignored; the game goes on', async () => {
    const port = await setup();
    server!.inject({ kind: 'garbage', player: 'alice', afterPlies: 2 });
    const a = testBot(port, 'alice', async () => new RandomMover(1), fast);
    const b = testBot(port, 'bob', async () => new RandomMover(2), fast);
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.finished.map((g) => g.reason)).toEqual(['MAX_MOVES']);
    expect(a.log.notable().filter((l) => l.startsWith('warn'))).toEqual([
      'warn unexpected line during the game: "\\u0001\\u0002GARBAGE"',
      'warn unexpected line during the game: "+99"',
      'warn unknown game-end line "#NOT_A_RESULT"',
      'warn unexpected line during the game: "LOGIN:someone OK"',
      'warn unexpected line during the game: "%%%"',
      'warn unexpected line during the game: "BEGIN Nothing"',
    ]);
  });

  it('an unreachable server: retries with growing delays until stopped', async () => {
    const port = await setup();
    await server!.stop();
    server = undefined;
    const a = testBot(port, 'alice', async () => new RandomMover(1), fast, { reconnectMs: 20, reconnectMaxMs: 80 });
    const run = a.bot.start();
    await new Promise((r) => setTimeout(r, 400));
    await a.bot.stop(false);
    await run;
    const waits = a.log.notable().filter((l) => l.startsWith('warn csatest: session ended'));
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(waits.slice(0, 3).map((l) => l.replace(/^.*reconnecting in /, ''))).toEqual(['0.0 s', '0.0 s', '0.1 s']);
    expect(a.log.notable()[1]).toMatch(/^warn cannot connect to 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
  });
});
