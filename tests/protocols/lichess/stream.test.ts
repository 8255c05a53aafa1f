/**
 * The game stream's watchdog (issue 48, item 9): lila and lishogi write a game stream's keep-alives on a
 * fixed cadence whatever else they send (GameStateStream: `SetOnline` -> 7 s / 6 s -> a blank line), so a
 * stall is seen from the last keep-alive, not from the last move; a stalled stream that had answered is
 * reopened at once, not after the backoff. Real timers with wide gaps between the old and the new
 * behaviour, so that a busy machine cannot blur them.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import winston from 'winston';
import { afterEach, describe, expect, it } from 'vitest';
import { Result } from '../../../src/core/result.js';
import type { LichessError } from '../../../src/protocols/lichess/client.js';
import type { ResilientStreamOptions } from '../../../src/protocols/lichess/stream.js';
import { ResilientStream } from '../../../src/protocols/lichess/stream.js';

const quiet = winston.createLogger({ silent: true });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A stream whose connections the test writes to; each open and each drop is time-stamped. */
function harness(opts: Partial<ResilientStreamOptions> & Pick<ResilientStreamOptions, 'silenceMs' | 'backoff'>) {
  const conns: PassThrough[] = [];
  const opens: number[] = [];
  const drops: { at: number; reason: string }[] = [];
  const stream = new ResilientStream({
    name: 'game test',
    open: async (): Promise<Result<Readable, LichessError>> => {
      const body = new PassThrough();
      conns.push(body);
      opens.push(Date.now());
      return Result.ok(body);
    },
    onMessage: () => {},
    onDisconnect: (reason) => drops.push({ at: Date.now(), reason }),
    log: quiet,
    ...opts,
  });
  return { stream, conns, opens, drops };
}

let running: ResilientStream | undefined;
afterEach(() => {
  running?.stop();
  running = undefined;
});

const waitUntil = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await sleep(5);
  }
};

describe('game stream watchdog (issue 48)', () => {
  it("with silenceFrom 'keepAlive', counts the silence from the last keep-alive, not from a message after it", async () => {
    const h = harness({ silenceMs: 600, silenceFrom: 'keepAlive', backoff: { minMs: 10_000, maxMs: 10_000 } });
    running = h.stream;
    void h.stream.start();
    await waitUntil(() => h.conns.length === 1);
    const conn = h.conns[0]!;
    conn.write('\n');
    await sleep(450);
    // The opponent's move arrives; then the stream stalls (nothing more, socket open).
    conn.write('{"type":"gameState","moves":"e2e4"}\n');
    const messageAt = Date.now();
    await waitUntil(() => h.drops.length === 1);
    // From the keep-alive: 600 ms after it, ~150 ms after the message. From the last byte it was 600 ms after
    // the message.
    expect(h.drops[0]!.at - messageAt).toBeLessThan(450);
    expect(h.drops[0]!.reason).toBe('no keep-alive for 600 ms');
  });

  it('by default (the event stream), counts the silence from any byte', async () => {
    const h = harness({ silenceMs: 600, backoff: { minMs: 10_000, maxMs: 10_000 } });
    running = h.stream;
    void h.stream.start();
    await waitUntil(() => h.conns.length === 1);
    const conn = h.conns[0]!;
    conn.write('\n');
    await sleep(450);
    conn.write('{"type":"challenge"}\n');
    const messageAt = Date.now();
    await waitUntil(() => h.drops.length === 1);
    expect(h.drops[0]!.at - messageAt).toBeGreaterThanOrEqual(550);
  });

  it('keeps a stream whose keep-alives come on time while messages stop', async () => {
    const h = harness({ silenceMs: 400, silenceFrom: 'keepAlive', backoff: { minMs: 10_000, maxMs: 10_000 } });
    running = h.stream;
    void h.stream.start();
    await waitUntil(() => h.conns.length === 1);
    const conn = h.conns[0]!;
    conn.write('{"type":"gameFull"}\n');
    for (let i = 0; i < 8; i++) {
      await sleep(150);
      conn.write('\n');
    }
    expect(h.drops).toEqual([]);
    expect(h.opens).toHaveLength(1);
  });

  it('with messageGraceMs, messages flowing hold off the verdict on a late keep-alive; once they stop it comes', async () => {
    const h = harness({ silenceMs: 400, silenceFrom: 'keepAlive', messageGraceMs: 250, backoff: { minMs: 10_000, maxMs: 10_000 } });
    running = h.stream;
    void h.stream.start();
    await waitUntil(() => h.conns.length === 1);
    const conn = h.conns[0]!;
    conn.write('\n');
    // No keep-alive any more, but a move every 100 ms for 900 ms: past the 400 ms, no verdict.
    for (let i = 0; i < 9; i++) {
      await sleep(100);
      conn.write(`{"type":"gameState","moves":"${i}"}\n`);
    }
    const lastAt = Date.now();
    expect(h.drops).toEqual([]);
    await waitUntil(() => h.drops.length === 1);
    expect(h.drops[0]!.at - lastAt).toBeGreaterThanOrEqual(200);
    expect(h.drops[0]!.at - lastAt).toBeLessThan(600);
  });

  it('with reopenSilentAtOnce, reopens a stalled stream that had answered at once; one that never answered backs off', async () => {
    const h = harness({ silenceMs: 300, silenceFrom: 'keepAlive', reopenSilentAtOnce: true, backoff: { minMs: 1500, maxMs: 1500 } });
    running = h.stream;
    void h.stream.start();
    await waitUntil(() => h.conns.length === 1);
    h.conns[0]!.write('{"type":"gameFull"}\n');
    // Stalls: dropped ~300 ms later and reopened without the 1.5 s backoff.
    await waitUntil(() => h.opens.length === 2);
    expect(h.opens[1]! - h.drops[0]!.at).toBeLessThan(700);
    // The second connection sends nothing at all: the next open waits the backoff.
    await waitUntil(() => h.drops.length === 2);
    await waitUntil(() => h.opens.length === 3, 6000);
    expect(h.opens[2]! - h.drops[1]!.at).toBeGreaterThanOrEqual(1400);
  });

  it('a pause of this process longer than the threshold is no stall when the keep-alives are waiting in the socket', async () => {
    // A real socket: the keep-alives written during the pause wait in the kernel until the event loop reads them.
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      const t = setInterval(() => socket.write('\n'), 50);
      socket.on('close', () => clearInterval(t));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const drops: string[] = [];
    let opens = 0;
    const stream = new ResilientStream({
      name: 'game test',
      open: async () => {
        opens++;
        const { connect } = await import('node:net');
        const socket = connect(port, '127.0.0.1');
        await new Promise<void>((r) => socket.once('connect', () => r()));
        return Result.ok(socket as Readable);
      },
      onMessage: () => {},
      onDisconnect: (reason) => drops.push(reason),
      silenceMs: 300,
      silenceFrom: 'keepAlive',
      reopenSilentAtOnce: true,
      backoff: { minMs: 10_000, maxMs: 10_000 },
      log: quiet,
    });
    running = stream;
    void stream.start();
    try {
      await waitUntil(() => sockets.length === 1);
      await sleep(200);
      // The process is busy for twice the threshold (the server, in this process too, writes nothing then;
      // what it wrote just before is read after).
      const until = Date.now() + 600;
      while (Date.now() < until) {
        // busy
      }
      await sleep(400);
      expect(drops).toEqual([]);
      expect(opens).toBe(1);
    } finally {
      stream.stop();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
