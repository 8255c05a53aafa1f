/**
 * `--help` shows every default as a user would type it: walking every command that `buildProgram()`
 * registers, an option whose default is an object or a list carries its own wording (commander would
 * print it as JSON: `--shard` once read `(default: {"index":0,"count":1})`).
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const walk = (cmd: Command, path: string, out: string[]): string[] => {
  for (const o of cmd.options) {
    if (o.hidden || o.defaultValue === undefined || typeof o.defaultValue !== 'object') continue;
    if (o.defaultValueDescription === undefined) out.push(`${path} ${o.flags}: ${JSON.stringify(o.defaultValue)}`);
  }
  for (const sub of cmd.commands) walk(sub, `${path} ${sub.name()}`, out);
  return out;
};

describe('defaults in --help', () => {
  it('never shows a default as JSON', async () => {
    expect(walk(await buildProgram(['node', 'kishi'], true), 'kishi', [])).toEqual([]);
  });

  it('kishi datagen --help shows --shard as 0/1', async () => {
    const datagen = (await buildProgram(['node', 'kishi'], true)).commands.find((c) => c.name() === 'datagen')!;
    // Unwrapped: commander breaks lines at the terminal width.
    const help = datagen.helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--shard <i/n> this process plays games i, i+n, i+2n, ... (default: 0/1)');
    expect(help).not.toContain('"index"');
  });
});
