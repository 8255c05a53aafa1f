/**
 * `kishi run`: the bot. Loads the config and the secrets, then starts every enabled server
 * (lichess, CSA) in one process.
 */
import type { Command } from 'commander';
import { loadConfig, readSecrets } from '../config/load.js';
import { configureLogging, childLogger } from '../log/logger.js';
import { registerSecret } from '../log/redact.js';

export function register(program: Command): void {
  program
    .command('run')
    .description('play on the servers enabled in the config (lichess, floodgate)')
    .option('-c, --config <file>', 'config file (YAML)', 'config/kishi.yaml')
    .action(async (opts: { config: string }) => {
      const config = loadConfig(opts.config);
      if (config.isErr) {
        console.error(config.error.message);
        process.exit(2);
      }
      const secrets = readSecrets(config.value);
      if (secrets.isErr) {
        for (const issue of secrets.error.issues) console.error(`kishi run: ${issue.message}`);
        process.exit(2);
      }
      registerSecret(secrets.value.lichessToken);
      registerSecret(secrets.value.csaPassword);
      configureLogging({ level: config.value.log.level, dir: config.value.log.dir });
      const log = childLogger('run');
      const servers = [config.value.lichess.enabled && 'lichess', config.value.csa.enabled && 'csa'].filter(Boolean);
      if (servers.length === 0) {
        console.error('kishi run: no server is enabled in the config (set lichess.enabled or csa.enabled)');
        process.exit(2);
      }
      // The bot clients are not built yet: say so plainly instead of pretending to play.
      log.error(`kishi run: the ${servers.join(' and ')} client is not implemented yet; nothing is played`);
      console.error(`kishi run: the ${servers.join(' and ')} client is not implemented yet; nothing is played`);
      process.exit(1);
    });
}
