/** What a lichess game handler is given, and what it reports when it stops. */
import type winston from 'winston';
import type { GameKind } from '../../../core/game.js';
import type { Result } from '../../../core/result.js';
import type { KishiError } from '../../../core/result.js';
import type { LichessConfig } from '../../../config/sections/lichess.js';
import type { PlayerLease } from '../../../bot/dispatcher.js';
import type { LichessClient } from '../client.js';
import type { MoveSourceChain } from '../move-sources/move-source.js';
import type { Color, GameFullEvent, GameStatus } from '../types.js';
import type { GameLine } from '../game-line.js';
import type { ServerProfile } from '../server-profile.js';
import type { LineFactory } from './position-sync.js';

/**
 * The rules a game is played by: the game kind the Player is asked about and the line that follows the
 * server's moves. Chess (`ChessLine`, chessops; PGN records, move sources) unless a front-end for another
 * server of the same API passes its own (lishogi: a shogi line over shogiops).
 */
export interface GameRules {
  readonly game: GameKind;
  readonly createLine: LineFactory<GameLine>;
  /** The server's name in the game log header (`lichess`, `lishogi`). */
  readonly server: string;
}

/** Timings that tests shrink; production values in the comments. */
export interface GameTimings {
  /** Reconnect a silent game stream (config `gameStreamSilenceMs`; 0: the server's keep-alive cadence + 1.5 s). */
  readonly silenceMs: number;
  readonly reconnectMinMs: number;
  readonly reconnectMaxMs: number;
  /** Added to lichess's `claimWinInSeconds` before claiming, milliseconds. */
  readonly claimMarginMs: number;
}

export interface GameDeps {
  readonly client: LichessClient;
  readonly gameId: string;
  /** Our account. */
  readonly me: { readonly id: string; readonly username: string };
  readonly config: LichessConfig;
  readonly moveOverheadMs: number;
  /** Think on the opponent's time (config `engine.ponder`); in correspondence games `correspondence.ponder` decides. */
  readonly ponder?: boolean;
  /** Leases a Player for this game's variant. */
  readonly acquirePlayer: (variant: string) => Promise<Result<PlayerLease, KishiError>>;
  readonly engineName: string;
  /** `records.dir/lichess`, or undefined for no records. */
  readonly recordsDir: string | undefined;
  readonly timings: GameTimings;
  readonly log: winston.Logger;
  /** Challenges waiting, for `!queue`. */
  readonly queued: () => number;
  /** The game's `gameFull` arrived (the bot learns the opponent and the speed). */
  readonly onFull?: (full: GameFullEvent, ourColor: Color) => void;
  /** Book, online sources and tablebases asked before the Player (move-sources/); undefined: none. */
  readonly moveSources?: MoveSourceChain;
  /** Takebacks granted in this game, kept on disk across restarts (bot-state.ts). */
  readonly takebacks?: { used(): number; add(): void };
  /** The game's rules; default: the profile's (chess on lichess, shogi on lishogi). */
  readonly rules?: GameRules;
  /** The server (default lichess): how stream lines read, the rules, the clock. */
  readonly profile?: ServerProfile;
}

/** How a game handler stopped. */
export interface GameEnd {
  readonly gameId: string;
  /** The lichess status, or `disconnected` (we left: correspondence wait, shutdown, stream gone for good). */
  readonly status: GameStatus | 'disconnected';
  readonly winner?: Color;
  readonly ourColor?: Color;
  readonly plies: number;
  /**
   * A game left to wait, parked until it is our move again: a correspondence game while the opponent
   * thinks, or a lishogi game adjourned (`paused`).
   */
  readonly correspondence: boolean;
  readonly opponent?: { readonly id: string; readonly name: string; readonly isBot: boolean };
}
