/**
 * The offers of one game and the requests lichess allows around them: the opponent's draw offers
 * (answered by the Thinker's draw condition) and takeback requests (granted up to `maxTakebacks`), the
 * abort of a game whose opponent makes no first move within `abortTimeS`, and the claim of the win after
 * `opponentGone` (when `claimVictory`). Offers are answered once each, when their flag rises (lila sends
 * the flags only while true).
 */
import type winston from 'winston';
import type { LichessConfig } from '../../../config/sections/lichess.js';
import type { LichessClient } from '../client.js';
import type { Color, GameStateEvent, OpponentGoneEvent } from '../types.js';

/** After accepting a draw, how long to wait for lichess's final state before thinking again, milliseconds. */
const DRAW_ACCEPT_WAIT_MS = 1000;

/** Claims of a win after `opponentGone`, and the wait between refused ones, milliseconds. */
const CLAIM_ATTEMPTS = 5;
const CLAIM_RETRY_MS = 2000;

export interface OffersDeps {
  readonly client: LichessClient;
  readonly gameId: string;
  readonly config: LichessConfig;
  readonly log: winston.Logger;
  /** Added to lichess's `claimWinInSeconds` before claiming, milliseconds. */
  readonly claimMarginMs: number;
  /** Takebacks granted in this game, kept on disk across restarts; absent: counted here. */
  readonly takebacks?: { used(): number; add(): void };
  /** Whether the game still goes on for us (requests for an ended game are dropped). */
  readonly live: () => boolean;
  /** Whether to accept a draw now (the Thinker's draw condition on our scores). */
  readonly acceptsDraw: () => boolean;
  /** Think again if it is our turn (after an accepted draw that did not happen). */
  readonly resumeThinking: () => void;
}

export class Offers {
  private takebacksAccepted = 0;
  private theirTakebackFlag = false;
  private theirDrawFlag = false;
  private abortTimer: NodeJS.Timeout | undefined;
  private abortForPly = -1;
  private abortDeadline = 0;
  private claimTimer: NodeJS.Timeout | undefined;
  /** A draw acceptance is on its way: we do not move (the move would fail or decline the draw). */
  acceptingDraw = false;

  constructor(private readonly deps: OffersDeps) {}

  /** Answers the opponent's offers that rose in this state; `color` is ours. */
  answer(state: GameStateEvent, color: Color): void {
    const { client, gameId: id, log } = this.deps;
    const stillWanted = (): boolean => this.deps.live();
    const theirDraw = (color === 'white' ? state.bdraw : state.wdraw) === true;
    const newDraw = theirDraw && !this.theirDrawFlag;
    this.theirDrawFlag = theirDraw;
    if (newDraw) {
      const accept = this.deps.acceptsDraw();
      log.info(`game ${id}: the opponent offers a draw; ${accept ? 'accepting' : 'declining'}`);
      if (accept) this.acceptingDraw = true;
      void client.request('draw', { args: [id, accept ? 'yes' : 'no'], stillWanted }).then((r) => {
        if (r.isErr) log.warn(`game ${id}: draw answer failed: ${r.error.message}`);
        if (!accept) return;
        // Accepted: the final gameState is on its way. Should the draw not happen after all (the offer was
        // withdrawn), think after a short wait rather than hang on a state that never comes.
        const resume = (): void => {
          this.acceptingDraw = false;
          this.deps.resumeThinking();
        };
        if (r.isErr) resume();
        else setTimeout(resume, DRAW_ACCEPT_WAIT_MS);
      });
    }
    const theirTakeback = (color === 'white' ? state.btakeback : state.wtakeback) === true;
    const newTakeback = theirTakeback && !this.theirTakebackFlag;
    this.theirTakebackFlag = theirTakeback;
    if (newTakeback) {
      const accept = (this.deps.takebacks?.used() ?? this.takebacksAccepted) < this.deps.config.maxTakebacks;
      if (accept) {
        this.takebacksAccepted++;
        this.deps.takebacks?.add();
      }
      log.info(`game ${id}: the opponent asks for a takeback; ${accept ? 'accepting' : 'declining'}`);
      void client.request('takeback', { args: [id, accept ? 'yes' : 'no'], stillWanted }).then((r) => {
        if (r.isErr) log.warn(`game ${id}: takeback answer failed: ${r.error.message}`);
      });
    }
  }

  /** Arms the abort timer while the opponent owes its first move (plies < 2, their turn); clears it otherwise. */
  updateAbort(plies: number, ourTurn: boolean): void {
    if (plies >= 2 || ourTurn) {
      clearTimeout(this.abortTimer);
      this.abortTimer = undefined;
      this.abortForPly = -1;
      return;
    }
    if (this.abortForPly === plies) return;
    this.abortForPly = plies;
    this.scheduleAbort(Date.now() + this.deps.config.abortTimeS * 1000);
  }

  /** Gives the opponent `ms` more before the abort (chat `!wait`); false when no abort is pending. */
  extendAbort(ms: number): boolean {
    if (this.abortTimer === undefined) return false;
    this.scheduleAbort(this.abortDeadline + ms);
    return true;
  }

  /** The opponent left (or came back): claim the win once lichess allows it, when configured. */
  opponentGone(ev: OpponentGoneEvent): void {
    clearTimeout(this.claimTimer);
    this.claimTimer = undefined;
    if (!ev.gone || !this.deps.config.claimVictory) return;
    const wait = (ev.claimWinInSeconds ?? 0) * 1000 + this.deps.claimMarginMs;
    this.claimTimer = setTimeout(() => this.claimVictory(CLAIM_ATTEMPTS), wait);
  }

  /** The game is over for us: no more timers. */
  clear(): void {
    clearTimeout(this.abortTimer);
    clearTimeout(this.claimTimer);
    this.abortTimer = this.claimTimer = undefined;
  }

  private scheduleAbort(deadline: number): void {
    const { client, gameId: id, log } = this.deps;
    clearTimeout(this.abortTimer);
    this.abortDeadline = deadline;
    this.abortTimer = setTimeout(
      () => {
        if (!this.deps.live()) return;
        log.info(`game ${id}: the opponent made no first move in time; aborting`);
        void client.request('abort', { args: [id], retryRateLimited: true, stillWanted: () => this.deps.live() }).then((r) => {
          if (r.isErr) log.warn(`game ${id}: abort failed: ${r.error.message}`);
        });
      },
      Math.max(0, deadline - Date.now()),
    );
  }

  /** Claims the win; lichess may still say it is too early, so a refused claim is tried again a little later. */
  private claimVictory(attemptsLeft: number): void {
    const { client, gameId: id, log } = this.deps;
    if (!this.deps.live()) return;
    log.info(`game ${id}: the opponent left; claiming the win`);
    void client.request('claimVictory', { args: [id], retryRateLimited: true, stillWanted: () => this.deps.live() }).then((r) => {
      if (r.isOk || !this.deps.live() || r.error.kind === 'cancelled') return;
      log.warn(`game ${id}: claim-victory failed: ${r.error.message}`);
      if (attemptsLeft > 1) this.claimTimer = setTimeout(() => this.claimVictory(attemptsLeft - 1), CLAIM_RETRY_MS);
    });
  }
}
