/**
 * What a running server shows of itself to a read-only observer (the watch view of `kishi run` with
 * `web.enabled: always`): the lichess bot's challenge queue and daily bot-game count, the CSA
 * client's connection state. Plain data, taken fresh on each call; servers never learn who reads it,
 * so the layers above (src/web) depend on this shape and not on the front-ends.
 */

/** A challenge that passed every filter and waits for a free slot. */
export interface QueuedChallenge {
  readonly id: string;
  readonly challenger: string;
  readonly rating?: number;
  readonly variant: string;
  readonly speed: string;
  readonly rated: boolean;
  /** Seconds it has waited so far. */
  readonly waitedS: number;
}

/** The lichess bot's queue and limits. */
export interface LichessStatus {
  readonly kind: 'lichess';
  readonly name: string;
  /** The bot account once logged in. */
  readonly account?: string;
  readonly queue: readonly QueuedChallenge[];
  /** Games being played now, and the most played at once (`lichess.concurrency`). */
  readonly gamesInProgress: number;
  readonly concurrency: number;
  /** Games against bots in the last 24 hours, and the cap (`lichess.challenge.botGamesPerDay`). */
  readonly botGamesToday: number;
  readonly botGamesPerDay: number;
}

/** Where the CSA client stands: not connected, logged in and waiting for a game (or agreeing to one), playing. */
export type CsaPhase = 'disconnected' | 'connecting' | 'waiting' | 'in-game';

export interface CsaStatus {
  readonly kind: 'csa';
  readonly name: string;
  readonly phase: CsaPhase;
  /** The client's own state word (src/protocols/csa/client.ts CLIENT_STATES), for detail. */
  readonly state: string;
  /** Games finished so far in this process. */
  readonly gamesPlayed: number;
}

export type ServerStatus = LichessStatus | CsaStatus;

/** Reads every running server's status (`kishi run` hands one to the web server). */
export type ServerStatusSource = () => readonly ServerStatus[];
