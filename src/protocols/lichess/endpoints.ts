/**
 * The endpoint table of the lichess Bot API (as lichess-bot's `ENDPOINTS`). Each entry names the
 * method, the path template (`{}` filled in order), how a request is framed, and how long the endpoint is
 * blocked after an HTTP 429 when the server gives no `Retry-After` (the API asks for a full minute;
 * lichess-bot uses 1 s for moves so that a game is not lost on time).
 *
 * A server built on lichess's code (lishogi) serves a subset under the same names: its table is an
 * `EndpointTable` in its server profile (src/protocols/lishogi/profile.ts), and the client looks every
 * call up in the table it was given; a name the table lacks is a call that server does not offer.
 */

export interface Endpoint {
  readonly method: 'GET' | 'POST';
  /** Path with `{}` placeholders, filled in order and URI-encoded. */
  readonly path: string;
  /** `ndjson`: a long-lived stream, outside the one-request-at-a-time queue. */
  readonly kind: 'json' | 'ndjson' | 'text';
  /** Block after a 429 without `Retry-After`, milliseconds. */
  readonly blockMs: number;
  /** A request whose body or response must never be written to a transcript (the token test). */
  readonly sensitive?: boolean;
  /** Game-critical calls jump ahead of chat and challenge traffic in the queue. */
  readonly urgent?: boolean;
}

const MINUTE = 60_000;

export const ENDPOINTS = {
  account: { method: 'GET', path: '/api/account', kind: 'json', blockMs: MINUTE },
  playing: { method: 'GET', path: '/api/account/playing', kind: 'json', blockMs: MINUTE },
  tokenTest: { method: 'POST', path: '/api/token/test', kind: 'json', blockMs: MINUTE, sensitive: true },
  upgrade: { method: 'POST', path: '/api/bot/account/upgrade', kind: 'json', blockMs: MINUTE },
  streamEvent: { method: 'GET', path: '/api/stream/event', kind: 'ndjson', blockMs: MINUTE },
  streamGame: { method: 'GET', path: '/api/bot/game/stream/{}', kind: 'ndjson', blockMs: MINUTE },
  move: { method: 'POST', path: '/api/bot/game/{}/move/{}', kind: 'json', blockMs: 1000, urgent: true },
  chat: { method: 'POST', path: '/api/bot/game/{}/chat', kind: 'json', blockMs: MINUTE },
  abort: { method: 'POST', path: '/api/bot/game/{}/abort', kind: 'json', blockMs: 1000, urgent: true },
  resign: { method: 'POST', path: '/api/bot/game/{}/resign', kind: 'json', blockMs: 1000, urgent: true },
  draw: { method: 'POST', path: '/api/bot/game/{}/draw/{}', kind: 'json', blockMs: 1000, urgent: true },
  takeback: { method: 'POST', path: '/api/bot/game/{}/takeback/{}', kind: 'json', blockMs: 1000, urgent: true },
  claimVictory: { method: 'POST', path: '/api/bot/game/{}/claim-victory', kind: 'json', blockMs: 1000, urgent: true },
  claimDraw: { method: 'POST', path: '/api/bot/game/{}/claim-draw', kind: 'json', blockMs: 1000, urgent: true },
  accept: { method: 'POST', path: '/api/challenge/{}/accept', kind: 'json', blockMs: MINUTE },
  decline: { method: 'POST', path: '/api/challenge/{}/decline', kind: 'json', blockMs: MINUTE },
  challenge: { method: 'POST', path: '/api/challenge/{}', kind: 'json', blockMs: MINUTE },
  cancel: { method: 'POST', path: '/api/challenge/{}/cancel', kind: 'json', blockMs: MINUTE },
  onlineBots: { method: 'GET', path: '/api/bot/online', kind: 'ndjson', blockMs: MINUTE },
  exportGame: { method: 'GET', path: '/game/export/{}', kind: 'text', blockMs: MINUTE },
  cloudEval: { method: 'GET', path: '/api/cloud-eval', kind: 'json', blockMs: MINUTE },
  usersStatus: { method: 'GET', path: '/api/users/status', kind: 'json', blockMs: MINUTE },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The endpoints one server offers, by name; lichess offers them all. */
export type EndpointTable = Readonly<Partial<Record<EndpointName, Endpoint>>>;

/** Fills a path template; every argument is URI-encoded (game ids and UCI moves are plain, user names may not be). */
export function endpointPath(name: EndpointName, args: readonly string[], table: EndpointTable = ENDPOINTS): string {
  const spec = table[name];
  if (spec === undefined) throw new Error(`endpoint ${name}: not offered by this server`);
  const template: string = spec.path;
  let i = 0;
  const path = template.replace(/\{\}/g, () => {
    const arg = args[i++];
    if (arg === undefined) throw new Error(`endpoint ${name}: missing path argument ${i}`);
    return encodeURIComponent(arg);
  });
  if (i !== args.length) throw new Error(`endpoint ${name}: ${args.length} path arguments for ${i} placeholders`);
  return path;
}

/** The entry of an endpoint, widened to `Endpoint` so optional flags read as `undefined`; undefined when the table lacks it. */
export const endpointSpec = (name: EndpointName, table: EndpointTable = ENDPOINTS): Endpoint | undefined => table[name];
