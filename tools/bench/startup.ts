/**
 * Start-up of the command line, in CPU seconds (user + system, every thread) of a fresh process:
 * `kishi --help`; `kishi uci` / `kishi usi` answering `uci`/`usi` then `quit` (an upper bound of
 * the time to `uciok`/`usiok`); and `kishi uci` answering `isready` (the players' code and the
 * search worker loaded) then `quit`. GUIs and match runners start engines often: the goals are
 * 0.3 s to `--help` and `uciok`/`usiok`, 1 s to `readyok`. The baseline is a bare `node -e 0`.
 * The figures come from the child itself: an `--import` hook prints `process.cpuUsage()` at exit.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-path.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow } from './lib/measure.js';

const MARK = 'kishi-bench-cpu';
const HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('${MARK} '+(u.user+u.system)+'\\n')})`;

/** CPU seconds of `node <args>` fed `input` line by line (each sent once the previous answer `waitFor` arrived). */
const cpuOf = (args: readonly string[], script: readonly { send: string; waitFor?: string }[]): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', HOOK, ...args], { cwd: packageRoot(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let step = 0;
    const next = (): void => {
      while (step < script.length) {
        const s = script[step]!;
        if (s.waitFor !== undefined && !out.includes(s.waitFor)) return;
        child.stdin.write(`${s.send}\n`);
        step++;
      }
      child.stdin.end();
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      next();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const m = new RegExp(`${MARK} (\\d+)`).exec(err);
      if (m === null) reject(new Error(`no CPU figure from node ${args.join(' ')}: ${err.slice(-300)}`));
      else resolve(Number(m[1]) / 1e6);
    });
    next();
  });

export const bench: BenchModule = {
  name: 'startup',
  description: 'CPU seconds of a fresh kishi process to --help, uciok, usiok, readyok (node -e 0 as baseline)',
  async run(ctx) {
    const kishi = join('bin', 'kishi.js');
    const reps = Math.max(1, ctx.reps);
    const measure = async (name: string, args: readonly string[], script: readonly { send: string; waitFor?: string }[]): Promise<BenchRow> => {
      const ours: number[] = [];
      const base: number[] = [];
      for (let i = 0; i < reps; i++) {
        ours.push(await cpuOf(args, script));
        base.push(await cpuOf(['-e', '0'], []));
      }
      ctx.log(`${name}: ${ours.map((x) => x.toFixed(3)).join(' ')} s`);
      return { ...rateRow(name, 's CPU', 1, ours, base, 'node -e 0'), higherIsBetter: false };
    };
    return [
      await measure('kishi --help', [kishi, '--help'], []),
      await measure('kishi uci: uci, quit', [kishi, 'uci'], [{ send: 'uci' }, { send: 'quit', waitFor: 'uciok' }]),
      await measure('kishi usi: usi, quit', [kishi, 'usi'], [{ send: 'usi' }, { send: 'quit', waitFor: 'usiok' }]),
      await measure('kishi uci: uci, isready, quit', [kishi, 'uci'], [{ send: 'uci' }, { send: 'isready', waitFor: 'uciok' }, { send: 'quit', waitFor: 'readyok' }]),
    ];
  },
};
