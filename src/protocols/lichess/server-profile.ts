/**
 * What differs between servers built on lichess's code (lichess, lishogi) as far as the bot client goes:
 * the base URL's defaults, the endpoints offered, how stream lines read, which rules the games follow
 * (chess or shogi), and a few habits. One client (client.ts), one resilient stream (stream.ts) with its
 * watchdog, backoff and rate limits, one bot (bot.ts) and one game handler serve every profile; the
 * lishogi profile lives in src/protocols/lishogi/profile.ts.
 */
import type { ClockState } from '../../core/clock.js';
import type { GameKind } from '../../core/game.js';
import type { KishiError, Result } from '../../core/result.js';
import { ChessLine } from './chess-line.js';
import type { EndpointTable } from './endpoints.js';
import { ENDPOINTS } from './endpoints.js';
import type { GameLine } from './game-line.js';
import type { Color, GameFullEvent, GameStateEvent, GameStreamEvent, IncomingEvent, PlayingGame } from './types.js';
import { isGameStreamEvent, isIncomingEvent } from './types.js';

/** What a profile needs to turn the server's clock into the Player's. */
export interface ClockInput {
  readonly state: GameStateEvent;
  readonly full: GameFullEvent;
  readonly ourColor: Color;
  /** How long our clock has run since the state arrived (0 before it runs), milliseconds. */
  readonly elapsedMs: number;
}

export interface ServerProfile {
  /** Short name for logs, records (`records.dir/<name>/`) and the status page. */
  readonly name: 'lichess' | 'lishogi';
  /** The game its games are played in. */
  readonly game: GameKind;
  /** The endpoints this server offers. */
  readonly endpoints: EndpointTable;
  /** The environment variable that holds the token (for messages a user can act on). */
  readonly tokenEnv: string;
  /** The command that upgrades the account to a BOT account (for the not-a-bot message). */
  readonly upgradeHint: string;
  /** One event-stream line in the lichess shapes (types.ts), or undefined to ignore it. */
  readonly incomingEvent: (line: unknown) => IncomingEvent | undefined;
  /** One game-stream line in the lichess shapes, or undefined to ignore it. */
  readonly gameStreamEvent: (line: unknown) => GameStreamEvent | undefined;
  /** One entry of `/api/account/playing`'s `nowPlaying` in the lichess shape, or undefined to skip it. */
  readonly playingGame: (entry: unknown) => PlayingGame | undefined;
  /**
   * Whether the players' and the spectators' chats are one room (lishogi since WandererXII/lishogi@51be91d1,
   * "Merge game and analysis board chats": both rooms write to the game's one chat and every line comes back
   * labelled `player`), so that a spectators' message reaches the opponent.
   */
  readonly oneChatRoom: boolean;
  /**
   * How often the server writes a keep-alive (a blank line) on a quiet bot game stream, milliseconds: the
   * longest a healthy stream stays silent, from which the stall threshold is set (gameSilenceMs).
   */
  readonly gameKeepAliveMs: number;
  /** Whether a decline carries a reason (lichess: yes; lishogi's decline takes none). */
  readonly declineReasons: boolean;
  /**
   * How long the server holds a bot's move before playing it in a game without a human, milliseconds
   * (lishogi `BotPlayer`: 750 ms; lichess: 0). The clock runs meanwhile, so it is added to the move overhead.
   */
  readonly botMoveDelayMs: number;
  /** The game's moves as the handler follows them (chess: ChessLine; shogi: ShogiLine). */
  readonly createLine: (variant: string, initial: string) => Result<GameLine, KishiError>;
  /** The clock the Player plans from (a real-time game). */
  readonly clockState: (input: ClockInput) => ClockState;
}

/**
 * Past the server's keep-alive cadence, the margin before a silent game stream counts as stalled: the
 * server's scheduler and the network's jitter; milliseconds.
 */
export const GAME_SILENCE_MARGIN_MS = 1500;

/**
 * The stall threshold of a game stream: `configured` when set (> 0), else the profile's keep-alive
 * cadence plus GAME_SILENCE_MARGIN_MS (lichess 8.5 s, lishogi 7.5 s; it was a fixed 10 s, all of it
 * clock lost per stall on our move).
 */
export function gameSilenceMs(profile: Pick<ServerProfile, 'gameKeepAliveMs'>, configured: number): number {
  return configured > 0 ? configured : profile.gameKeepAliveMs + GAME_SILENCE_MARGIN_MS;
}

/** lichess: both clocks with their increments; ours less what has run since the state came. */
export function lichessClockState({ state, ourColor, elapsedMs }: ClockInput): ClockState {
  const us = ourColor === 'white';
  // The move overhead is the Player's to keep back.
  const now = (ms: number, ours: boolean): number => (ours ? Math.max(0, ms - elapsedMs) : ms);
  return {
    firstMs: now(state.wtime, us),
    secondMs: now(state.btime, !us),
    firstIncMs: state.winc,
    secondIncMs: state.binc,
    byoyomiMs: 0,
  };
}

export const LICHESS_PROFILE: ServerProfile = {
  name: 'lichess',
  game: 'chess',
  endpoints: ENDPOINTS,
  tokenEnv: 'LICHESS_TOKEN',
  upgradeHint: 'run `kishi lichess upgrade` to upgrade it (irreversible)',
  incomingEvent: (line) => (isIncomingEvent(line) ? line : undefined),
  gameStreamEvent: (line) => (isGameStreamEvent(line) ? line : undefined),
  playingGame: (entry) => (typeof entry === 'object' && entry !== null && typeof (entry as { gameId?: unknown }).gameId === 'string' ? (entry as PlayingGame) : undefined),
  oneChatRoom: false,
  // lila `modules/bot/src/main/GameStateStream.scala` @ lichess-org/lila@774695a6: `SetOnline` schedules
  // `CheckOnline` 7 s later, which offers `None` (a blank line) and sets the next one.
  gameKeepAliveMs: 7000,
  declineReasons: true,
  botMoveDelayMs: 0,
  createLine: (variant, initial) => ChessLine.create(variant, initial),
  clockState: lichessClockState,
};
