/**
 * `kishi learn`'s options: commander's text validated into the typed settings (`learnCommandOf`),
 * usage errors as clear messages with exit code 2, `--status` on a run and on a folder without one,
 * and help that names every option.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { learnCommandOf, register, type LearnCliOptions } from '../../src/cli/learn.js';

/** The options commander hands the action for `argv` (defaults included). */
const parsed = (argv: string[]): LearnCliOptions => {
  const program = new Command();
  register(program);
  let got: LearnCliOptions | undefined;
  program.commands.find((c) => c.name() === 'learn')!.action((o: LearnCliOptions) => {
    got = o;
  });
  program.parse(['node', 'kishi', 'learn', ...argv]);
  return got!;
};

const kishi = (...args: string[]) => spawnSync('node', ['bin/kishi.js', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('kishi learn options', () => {
  it('turns the lead\'s command line into the typed settings', () => {
    const c = learnCommandOf(
      parsed(['-g', 'chess', '-d', '/data/learn/chess', '--seed', '101', '--nodes', '1000', '--positions-per-gen', '30000000', '--hidden', '256', '--features', 'base', '--epochs', '12', '--batch', '16384', '--device', 'cuda', '--threads', '2', '--train-gens', '2', '--train-args=--lr 0.001 --lambda 0.9', '--gate-nodes', '4000', '--gate-concurrency', '2']),
      '/usr/bin/python3',
    ).unwrap();
    expect(c.kind).toBe('run');
    if (c.kind !== 'run') return;
    const s = c.settings;
    expect([s.game, s.dir, s.seed, s.nodes, s.positionsPerGen, s.generations, s.trainGens]).toEqual(['chess', '/data/learn/chess', 101, 1000, 30_000_000, 3, 2]);
    expect(s.trainer).toEqual({ python: '/usr/bin/python3', hidden: 256, features: 'base', epochs: 12, batch: 16384, device: 'cuda', threads: 2, seed: 1, extra: ['--lr', '0.001', '--lambda', '0.9'] });
    expect(s.datagen).toEqual({ gamesPerChunk: 50, hash: 16 });
    expect([s.gate.nodes, s.gate.games, s.gate.sprtText, s.gate.concurrency, s.gate.openingsFile]).toEqual([4000, 400, 'elo0=0,elo1=5', 2, expect.stringMatching(/data\/openings\/chess-balanced\.epd$/)]);
    expect(s.gate.openings.length).toBeGreaterThan(10);
    expect([s.models, s.initialNet, s.weights]).toEqual(['models', join('models', 'chess-nnue.bin'), 'models/chess-linear.json']);
    expect(c.queue).toBeUndefined();
  });

  it('refuses bad values with the option named', () => {
    const base = ['-g', 'shogi', '-d', 'x', '--positions-per-gen', '100'];
    const err = (argv: string[]): string => {
      const r = learnCommandOf(parsed(argv));
      return r.isErr ? `${r.error.code} ${r.error.message}` : 'ok';
    };
    expect(err(['-d', 'x', '--positions-per-gen', '100'])).toContain('ERR_USAGE --game must be one of chess, shogi');
    expect(err(['-g', 'chess', '--positions-per-gen', '100'])).toContain('--dir is required');
    expect(err(['-g', 'chess', '-d', 'x'])).toContain('--positions-per-gen is required');
    expect(err([...base, '--nodes', '0'])).toContain('--nodes must be a whole number >= 1, got "0"');
    expect(err([...base, '--epochs', '1.5'])).toContain('--epochs must be a whole number >= 1, got "1.5"');
    expect(err([...base, '--sprt', 'elo0=5,elo1=0'])).toContain('--sprt needs elo1 > elo0');
    expect(err([...base, '--random-plies', '9-2'])).toContain('--random-plies must be min-max');
    expect(err([...base, '--gate-openings', 'no/such/file.sfen'])).toContain('no/such/file.sfen');
    expect(err(base)).toBe('ok');
  });

  it('exits 2 on a usage error and 1 on --status of a folder without a run, without a stack trace', () => {
    const usage = kishi('learn', '-g', 'chess', '-d', 'x', '--positions-per-gen', '-5');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('kishi learn: --positions-per-gen must be a whole number >= 1');
    const none = mkdtempSync(join(tmpdir(), 'kishi-learn-status-'));
    const status = kishi('learn', '--status', none);
    expect(status.status).toBe(1);
    expect(status.stderr).toContain(`${join(none, 'learn.json')} does not exist`);
    expect(`${usage.stderr}${status.stderr}`).not.toContain('    at ');
  });

  it('documents every option in its help', () => {
    const help = kishi('learn', '--help').stdout;
    for (const o of ['--status', '--game', '--dir', '--seed', '--nodes', '--positions-per-gen', '--generations', '--train-gens', '--queue', '--python', '--hidden', '--features', '--epochs', '--batch', '--device', '--threads', '--train-args', '--gate-nodes', '--gate-games', '--sprt', '--models']) {
      expect(help).toContain(o);
    }
    expect(help).toContain('gen<k>/teacher.bin');
  });
});
