/**
 * `kishi lichess upgrade` and `kishi lishogi upgrade`: turn the account of LICHESS_TOKEN (LISHOGI_TOKEN)
 * into a BOT account, after a confirmation (or `--yes`). Exit codes: 0 upgraded or already a bot, 1
 * refused or failed, 2 bad config or no token.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import type { KishiConfig } from '../config/schema.js';
import { registerSecret } from '../log/redact.js';
import type { ServerProfile } from '../protocols/lichess/server-profile.js';
import { LICHESS_PROFILE } from '../protocols/lichess/server-profile.js';
import { upgradeAccount } from '../protocols/lichess/upgrade.js';
import { LISHOGI_PROFILE } from '../protocols/lishogi/profile.js';

async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question}\nType "yes" to confirm: `);
    return answer.trim().toLowerCase() === 'yes';
  } finally {
    rl.close();
  }
}

function registerUpgrade(program: Command, profile: ServerProfile, urlOf: (c: KishiConfig) => string): void {
  const name = profile.name;
  const group = program.command(name).description(`${name} account tools`);
  group
    .command('upgrade')
    .description(`upgrade the account of ${profile.tokenEnv} to a BOT account (irreversible; asks to confirm)`)
    .option('-c, --config <file>', `config file (YAML), for ${name}.url`, 'config/kishi.yaml')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (opts: { config: string; yes?: boolean }) => {
      const config = loadConfig(opts.config);
      if (config.isErr) {
        console.error(config.error.message);
        process.exit(2);
      }
      const token = process.env[profile.tokenEnv]?.trim();
      if (!token) {
        console.error(`kishi ${name} upgrade: ${profile.tokenEnv} is not set in the environment`);
        process.exit(2);
      }
      registerSecret(token);
      const code = await upgradeAccount({
        baseUrl: urlOf(config.value),
        token,
        confirm: opts.yes ? async () => true : ask,
        say: (line) => console.error(line),
        profile,
      });
      process.exit(code);
    });
}

export function register(program: Command): void {
  registerUpgrade(program, LICHESS_PROFILE, (c) => c.lichess.url);
  registerUpgrade(program, LISHOGI_PROFILE, (c) => c.lishogi.url);
}
