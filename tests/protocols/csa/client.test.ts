/** The CSA client against the local test server, with test-double Players. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGameLog } from '../../../src/records/game-log.js';
import { CsaClient } from '../../../src/protocols/csa/client.js';
import { CsaTestServer } from '../../fakes/csa-server/server.js';
import type { TestServerOptions } from '../../fakes/csa-server/server.js';
import { ForeverThinker, RandomMover, ScriptedPlayer } from '../../fakes/player.js';
import { clientOptions, memLog, startInOrder, testBot } from './harness.js';

let server: CsaTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function setup(opts: TestServerOptions = {}): Promise<number> {
  server = new CsaTestServer({ offTurnDelayMs: 20, closeAfterGameMs: 100, colours: 'first-black', ...opts });
  return server.start();
}

describe('CSA client', () => {
  it('plays a whole game, never out of turn, and writes its records', async () => {
    const port = await setup({ unitMs: 10, maxMoves: 40 });
    const a = testBot(port, 'alice', async () => new RandomMover(1));
    const b = testBot(port, 'bob', async () => new RandomMover(2));
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    const g = server!.finished[0]!;
    expect([g.black, g.white, g.reason, g.moves.length]).toEqual(['alice', 'bob', 'MAX_MOVES', 40]);
    expect(server!.outOfTurn).toEqual([]);
    const files = readdirSync(join(a.dir, 'csa')).sort();
    expect(files).toEqual([`${g.id}.csa`, `${g.id}.jsonl`]);
    const record = readFileSync(join(a.dir, 'csa', `${g.id}.csa`), 'utf8').split('\n');
    expect(record.slice(0, 3)).toEqual(['V2.2', 'N+alice', 'N-bob']);
    // Every move with its server time, in the server's order; our moves carry '** comments.
    const moves = record.filter((l) => /^[+-]\d{4}/.test(l));
    expect(moves).toEqual(g.moves.map((m) => m.csa));
    expect(record.filter((l) => /^T\d+$/.test(l)).map((l) => Number(l.slice(1)))).toEqual(g.moves.map((m) => m.t));
    expect(record.filter((l) => l.startsWith("'** "))).toHaveLength(20);
    expect(record).toContain('%MAX_MOVES');
    // The game log, in the shared format (src/learning/records/game-log.ts).
    const log = readGameLog(join(a.dir, 'csa', `${g.id}.jsonl`)).unwrap();
    expect([log.header.gameId, log.header.server, log.header.ourSide, log.header.start, log.header.engine]).toEqual([
      g.id,
      'csatest',
      'first',
      'startpos',
      'random-mover (test double)',
    ]);
    expect(log.header.clock).toEqual({ initialMs: 3000, incrementMs: 100 });
    expect(log.moves).toHaveLength(40);
    expect(log.moves[0]!.search?.depth).toBe(1);
    expect(log.moves[1]!.search).toBeUndefined();
    expect(log.moves[0]!.position).toBe('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1');
    expect(log.result).toMatchObject({ winner: null, status: 'max_moves', plies: 40 });
    expect(a.log.notable().filter((l) => l.startsWith('warn') || l.startsWith('error'))).toEqual([]);
    // The password never appears in a transcript or a log line; the login line is masked.
    expect(a.transcript.lines.join('\n')).not.toContain('pw-alice');
    expect(a.transcript.lines).toContain('> LOGIN alice csatest-300-10F,***');
    expect(a.log.lines.join('\n')).not.toContain('pw-alice');
  });

  it('as white, sends nothing before the opponent has moved', async () => {
    const port = await setup({ unitMs: 10, maxMoves: 6 });
    const fast = new RandomMover(3);
    const a = testBot(port, 'alice', async () => new RandomMover(1, 50));
    const b = testBot(port, 'bob', async () => fast);
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.outOfTurn).toEqual([]);
    // bob's first request came after alice's first move.
    expect(fast.requests[0]!.moves).toHaveLength(1);
  });

  it('holds the Player to the deadline: stop at the budget, T stays below remaining+increment', async () => {
    // 20+10F in 100 ms units: the move must arrive before 3 s; margin 400 ms (+ round trip).
    const port = await setup({ unitMs: 100, maxMoves: 2 });
    const thinker = new ForeverThinker();
    const a = testBot(port, 'alice', async () => thinker, { gameName: 'csatest-20-10F', safetyMarginMs: 400 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), { gameName: 'csatest-20-10F' });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    const g = server!.finished[0]!;
    expect(g.reason).toBe('MAX_MOVES');
    // The server charged less than remaining + increment = 30 units: the move was on time.
    expect(g.moves[0]!.t).toBeLessThanOrEqual(29);
    expect(g.moves[0]!.t).toBeGreaterThanOrEqual(20);
    expect(thinker.stops).toBeGreaterThanOrEqual(1);
    // stop came at the budget (3000 - 400 - round trip; a timer may fire a little late), not before the
    // Player could use its time.
    const used = thinker.stopAt[0]! - thinker.goAt[0]!;
    expect(used).toBeLessThanOrEqual(2750);
    expect(used).toBeGreaterThanOrEqual(2000);
    // The Player saw a clock that adds up to the budget: 2000 ms main + 1000 ms increment - margin.
    const c = thinker.requests[0]!.clock!;
    expect(c.firstMs + c.firstIncMs).toBeLessThanOrEqual(2600);
    expect(c.firstIncMs).toBe(1000);
    expect(c.secondMs).toBe(2000);
  });

  it('a Player that ignores stop still gets a legal move out before the deadline', async () => {
    const port = await setup({ unitMs: 100, maxMoves: 2 });
    const a = testBot(port, 'alice', async () => new ForeverThinker(true), { gameName: 'csatest-20-10F', safetyMarginMs: 400 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), { gameName: 'csatest-20-10F' });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    const g = server!.finished[0]!;
    expect(g.reason).toBe('MAX_MOVES');
    expect(g.moves[0]!.t).toBeLessThanOrEqual(29);
    expect(a.log.notable().some((l) => l.startsWith('error the player did not answer within'))).toBe(true);
  });

  it('replaces an illegal or impossible answer of the Player by a legal move', async () => {
    const port = await setup({ unitMs: 10, maxMoves: 4 });
    const a = testBot(port, 'alice', async () => new ScriptedPlayer(['5e5d', 'win']));
    const b = testBot(port, 'bob', async () => new RandomMover(2));
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    const g = server!.finished[0]!;
    expect([g.reason, g.moves.length]).toEqual(['MAX_MOVES', 4]);
    expect(a.log.notable().filter((l) => l.startsWith('error'))).toEqual([
      'error the player chose 5e5d: illegal move 5e5d; playing a fallback move',
      'error the player declared a win, but the declaration is not legal here: playing a fallback move',
    ]);
  });

  it('declares with %KACHI when the Player answers win and the declaration is legal', async () => {
    const port = await setup();
    // Black king in the camp with 12 pieces there and 32 points: declarable at once.
    server!.nextSetup = {
      positionLines: [
        'P1+OU+KI+KI+KI+KI *  *  *  * ',
        'P2+FU+FU+FU+FU+FU+FU+HI+KA * ',
        'P3 *  *  *  *  *  *  *  *  * ',
        'P4 *  *  *  *  *  *  *  *  * ',
        'P5 *  *  *  *  *  *  *  *  * ',
        'P6 *  *  *  *  *  *  *  *  * ',
        'P7 *  *  *  *  *  *  *  *  * ',
        'P8 *  *  *  *  *  *  *  *  * ',
        'P9 *  *  *  *  *  *  *  * -OU',
        'P+00HI00KA00GI00GI',
        'P-00AL',
        '+',
      ],
      moves: [],
    };
    // The entering-king rule is checked once, by the Player (the engines answer `win`); the client only
    // checks that the declaration it sends is legal.
    const player = new ScriptedPlayer(['win']);
    const a = testBot(port, 'alice', async () => player);
    const b = testBot(port, 'bob', async () => new RandomMover(2));
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect([server!.finished[0]!.reason, server!.finished[0]!.winner]).toEqual(['JISHOGI', '+']);
    expect(player.requests).toHaveLength(1);
    const record = readFileSync(join(a.dir, 'csa', `${server!.finished[0]!.id}.csa`), 'utf8');
    expect(record).toContain('%KACHI\nT0\n');
  });

  it('resigns at once when mated, and follows a game resumed from a Position block with moves', async () => {
    const port = await setup();
    // Two moves already played: a black pawn step, then white drops a gold on 1h backed by the
    // silver on 2g: black, to move, is checkmated.
    server!.nextSetup = {
      positionLines: [
        'P1-OU *  *  *  *  *  *  *  * ',
        'P2 *  *  *  *  *  *  *  *  * ',
        'P3 *  *  *  *  *  *  *  *  * ',
        'P4 *  *  *  *  *  *  *  *  * ',
        'P5 *  *  *  *  *  *  *  *  * ',
        'P6 *  *  *  *  *  *  *  *  * ',
        'P7 *  *  *  * +FU *  * -GI * ',
        'P8 *  *  *  *  *  *  *  *  * ',
        'P9 *  *  *  *  *  *  *  * +OU',
        'P-00KI',
        '+',
      ],
      moves: [
        { csa: '+5756FU', t: 3 },
        { csa: '-0018KI', t: 5 },
      ],
    };
    const player = new RandomMover(1);
    const a = testBot(port, 'alice', async () => player);
    const b = testBot(port, 'bob', async () => new RandomMover(2));
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect([server!.finished[0]!.reason, server!.finished[0]!.winner]).toEqual(['RESIGN', '-']);
    expect(player.requests).toEqual([]);
  });

  it('sends keep-alives while waiting and while thinking, never two within the minimum gap', async () => {
    // Nobody to pair with for 1.2 s, then a long think.
    const port = await setup({ unitMs: 100, maxMoves: 2 });
    const opts = { gameName: 'csatest-20-0', keepAliveMs: 250, minBlankGapMs: 200, replyTimeoutMs: 2000, safetyMarginMs: 200 };
    const thinker = new ForeverThinker();
    const a = testBot(port, 'alice', async () => thinker, opts);
    const started = a.bot.start();
    await new Promise((r) => setTimeout(r, 1200));
    const waitingBlanks = server!.blankLines.get('alice')?.length ?? 0;
    const b = testBot(port, 'bob', async () => new RandomMover(2), opts);
    await Promise.all([started, b.bot.start()]);
    const times = server!.blankLines.get('alice')!;
    expect(waitingBlanks).toBeGreaterThanOrEqual(2);
    // The client never sends two blank lines within 200 ms; arrival times may jitter a little.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120);
    const [goAt, stopAt] = [thinker.goAt[0]!, thinker.stopAt[0]!];
    expect(times.filter((t) => t > goAt && t < stopAt).length).toBeGreaterThanOrEqual(2);
  });

  it('x1 mode: %%GAME, and two games on one connection', async () => {
    const port = await setup({ unitMs: 10, maxMoves: 6 });
    const a = testBot(port, 'alice', async () => new RandomMover(1), { x1: true }, { maxGames: 2 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), { x1: true }, { maxGames: 2 });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.finished.map((g) => g.reason)).toEqual(['MAX_MOVES', 'MAX_MOVES']);
    expect(server!.logins).toEqual(['alice', 'bob']);
    expect(a.transcript.lines.filter((l) => l.startsWith('> LOGIN') || l.startsWith('> %%') || l === '> LOGOUT')).toEqual([
      '> LOGIN alice *** x1',
      '> %%GAME csatest-300-10F *',
      '> %%GAME csatest-300-10F *',
      '> LOGOUT',
    ]);
  });

  it('LOGIN:incorrect at the first login (the name still held, e.g. by our connection before a restart) is retried; the game is played once it is free', async () => {
    const port = await setup({ unitMs: 10, maxMoves: 6 });
    // shogi-server checks no password: only a connection holding the name makes it refuse (here one that
    // logged in with another password and waits for another game, so it is neither kicked nor paired).
    const first = new CsaClient(clientOptions(port, 'carol', { secret: 'old', gameName: 'other-300-10F' }), new RandomMover(1), {});
    const held = first.run();
    await server!.waitForLogin('carol');
    const a = testBot(port, 'carol', async () => new RandomMover(1), {}, { maxGames: 1, reconnectMs: 30, reconnectMaxMs: 60 });
    const runA = a.bot.start();
    await new Promise((r) => setTimeout(r, 200));
    first.stop(false);
    await held;
    const b = testBot(port, 'bob', async () => new RandomMover(2), {}, { maxGames: 1 });
    await Promise.all([runA, startInOrder(server!, { bot: b.bot, user: 'bob' })]);
    expect(server!.finished.map((g) => g.reason)).toEqual(['MAX_MOVES']);
    const retries = a.log.notable().filter((l) => l.startsWith('warn csatest: login refused for carol: the name is held by another connection'));
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(a.log.notable().some((l) => l.startsWith('error'))).toBe(false);
  });

  it('a name held for good: gives up after the bound with one clear line', async () => {
    const port = await setup();
    const first = new CsaClient(clientOptions(port, 'carol', { secret: 'old', gameName: 'other-300-10F' }), new RandomMover(1), {});
    void first.run();
    await server!.waitForLogin('carol');
    const a = testBot(port, 'carol', async () => new RandomMover(1), {}, { reconnectMs: 10, reconnectMaxMs: 20, refusedRetries: 2 });
    await expect(a.bot.start()).rejects.toThrow('csatest: login refused for carol 3 times in a row: another connection still holds the name; giving up');
    first.stop(false);
  });

  it('x1 with a colour suffix asks for the colour in %%GAME (shogi-server refuses the suffixed name there)', async () => {
    const port = await setup({ unitMs: 10, maxMoves: 6, colours: 'first-black' });
    const a = testBot(port, 'alice', async () => new RandomMover(1), { x1: true, gameName: 'csatest-300-10F' }, { maxGames: 1 });
    const b = testBot(port, 'bob', async () => new RandomMover(2), { x1: true, gameName: 'csatest-300-10F-w' }, { maxGames: 1 });
    await startInOrder(server!, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
    expect(server!.finished.map((g) => [g.black, g.white])).toEqual([['alice', 'bob']]);
    expect(b.transcript.lines.filter((l) => l.startsWith('> %%GAME'))).toEqual(['> %%GAME csatest-300-10F -']);
    // After the last allowed game: no "logging in again".
    expect(b.log.lines.some((l) => l.includes('logging in again'))).toBe(false);
  });

  it('a permanent ##[ERROR] ends the bot with the server\'s line, without asking again', async () => {
    const port = await setup();
    const a = testBot(port, 'alice', async () => new RandomMover(1), { x1: true, gameName: 'nosuchgame' }, { reconnectMs: 10, reconnectMaxMs: 20 });
    await expect(a.bot.start()).rejects.toThrow('csatest: the server refused the game nosuchgame: ##[ERROR] bad game name: nosuchgame');
    expect(a.transcript.lines.filter((l) => l.startsWith('> %%GAME'))).toEqual(['> %%GAME nosuchgame *']);
  });
});

describe('CSA client log lines', () => {
  it('are plain sentences a person can follow', () => {
    const log = memLog();
    log.info('x');
    expect(log.notable()).toEqual(['info x']);
  });
});
