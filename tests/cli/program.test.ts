/**
 * The lazy command table of src/cli/program.ts: its names and descriptions are the modules' own
 * (so `kishi --help` lists what `kishi <command> --help` describes), `commandOf` finds the command
 * being run, and a program built for one command loads that module only (the others are stubs
 * without options).
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, COMMANDS, commandOf } from '../../src/cli/program.js';

describe('the command table', () => {
  it("lists each module's commands with their own descriptions, in the help's order", async () => {
    for (const entry of COMMANDS) {
      const p = new Command();
      (await entry.load()).register(p);
      expect(p.commands.map((c) => [c.name(), c.description()])).toEqual(entry.commands.map(([n, d]) => [n, d]));
    }
    const full = await buildProgram(['node', 'kishi'], true);
    const lazy = await buildProgram(['node', 'kishi', '--help']);
    expect(lazy.commands.map((c) => [c.name(), c.description()])).toEqual(full.commands.map((c) => [c.name(), c.description()]));
  });

  it('finds the command being run', () => {
    expect(commandOf(['node', 'kishi', 'uci'])).toBe('uci');
    expect(commandOf(['node', 'kishi', '--help'])).toBeUndefined();
    expect(commandOf(['node', 'kishi', 'help', 'match'])).toBe('match');
    expect(commandOf(['node', 'kishi', 'train', 'treestrap', '--games', '3'])).toBe('train');
  });

  it('registers the command being run in full and the others as stubs', async () => {
    const p = await buildProgram(['node', 'kishi', 'perft', '--depth', '2']);
    const perft = p.commands.find((c) => c.name() === 'perft')!;
    const match = p.commands.find((c) => c.name() === 'match')!;
    expect(perft.options.length).toBeGreaterThan(0);
    expect(match.options).toEqual([]);
  });
});
