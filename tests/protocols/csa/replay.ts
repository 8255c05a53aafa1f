/**
 * Replays one participant's side of a shogi-server transcript (tests/fixtures/csa/transcript-*.txt):
 * a TCP server that sends that participant's `<<` lines in order and, at each `>>` line, waits for the
 * client's next line and records it. Blank lines (keep-alives and their answers) are left out on both
 * sides: their timing is the client's own.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface TranscriptEvent {
  readonly t: number;
  readonly who: string;
  readonly dir: '>>' | '<<';
  readonly line: string;
}

export function readTranscript(file: string): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  for (const raw of readFileSync(new URL(`../../fixtures/csa/${file}`, import.meta.url), 'utf8').split('\n')) {
    const m = /^\s*([\d.]+)\s+(\S+)\s+(>>|<<)\s+"(.*)"$/.exec(raw);
    if (m) out.push({ t: Number(m[1]), who: m[2]!, dir: m[3] as '>>' | '<<', line: m[4]! });
  }
  return out;
}

/** The moves (CSA, with comment) a participant sent, in order. */
export function sentMoves(events: readonly TranscriptEvent[], who: string): string[] {
  return events.filter((e) => e.who === who && e.dir === '>>' && /^([+-]\d{4}|%TORYO|%KACHI)/.test(e.line)).map((e) => e.line);
}

export interface Replay {
  readonly port: number;
  /** Resolves with the client's lines (blank lines left out) once the script is done or the client left. */
  readonly done: Promise<{ readonly sent: string[]; readonly expected: string[] }>;
  close(): Promise<void>;
}

export async function replayServer(events: readonly TranscriptEvent[], who: string, timeoutMs = 10_000): Promise<Replay> {
  const script = events.filter((e) => e.who === who && e.line !== '');
  const expected = script.filter((e) => e.dir === '>>').map((e) => e.line);
  let resolveDone!: (v: { sent: string[]; expected: string[] }) => void;
  const done = new Promise<{ sent: string[]; expected: string[] }>((r) => (resolveDone = r));
  let sockRef: Socket | undefined;
  const server: Server = createServer((sock) => {
    sockRef = sock;
    sock.setEncoding('utf8');
    const sent: string[] = [];
    let buffer = '';
    let i = 0;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolveDone({ sent: [...sent], expected });
      setTimeout(() => sock.destroy(), 20);
    };
    const timer = setTimeout(finish, timeoutMs);
    const pump = (): void => {
      while (i < script.length && script[i]!.dir === '<<') sock.write(`${script[i++]!.line}\n`);
      if (i >= script.length) finish();
    };
    sock.on('data', (chunk: string) => {
      buffer += chunk;
      let k: number;
      while ((k = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, k).replace(/\r$/, '');
        buffer = buffer.slice(k + 1);
        if (line === '') continue;
        sent.push(line);
        if (i < script.length && script[i]!.dir === '>>') i++;
        pump();
      }
    });
    sock.on('error', () => {});
    sock.on('close', finish);
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    done,
    close: () =>
      new Promise<void>((r) => {
        sockRef?.destroy();
        server.close(() => r());
      }),
  };
}
