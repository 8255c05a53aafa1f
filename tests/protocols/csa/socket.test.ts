/** The CSA line transport: CRLF/LF tolerance, split chunks, keep-alives, a silent peer. */
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryTranscript } from '../../../src/log/transcript.js';
import { LineSocket } from '../../../src/protocols/csa/socket.js';
import type { CloseInfo } from '../../../src/protocols/csa/socket.js';

let server: Server | undefined;
afterEach(async () => {
  for (const s of open) s.destroy();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const open = new Set<Socket>();

/** A server that runs `onConnect` for its one client; resolves with the port. */
async function listen(onConnect: (s: Socket) => void): Promise<number> {
  server = createServer((s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.setEncoding('utf8');
    s.on('error', () => {});
    onConnect(s);
    s.resume();
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const opts = (port: number) => ({ host: '127.0.0.1', port, connectTimeoutMs: 2000, keepAliveMs: 60_000, minBlankGapMs: 30_000, replyTimeoutMs: 30_000 });

describe('LineSocket', () => {
  it('reads CRLF and LF lines split across chunks, and a last line without a newline', async () => {
    const port = await listen((s) => {
      const parts = ['LOG', 'IN:a OK\r', '\nBEGIN Game', '_Summary\n\r\n', 'P2 * -HI *  *  *  *  * -KA * \n', 'tail'];
      let i = 0;
      const next = (): void => {
        if (i < parts.length) {
          s.write(parts[i++]!);
          setTimeout(next, 10);
        } else s.end();
      };
      next();
    });
    const sock = (await LineSocket.connect(opts(port))).unwrap();
    const lines: string[] = [];
    const closed = new Promise<CloseInfo>((r) => sock.onClose(r));
    sock.onLine((l) => lines.push(l));
    expect((await closed).reason).toBe('eof');
    expect(lines).toEqual(['LOGIN:a OK', 'BEGIN Game_Summary', '', 'P2 * -HI *  *  *  *  * -KA * ', 'tail']);
  });

  it('sends LF-terminated lines and masks what the transcript is told to', async () => {
    let got = '';
    const port = await listen((s) => s.on('data', (d: string) => (got += d)));
    const t = memoryTranscript();
    const sock = (await LineSocket.connect({ ...opts(port), transcript: t })).unwrap();
    sock.send('LOGIN a g,secret', 'LOGIN a g,***');
    sock.send('AGREE');
    await new Promise((r) => setTimeout(r, 50));
    sock.close();
    expect(got).toBe('LOGIN a g,secret\nAGREE\n');
    expect(t.lines.filter((l) => l.startsWith('>'))).toEqual(['> LOGIN a g,***', '> AGREE']);
    expect(sock.send('x')).toBe(false);
  });

  it('sends keep-alives after silence on our side, answered ones keep the connection', async () => {
    // Event-driven rather than a fixed window: wait for keep-alives spanning two reply timeouts, so that
    // a connection that did not count the replies would have closed by then; a close ends the wait at once.
    // The reply timeout is generous (1 s for a loopback round trip) because after a stall of the event
    // loop the timer can fire before the reply that arrived meanwhile is read.
    const replyTimeoutMs = 1000;
    const arrivals: number[] = [];
    let spanned: () => void = () => {};
    const enough = new Promise<void>((r) => (spanned = r));
    const port = await listen((s) =>
      s.on('data', (d: string) => {
        for (const l of d.split('\n').slice(0, -1)) {
          if (l === '') {
            arrivals.push(Date.now());
            s.write('\n');
            if (arrivals.length >= 3 && arrivals.at(-1)! - arrivals[0]! >= 2 * replyTimeoutMs) spanned();
          }
        }
      }),
    );
    const sock = (await LineSocket.connect({ ...opts(port), keepAliveMs: 100, minBlankGapMs: 80, replyTimeoutMs })).unwrap();
    const closed = new Promise<CloseInfo>((r) => sock.onClose(r));
    const first = await Promise.race([enough.then(() => 'spanned' as const), closed]);
    expect(first).toBe('spanned');
    expect(sock.isClosed).toBe(false);
    sock.close();
  });

  it('closes as silent when a keep-alive gets no answer at all', async () => {
    const port = await listen(() => {});
    const t = memoryTranscript();
    const sock = (await LineSocket.connect({ ...opts(port), keepAliveMs: 50, minBlankGapMs: 50, replyTimeoutMs: 150, transcript: t })).unwrap();
    const info = await new Promise<CloseInfo>((r) => sock.onClose(r));
    expect(info.reason).toBe('silent');
    expect(t.lines.some((l) => /^# no reply for \d+ ms after a keep-alive: closing$/.test(l))).toBe(true);
  });

  it('reports an unreachable server as an error value', async () => {
    const port = await listen(() => {});
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const r = await LineSocket.connect(opts(port));
    expect(r.isErr && r.error.message).toMatch(new RegExp(`^cannot connect to 127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`));
  });
  it('a reset after the game, once the close is expected, is the server closing (no ECONNRESET noise)', async () => {
    const run = async (expectClose: boolean): Promise<{ info: CloseInfo; notes: string[] }> => {
      const port = await listen((s) => {
        s.write('#WIN\n');
        // shogi-server closes the socket after a CSA-mode game; our LOGOUT then meets a reset.
        s.once('data', () => s.resetAndDestroy());
      });
      const transcript = memoryTranscript(100);
      const sock = (await LineSocket.connect({ ...opts(port), transcript })).unwrap();
      const closed = new Promise<CloseInfo>((r) => sock.onClose(r));
      sock.onLine(() => {
        if (expectClose) sock.expectClose();
        sock.send('LOGOUT');
      });
      const info = await closed;
      for (const x of open) x.destroy();
      await new Promise<void>((r) => server!.close(() => r()));
      server = undefined;
      return { info, notes: transcript.lines.filter((l) => l.startsWith('# closed')) };
    };
    const quiet = await run(true);
    expect([quiet.info.reason, quiet.info.error]).toEqual(['eof', undefined]);
    expect(quiet.notes).toEqual(['# closed (eof)']);
    // Before the game is over a reset stays an error.
    const loud = await run(false);
    expect(loud.info.reason).toBe('error');
    expect(loud.notes[0]).toMatch(/^# closed \(error: read ECONNRESET\)$/);
  });
});
