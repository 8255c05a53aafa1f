import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import winston from 'winston';
import { rootLogger } from '../../../src/log/logger.js';
import { fileTranscript } from '../../../src/log/transcript.js';
import { OnlineMovesServer } from '../../../src/testing/online-moves-server.js';
import type { Harness } from './helpers/harness.js';
import { startHarness } from './helpers/harness.js';
import { FirstLegalPlayer } from '../../fakes/player.js';

// Not shaped like a lichess token and never registered as a secret: only our own care keeps it out.
const SECRET = 'kishi-test-secret-token-7f3a9c';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });

describe('the token never appears in a log, transcript or record', () => {
  it('after games with rate limits, server errors and reconnects, at debug level', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-secret-'));
    const logFile = join(dir, 'kishi.log');
    const transport = new winston.transports.File({ filename: logFile });
    const level = rootLogger.level;
    rootLogger.level = 'debug';
    rootLogger.add(transport);
    const lines: string[] = [];
    const capture = new winston.transports.Stream({ stream: new (await import('node:stream')).Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) }) });
    rootLogger.add(capture);
    // The opening explorer is asked with the token (and fails once): the token goes on the wire, never in a log.
    const online = new OnlineMovesServer();
    await online.start();
    online.fail(1);
    try {
      h = await startHarness({
        config: { onlineMoves: { maxRetries: 1, lichessOpeningExplorer: { enabled: true, url: online.url, source: 'lichess', minTimeS: 0 } } },
        token: SECRET,
        recordsDir: join(dir, 'records'),
        transcript: fileTranscript(join(dir, 'lichess-wire.log')),
        player: () => new FirstLegalPlayer({ script: ['e2e4', 'f1c4', 'd1h5', 'h5f7'] }),
      });
      h.server.failRequests({ method: 'POST', path: /\/move\/f1c4$/ }, '429html', 1);
      h.server.failRequests({ method: 'POST', path: /\/move\/d1h5$/ }, '502', 1);
      h.server.failRequests({ method: 'GET', path: /\/api\/account\/playing$/ }, '504', 1);
      const id = h.server.challenge({ from: 'Victim', color: 'black', opponent: { script: ['e7e5', 'b8c6', 'g8f6'] } });
      h.server.stallGameStreamAt(id, 2);
      expect((await h.server.waitForEnd(id)).status).toBe('mate');
      await h.server.waitFor(() => h!.bot.finished.length === 1);
      const restarted = h.newBot();
      await h.bot.stop(false);
      h.bot = restarted;
    } finally {
      await online.stop();
      rootLogger.remove(transport);
      rootLogger.remove(capture);
      rootLogger.level = level;
    }
    await new Promise((r) => setTimeout(r, 100));
    const all = files(dir);
    expect(all.some((f) => f.endsWith('.pgn'))).toBe(true);
    expect(all.some((f) => f.endsWith('.jsonl'))).toBe(true);
    expect(readFileSync(join(dir, 'lichess-wire.log'), 'utf8')).toContain('/api/token/test <body withheld>');
    expect(readFileSync(logFile, 'utf8')).toContain('rate-limited');
    for (const f of all) expect(readFileSync(f, 'utf8'), f).not.toContain(SECRET);
    expect(online.requests.length).toBeGreaterThan(2);
    expect(online.requests.every((r) => r.authorization === `Bearer ${SECRET}`)).toBe(true);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.join('')).not.toContain(SECRET);
  });
});
