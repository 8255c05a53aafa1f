/**
 * The shared shape of `kishi uci` and `kishi usi`: options, then the protocol until `quit`.
 * Exit codes: 0 after `quit` or end of input, 2 for a bad config.
 */
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { Dialect } from '../protocols/uci/dialect.js';
import { DEFAULT_MOVE_OVERHEAD_MS, runEngine } from '../protocols/uci/run-engine.js';

const milliseconds = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 60000) throw new InvalidArgumentError(`expected milliseconds 0..60000, got "${v}"`);
  return n;
};

export function engineCommand(program: Command, name: string, description: string, dialect: Dialect): void {
  program
    .command(name)
    .description(description)
    .option('-c, --config <file>', 'engine option defaults (hash, ponder, search, weights) and logging from this config file')
    .option('--move-overhead <ms>', 'default of the move overhead option, milliseconds', milliseconds, DEFAULT_MOVE_OVERHEAD_MS)
    .action(async (opts: { config?: string; moveOverhead: number }) => {
      const r = await runEngine(dialect, { ...(opts.config !== undefined ? { config: opts.config } : {}), moveOverheadMs: opts.moveOverhead });
      if (r.isErr) {
        process.stderr.write(`kishi ${name}: ${r.error.message}\n`);
        process.exit(2);
      }
      process.exit(0);
    });
}
