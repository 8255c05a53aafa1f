/**
 * Runs one `kishi` subcommand through commander in process, as the CLI would, capturing what it
 * prints (console.log as `out`; console.error and stderr as `err`) and its exit code.
 */
import { Command } from 'commander';
import { vi } from 'vitest';

export async function runCommand(register: (program: Command) => void, name: string, args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const program = new Command().exitOverride();
  register(program);
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
  process.exitCode = 0;
  try {
    await program.parseAsync(['node', 'kishi', name, ...args]);
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, out: out.join('\n'), err: err.join('') };
}
