/**
 * The Redis connection of the job queue, from one URL: `redis://[user][:password@]host[:port][/db]`,
 * or `rediss://...` for TLS (RFC 3986 authority; the scheme names of the IANA registration of
 * `redis` and `rediss`). The password may also come from the environment (`KISHI_QUEUE_PASSWORD`),
 * so that it never has to sit in a unit file or a shell history. Either way it is registered with
 * the log redaction (src/log/redact.ts) before anything is logged, and `display` is the URL without
 * it: the only form of the URL that may be printed.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { RedisOptions } from 'ioredis';
import { KishiError, Result } from '../core/result.js';
import { registerSecret } from '../log/redact.js';

/** Environment variable of the Redis password (used when the URL carries none). */
export const QUEUE_PASSWORD_ENV = 'KISHI_QUEUE_PASSWORD';
/** Environment variable naming a PEM file of the CA that signed the server's certificate (rediss://). */
export const QUEUE_TLS_CA_ENV = 'KISHI_QUEUE_TLS_CA';

export interface QueueConnection {
  /** ioredis options (BullMQ takes them as `connection`). */
  readonly options: RedisOptions;
  /** The URL with the password replaced by `***`: safe to log. */
  readonly display: string;
  readonly tls: boolean;
}

const bad = (m: string): Result<never, KishiError> => Result.err(new KishiError('ERR_QUEUE_URL', m));

/** TCP connect timeout of every queue connection, ms (a host that drops packets). */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Parses the URL. Reconnection never gives up (a Redis restart must not end a worker or a
 * producer), and commands wait for the connection instead of failing (`maxRetriesPerRequest:
 * null`, which BullMQ workers require). A TCP connect that hangs gives up after
 * {@link CONNECT_TIMEOUT_MS} (and is retried); a server that accepts but never answers is caught
 * by the producers' command deadline (producer-queue.ts) and by the workers' `commandTimeout` on
 * their own plain connection.
 */
export const parseQueueUrl = (url: string, env: NodeJS.ProcessEnv = process.env): Result<QueueConnection, KishiError> => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // The text may hold a password: it is not quoted.
    return bad('the queue URL is not a URL (expected redis://host:port or rediss://host:port; the text given is not shown, it may hold a password)');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') return bad(`the queue URL must start with redis:// or rediss:// (TLS), not ${u.protocol}//`);
  if (u.hostname === '') return bad('the queue URL names no host');
  const port = u.port === '' ? 6379 : Number(u.port);
  const dbText = u.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) return bad(`the queue URL's database must be a whole number, not ${JSON.stringify(dbText)}`);
  const password = u.password !== '' ? decodeURIComponent(u.password) : env[QUEUE_PASSWORD_ENV]?.trim() || undefined;
  const username = u.username !== '' ? decodeURIComponent(u.username) : undefined;
  registerSecret(password);
  // As typed too (percent-encoded): a command line echoed into a log or a state file holds that form.
  if (u.password !== '') registerSecret(u.password);
  // Short passwords are not masked by redact (too many false hits): refuse them rather than leak them.
  if (password !== undefined && password.length < 4) return bad('the queue password is shorter than 4 characters; use a longer one (it is masked in logs only from 4 characters on)');
  const tls = u.protocol === 'rediss:';
  let ca: Buffer | undefined;
  const caFile = env[QUEUE_TLS_CA_ENV];
  if (tls && caFile !== undefined && caFile !== '') {
    try {
      ca = readFileSync(caFile);
    } catch (e) {
      return bad(`${QUEUE_TLS_CA_ENV}=${caFile}: cannot read (${(e as Error).message})`);
    }
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const options: RedisOptions = {
    host,
    port,
    db,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    // SNI carries host names only (RFC 6066 section 3); an address is checked against the certificate's IP entries.
    ...(tls ? { tls: { ...(isIP(host) === 0 ? { servername: host } : {}), ...(ca !== undefined ? { ca } : {}) } } : {}),
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times: number) => Math.min(200 * times, 5000),
  };
  const auth = password !== undefined ? `${username ?? ''}:***@` : username !== undefined ? `${username}@` : '';
  return Result.ok({ options, display: `${u.protocol}//${auth}${u.host}${db !== 0 ? `/${db}` : ''}`, tls });
};

/**
 * Why a connection error is permanent (retrying cannot help: a wrong password or user, a server
 * certificate that does not verify, a TLS/plain mismatch), or undefined for a transient one (a
 * refused or lost connection: Redis restarting). The text is Redis's or OpenSSL's, never the password.
 */
export function permanentConnectionError(e: Error & { code?: string }): string | undefined {
  const m = e.message;
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password|NOPERM|ERR AUTH/i.test(m)) return `the server refused the credentials (${m.split('\n')[0]}); check KISHI_QUEUE_PASSWORD or the URL's user`;
  const tlsCodes = ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_SSL_WRONG_VERSION_NUMBER'];
  if ((e.code !== undefined && tlsCodes.includes(e.code)) || /certificate|self[- ]signed|wrong version number|unable to verify/i.test(m)) {
    return `TLS failed (${m.split('\n')[0]}): a private CA goes in ${QUEUE_TLS_CA_ENV}; rediss:// needs a TLS port, redis:// a plain one`;
  }
  return undefined;
}
