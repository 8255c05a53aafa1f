/**
 * `search: auto`: MCTS with the net when a model is loaded, alpha-beta otherwise. Per request:
 * - alpha-beta when there is no usable model (missing, corrupt or mismatching file: one clear log
 *   line the first time, never a crash); for `go mate` and `go depth` (depth is an alpha-beta
 *   notion, and mate scores in moves need its exact search); and when our remaining clock (main
 *   time plus byoyomi) is below `minClockMs`, where the net's slower, shallower search is the wrong
 *   tool;
 * - MCTS otherwise; if an MCTS search fails anyway (worker crash), the same request is answered by
 *   alpha-beta and the failure is logged.
 * `stop` and `ponderhit` go to the player that is searching.
 */
import type { GameKind, Side } from '../core/game.js';
import { childLogger } from '../log/logger.js';
import type { AlphaBetaPlayer } from './alphabeta-player.js';
import type { MctsPlayer } from './mcts-player.js';
import type { GoRequest, GoResult, Player, SearchInfo } from './player.js';

export interface AutoPlayerSettings {
  readonly game: GameKind;
  /** The MCTS player, or undefined when the model files failed the start-up check. */
  readonly mcts: MctsPlayer | undefined;
  readonly alphabeta: AlphaBetaPlayer;
  /** Below this remaining clock (ms, main time + byoyomi), alpha-beta plays. */
  readonly minClockMs: number;
  /** Where log lines go (default: the `player/auto` logger). */
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

/** The side to move of a request (from the start text and the number of moves). */
export const sideToMove = (request: GoRequest): Side => {
  let first = true;
  if (request.start !== 'startpos') {
    const parts = request.start.trim().split(/\s+/);
    first = request.game === 'chess' ? parts[1] !== 'b' : parts[1] !== 'w';
  }
  return (request.moves.length % 2 === 0) === first ? 'first' : 'second';
};

export class AutoPlayer implements Player {
  readonly name = 'Kishi 0.1 (auto: MCTS / alpha-beta)';
  private readonly settings: AutoPlayerSettings;
  private mcts: MctsPlayer | undefined;
  private active: Player | undefined;
  private readonly log: (level: 'info' | 'warn', message: string) => void;
  /** Which engine answered the last request (for tests and the log). */
  lastEngine: 'mcts' | 'alphabeta' | undefined;

  constructor(settings: AutoPlayerSettings) {
    this.settings = settings;
    this.mcts = settings.mcts;
    if (settings.log !== undefined) this.log = settings.log;
    else {
      const logger = childLogger('player/auto');
      this.log = (level, message) => logger.log(level, message);
    }
  }

  supports(game: GameKind, variant: string): boolean {
    return this.settings.alphabeta.supports(game, variant);
  }

  async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    const mcts = await this.usableMcts();
    const limits = request.limits;
    if (mcts !== undefined && limits?.mate !== true && limits?.depth === undefined && !this.clockTooLow(request)) {
      this.active = mcts;
      this.lastEngine = 'mcts';
      try {
        return await mcts.go(request, onInfo);
      } catch (e) {
        this.log('warn', `MCTS search failed (${(e as Error).message.split('\n')[0]}); alpha-beta answers this move`);
      }
    }
    this.active = this.settings.alphabeta;
    this.lastEngine = 'alphabeta';
    return this.settings.alphabeta.go(request, onInfo);
  }

  stop(): void {
    this.active?.stop();
  }

  ponderhit(): void {
    this.active?.ponderhit();
  }

  async newGame(): Promise<void> {
    await Promise.all([this.settings.alphabeta.newGame(), this.mcts?.newGame().catch(() => undefined)]);
  }

  async close(): Promise<void> {
    await Promise.all([this.settings.alphabeta.close(), this.mcts?.close()]);
  }

  /** The MCTS player if its model loaded; logs and forgets it the first time it did not. */
  private async usableMcts(): Promise<MctsPlayer | undefined> {
    const mcts = this.mcts;
    if (mcts === undefined) return undefined;
    const ok = await mcts.ready();
    if (ok.isOk) return mcts;
    this.log('warn', `no usable ${this.settings.game} model (${ok.error.message}); playing with alpha-beta`);
    this.mcts = undefined;
    void mcts.close();
    return undefined;
  }

  private clockTooLow(request: GoRequest): boolean {
    const clock = request.clock;
    if (clock === undefined || request.limits?.infinite === true) return false;
    const side = sideToMove(request);
    const remaining = (side === 'first' ? clock.firstMs : clock.secondMs) + Math.max(0, clock.byoyomiMs);
    return remaining < this.settings.minClockMs;
  }
}
