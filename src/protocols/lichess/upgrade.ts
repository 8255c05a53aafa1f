/**
 * Upgrading a lichess account to a BOT account (`POST /api/bot/account/upgrade`). Irreversible, and lichess
 * refuses it for an account that has played games, so the caller confirms first.
 */
import type { Account } from './types.js';
import { LichessClient } from './client.js';

export interface UpgradeOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** Asks the user; true to go ahead. */
  readonly confirm: (question: string) => Promise<boolean>;
  /** A line for the user. */
  readonly say: (line: string) => void;
}

/** Runs the upgrade dialogue; returns the exit code (0 done or already a bot, 1 failed or refused). */
export async function upgradeAccount(opts: UpgradeOptions): Promise<number> {
  const client = new LichessClient({ baseUrl: opts.baseUrl, token: opts.token, retryForMs: 5000 });
  const account = await client.request<Account>('account');
  if (account.isErr) {
    opts.say(`cannot read the account behind LICHESS_TOKEN: ${account.error.message}`);
    return 1;
  }
  const name = account.value.data.username;
  client.setUser(name);
  if (account.value.data.title === 'BOT') {
    opts.say(`${name} is already a BOT account.`);
    return 0;
  }
  const ok = await opts.confirm(
    `Upgrade the lichess account ${name} to a BOT account? This cannot be undone, and the account can then only play through the Bot API.`,
  );
  if (!ok) {
    opts.say('Not upgraded.');
    return 1;
  }
  const r = await client.request('upgrade');
  if (r.isErr) {
    opts.say(`lichess refused the upgrade: ${r.error.message}`);
    return 1;
  }
  opts.say(`${name} is now a BOT account.`);
  return 0;
}
