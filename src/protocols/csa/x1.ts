/**
 * One-shot x1 (extended mode) queries: log in with `x1`, send `%%VERSION`, `%%WHO`, `%%LIST`… and collect
 * the `##[…]` answers, then log out (tests/fixtures/csa/transcript-x1.txt does exactly this).
 */
import { KishiError, Result } from '../../core/result.js';
import { registerSecret } from '../../log/redact.js';
import type { Transcript } from '../../log/transcript.js';
import { LineSocket } from './socket.js';

export interface X1QueryOptions {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly secret: string;
  /** `%%…` commands, sent after LOGIN is accepted. */
  readonly commands: readonly string[];
  readonly timeoutMs: number;
  readonly transcript?: Transcript;
}

/** The `##[…]` lines the server answered, in order. */
export async function x1Query(opts: X1QueryOptions): Promise<Result<string[], KishiError>> {
  registerSecret(opts.secret);
  const sock = await LineSocket.connect({
    host: opts.host,
    port: opts.port,
    connectTimeoutMs: opts.timeoutMs,
    keepAliveMs: 40_000,
    minBlankGapMs: 30_000,
    replyTimeoutMs: opts.timeoutMs,
    ...(opts.transcript ? { transcript: opts.transcript } : {}),
  });
  if (sock.isErr) return Result.err(sock.error);
  const s = sock.value;
  return new Promise((resolve) => {
    const answers: string[] = [];
    let error: KishiError | undefined;
    const timer = setTimeout(() => {
      error = new KishiError('ERR_CSA_TIMEOUT', `no end of the x1 answers within ${opts.timeoutMs} ms`);
      s.close();
    }, opts.timeoutMs);
    s.onLine((line) => {
      if (line === `LOGIN:${opts.user} OK`) {
        for (const c of opts.commands) s.send(c);
        // A blank line, then LOGOUT: the server answers in order, so LOGOUT:completed ends the answers.
        s.send('');
        s.send('LOGOUT');
      } else if (line === 'LOGIN:incorrect') {
        error = new KishiError('ERR_CSA_LOGIN', `login refused for ${opts.user}`);
        s.close();
      } else if (line.startsWith('##[')) {
        answers.push(line);
      } else if (line === 'LOGOUT:completed') {
        s.close();
      }
    });
    s.onClose(() => {
      clearTimeout(timer);
      resolve(error ? Result.err(error) : Result.ok(answers));
    });
    s.send(`LOGIN ${opts.user} ${opts.secret} x1`);
  });
}
