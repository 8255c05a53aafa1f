/**
 * The login a CSA session uses, checked before any connection: floodgate pairs only logins of the form
 * `<gameName>,<secret>` (the secret makes the rating identity `name+MD5(secret)`); a login without the
 * secret part is accepted by the server but never paired ("Nobody found",
 * tests/fixtures/csa/transcript-unrated-floodgate.txt), so it is refused here instead.
 */
import { Result } from '../../core/result.js';
import { ConfigError } from '../../config/load.js';
import type { ConfigIssue } from '../../config/load.js';
import type { CsaConfig } from '../../config/sections/csa.js';
import { SECRET_ENV } from '../../config/schema.js';

export interface CsaLogin {
  readonly user: string;
  readonly gameName: string;
  readonly secret: string;
  readonly x1: boolean;
}

/** Builds the login from the config and the secret (from CSA_PASSWORD), reporting every problem. */
export function csaLogin(
  config: Pick<CsaConfig, 'user' | 'gameName' | 'x1'>,
  secret: string | undefined,
): Result<CsaLogin, ConfigError> {
  const issues: ConfigIssue[] = [];
  const env = SECRET_ENV.csaPassword;
  if (secret === undefined || secret.trim() === '') {
    issues.push({
      path: 'csa',
      message: `${env} is not set: floodgate needs the login <gameName>,<secret> and never pairs a login without the secret part`,
    });
  } else if (/\s/.test(secret)) {
    issues.push({ path: 'csa', message: `${env} must not contain spaces (the LOGIN line is space-separated)` });
  } else if (secret.includes(',')) {
    issues.push({
      path: 'csa',
      message: `${env} must hold only the secret part; the game name comes from csa.gameName (the login becomes <gameName>,<secret>)`,
    });
  }
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(config.user)) issues.push({ path: 'csa.user', message: 'letters, digits, _ and - only, at most 32' });
  if (/^floodgate-/.test(config.gameName) && /-[BWbw]$/.test(config.gameName)) {
    issues.push({ path: 'csa.gameName', message: 'floodgate does not allow choosing a colour (-B/-W)' });
  }
  if (issues.length > 0) return Result.err(new ConfigError('csa login', issues));
  return Result.ok({ user: config.user, gameName: config.gameName, secret: secret!.trim(), x1: config.x1 });
}

/**
 * The `%%GAME` line that asks for `gameName` in x1 mode. shogi-server takes the colour there as the
 * command's second argument (`+` black, `-` white, `*` either) and refuses a game name with a colour
 * suffix (`##[ERROR] bad game name`), so `test-60-2F-B` becomes `%%GAME test-60-2F +` (the suffix `-B`/`-W`
 * of CSA mode, either case, as shogi-server's login accepts it).
 */
export function x1GameCommand(gameName: string): string {
  const m = /^(.*)-([BWbw])$/.exec(gameName);
  if (m === null) return `%%GAME ${gameName} *`;
  return `%%GAME ${m[1]} ${m[2]!.toUpperCase() === 'B' ? '+' : '-'}`;
}
