/**
 * The lishogi Bot API endpoints Kishi calls, under the names of the lichess table (lishogi `conf/routes` and
 * `app/controllers/PlayApi.scala`; see the notes in types.ts). lishogi has no token test, no takeback or
 * claim-victory commands, no challenge cancel and no game export; the bot does without them.
 * Blocks after a 429 follow lichess's (a minute; a second for game-critical calls).
 */
import type { EndpointTable } from '../lichess/endpoints.js';

const MINUTE = 60_000;

export const LISHOGI_ENDPOINTS: EndpointTable = {
  account: { method: 'GET', path: '/api/account', kind: 'json', blockMs: MINUTE },
  playing: { method: 'GET', path: '/api/account/playing', kind: 'json', blockMs: MINUTE },
  upgrade: { method: 'POST', path: '/api/bot/account/upgrade', kind: 'json', blockMs: MINUTE },
  streamEvent: { method: 'GET', path: '/api/stream/event', kind: 'ndjson', blockMs: MINUTE },
  streamGame: { method: 'GET', path: '/api/bot/game/stream/{}', kind: 'ndjson', blockMs: MINUTE },
  move: { method: 'POST', path: '/api/bot/game/{}/move/{}', kind: 'json', blockMs: 1000, urgent: true },
  chat: { method: 'POST', path: '/api/bot/game/{}/chat', kind: 'json', blockMs: MINUTE },
  abort: { method: 'POST', path: '/api/bot/game/{}/abort', kind: 'json', blockMs: 1000, urgent: true },
  resign: { method: 'POST', path: '/api/bot/game/{}/resign', kind: 'json', blockMs: 1000, urgent: true },
  draw: { method: 'POST', path: '/api/bot/game/{}/draw/{}', kind: 'json', blockMs: 1000, urgent: true },
  accept: { method: 'POST', path: '/api/challenge/{}/accept', kind: 'json', blockMs: MINUTE },
  decline: { method: 'POST', path: '/api/challenge/{}/decline', kind: 'json', blockMs: MINUTE },
  challenge: { method: 'POST', path: '/api/challenge/{}', kind: 'json', blockMs: MINUTE },
  onlineBots: { method: 'GET', path: '/api/bot/online', kind: 'ndjson', blockMs: MINUTE },
  usersStatus: { method: 'GET', path: '/api/users/status', kind: 'json', blockMs: MINUTE },
};
