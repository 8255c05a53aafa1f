/**
 * Short flags mean one thing across the whole command line: walking every command and subcommand
 * that `buildProgram` registers with every module loaded, a short flag never stands for two different long names, and the
 * shared ones (-c/--config, -g/--game, -o/--out) are offered wherever their long name exists.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

interface Flag {
  readonly command: string;
  readonly short: string | undefined;
  readonly long: string | undefined;
}

const walk = (cmd: Command, path: string, out: Flag[]): Flag[] => {
  // hidden options are not offered (kishi csa keeps its old --game only to point at --game-name)
  for (const o of cmd.options) if (!o.hidden) out.push({ command: path, short: o.short, long: o.long });
  for (const sub of cmd.commands) walk(sub, `${path} ${sub.name()}`, out);
  return out;
};

const flags = walk(await buildProgram(['node', 'kishi'], true), 'kishi', []);

describe('short flags across commands', () => {
  it('walks every command (sanity: the program has subcommands with options)', () => {
    expect(new Set(flags.map((f) => f.command)).size).toBeGreaterThan(10);
    expect(flags.some((f) => f.long === '--config')).toBe(true);
  });

  it('never uses one short flag for two long names', () => {
    const byShort = new Map<string, Set<string>>();
    for (const f of flags) {
      if (f.short === undefined) continue;
      const longs = byShort.get(f.short) ?? new Set<string>();
      longs.add(f.long ?? '(none)');
      byShort.set(f.short, longs);
    }
    const clashes = [...byShort].filter(([, longs]) => longs.size > 1).map(([s, longs]) => {
      const where = flags.filter((f) => f.short === s).map((f) => `${f.command}: ${s}, ${f.long}`);
      return `${s} means ${[...longs].join(' and ')} (${where.join('; ')})`;
    });
    expect(clashes).toEqual([]);
  });

  it.each([
    ['--config', '-c'],
    ['--game', '-g'],
    ['--out', '-o'],
  ])('%s has its short flag %s wherever it exists', (long, short) => {
    const missing = flags.filter((f) => f.long === long && f.short !== short).map((f) => `${f.command}: ${f.short ?? '(no short)'}, ${long}`);
    expect(missing).toEqual([]);
  });
});
