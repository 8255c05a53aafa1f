/**
 * `kishi usi` as a GUI or a tsume solver drives it (built CLI from dist/, a child process): a tsume
 * problem written without the attacker's king is accepted, and both `go mate` and a node-limited
 * `go` answer the mating drop.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';


/** Runs `kishi usi`, sends `lines` and resolves with its stdout once `until` matches a line. */
const usi = (lines: string[], until: RegExp): Promise<string[]> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/kishi.js', 'usi'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no ${until} within 20 s:\n${out}`));
    }, 20_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const got = out.split('\n');
      if (got.some((l) => until.test(l))) {
        clearTimeout(timer);
        child.stdin.end('quit\n');
        resolve(got.filter((l) => !l.startsWith('option') && !l.startsWith('id')));
      }
    });
    child.on('error', reject);
    child.stdin.write(lines.map((l) => `${l}\n`).join(''));
  });

describe('kishi usi with a tsume missing the attacker\'s king', () => {
  it('go mate and go nodes both give G*1b', async () => {
    const sfen = 'position sfen 8k/9/8P/9/9/9/9/9/9 b G 1';
    const mate = await usi(['usi', 'isready', sfen, 'go mate 5000'], /^checkmate/);
    expect(mate).toContain('checkmate G*1b');
    expect(mate.join('\n')).not.toMatch(/error|refused/);
    const best = await usi(['usi', 'isready', sfen, 'go nodes 2000'], /^bestmove/);
    expect(best.find((l) => l.startsWith('bestmove'))).toMatch(/^bestmove G\*1b( |$)/);
  }, 45_000);
});
