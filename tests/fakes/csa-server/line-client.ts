/** A bare line client for driving the test server by hand in tests. */
import { Socket } from 'node:net';

export class LineClient {
  readonly lines: string[] = [];
  private read = 0;
  private buffer = '';
  private waiters: (() => void)[] = [];
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, i).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.wake();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static connect(port: number): Promise<LineClient> {
    return new Promise((resolve, reject) => {
      const s = new Socket();
      s.once('error', reject);
      s.connect(port, '127.0.0.1', () => resolve(new LineClient(s)));
    });
  }

  send(line: string): void {
    this.socket.write(`${line}\n`);
  }

  /** The next unread line (undefined when the connection closed first). */
  async next(timeoutMs = 5000): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.lines.length) {
      if (this.closed) return undefined;
      if (Date.now() > deadline) throw new Error(`no line within ${timeoutMs} ms; got ${JSON.stringify(this.lines)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
    return this.lines[this.read++];
  }

  /** Reads lines up to and including the first one matching; returns them all. */
  async until(match: (line: string) => boolean, timeoutMs = 5000): Promise<string[]> {
    const out: string[] = [];
    for (;;) {
      const l = await this.next(timeoutMs);
      if (l === undefined) return out;
      out.push(l);
      if (match(l)) return out;
    }
  }

  /** Logs in and reads the whole Game_Summary. */
  async loginAndSummary(name: string, password: string): Promise<string[]> {
    this.send(`LOGIN ${name} ${password}`);
    await this.until((l) => l.startsWith('LOGIN:'));
    return this.until((l) => l === 'END Game_Summary');
  }

  /** Resolves when the server has closed the connection. */
  async waitClosed(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('still open');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
