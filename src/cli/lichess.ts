/**
 * `kishi lichess upgrade`: turns the account of LICHESS_TOKEN into a BOT account, after a confirmation
 * (or `--yes`). Exit codes: 0 upgraded or already a bot, 1 refused or failed, 2 bad config or no token.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { SECRET_ENV } from '../config/schema.js';
import { registerSecret } from '../log/redact.js';
import { upgradeAccount } from '../protocols/lichess/upgrade.js';

async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question}\nType "yes" to confirm: `);
    return answer.trim().toLowerCase() === 'yes';
  } finally {
    rl.close();
  }
}

export function register(program: Command): void {
  const lichess = program.command('lichess').description('lichess account tools');
  lichess
    .command('upgrade')
    .description('upgrade the account of LICHESS_TOKEN to a BOT account (irreversible; asks to confirm)')
    .option('-c, --config <file>', 'config file (YAML), for lichess.url', 'config/kishi.yaml')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (opts: { config: string; yes?: boolean }) => {
      const config = loadConfig(opts.config);
      if (config.isErr) {
        console.error(config.error.message);
        process.exit(2);
      }
      const token = process.env[SECRET_ENV.lichessToken]?.trim();
      if (!token) {
        console.error(`kishi lichess upgrade: ${SECRET_ENV.lichessToken} is not set in the environment`);
        process.exit(2);
      }
      registerSecret(token);
      const code = await upgradeAccount({
        baseUrl: config.value.lichess.url,
        token,
        confirm: opts.yes ? async () => true : ask,
        say: (line) => console.error(line),
      });
      process.exit(code);
    });
}
