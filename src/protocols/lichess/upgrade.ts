/**
 * Upgrading a lichess (or lishogi) account to a BOT account (`POST /api/bot/account/upgrade`). Irreversible,
 * and the server refuses it for an account that has played games, so the caller confirms first.
 */
import type { Account } from './types.js';
import { LichessClient } from './client.js';
import type { ServerProfile } from './server-profile.js';
import { LICHESS_PROFILE } from './server-profile.js';

export interface UpgradeOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** Asks the user; true to go ahead. */
  readonly confirm: (question: string) => Promise<boolean>;
  /** A line for the user. */
  readonly say: (line: string) => void;
  /** The server (default lichess). */
  readonly profile?: Pick<ServerProfile, 'name' | 'tokenEnv' | 'endpoints'>;
}

/** Runs the upgrade dialogue; returns the exit code (0 done or already a bot, 1 failed or refused). */
export async function upgradeAccount(opts: UpgradeOptions): Promise<number> {
  const { name: server, tokenEnv, endpoints } = opts.profile ?? LICHESS_PROFILE;
  const client = new LichessClient({ baseUrl: opts.baseUrl, token: opts.token, retryForMs: 5000, endpoints });
  const account = await client.request<Account>('account');
  if (account.isErr) {
    opts.say(`cannot read the account behind ${tokenEnv}: ${account.error.message}`);
    return 1;
  }
  const name = account.value.data.username;
  client.setUser(name);
  if (account.value.data.title === 'BOT') {
    opts.say(`${name} is already a BOT account.`);
    return 0;
  }
  const ok = await opts.confirm(
    `Upgrade the ${server} account ${name} to a BOT account? This cannot be undone, and the account can then only play through the Bot API.`,
  );
  if (!ok) {
    opts.say('Not upgraded.');
    return 1;
  }
  const r = await client.request('upgrade');
  if (r.isErr) {
    opts.say(`${server} refused the upgrade: ${r.error.message}`);
    return 1;
  }
  opts.say(`${name} is now a BOT account.`);
  return 0;
}
