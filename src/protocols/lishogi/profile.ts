/**
 * The lishogi server profile: lishogi.org speaks the lichess Bot API in shogi (USI moves, SFEN positions,
 * sente/gote, byoyomi clocks). Its lines are normalised into the lichess shapes (wire.ts) so that the
 * lichess client, stream, bot and game handler play on it unchanged in structure.
 */
import type { ServerProfile } from '../lichess/server-profile.js';
import { shogiClockState } from './clock.js';
import { LISHOGI_ENDPOINTS } from './endpoints.js';
import { ShogiLine } from './shogi-line.js';
import type { GamePlayer } from '../lichess/types.js';
import { normaliseGameStreamLine, normaliseIncomingEvent, normalisePlayingGame } from './wire.js';

/** lishogi `BotPlayer`: a bot's move waits this long before it is played when no human is in the game. */
export const LISHOGI_BOT_MOVE_DELAY_MS = 750;

/**
 * Whether a player is not human as lishogi counts it: `Player.isHuman = !isAi && !isBot`
 * (`modules/game/src/main/Player.scala` @ WandererXII/lishogi@51be91d1), so lishogi's own AI (a player
 * with an `aiLevel`) is not human either. An anonymous player is human.
 */
export const isNonHuman = (p: GamePlayer): boolean => p.title === 'BOT' || p.aiLevel !== undefined;

/**
 * The lishogi profile for a server that holds a bot's move `botMoveDelayMs` (lishogi: 750 ms; a local test
 * server may hold less, and the client must count what the server really does).
 */
export function lishogiProfile(botMoveDelayMs: number = LISHOGI_BOT_MOVE_DELAY_MS): ServerProfile {
  return {
    name: 'lishogi',
    game: 'shogi',
    endpoints: LISHOGI_ENDPOINTS,
    tokenEnv: 'LISHOGI_TOKEN',
    upgradeHint: 'run `kishi lishogi upgrade` to upgrade it (irreversible)',
    incomingEvent: normaliseIncomingEvent,
    gameStreamEvent: normaliseGameStreamLine,
    playingGame: normalisePlayingGame,
    oneChatRoom: true,
    // lishogi `GameStateStream` @ WandererXII/lishogi@51be91d1: `queue offer None` 6 s after each `SetOnline`.
    gameKeepAliveMs: 6000,
    declineReasons: false,
    botMoveDelayMs,
    createLine: (variant, initial) => ShogiLine.create(variant, initial),
    clockState: ({ state, full, ourColor, elapsedMs }) =>
      shogiClockState({
        state,
        initialMs: full.clock?.initial ?? 0,
        ourColor,
        elapsedMs,
        // BotPlayer holds a bot's move whenever nobody in the game is human (`!pov.game.hasHuman ?? 750`,
        // modules/bot/src/main/BotPlayer.scala @ WandererXII/lishogi@51be91d1): against a bot or lishogi's AI.
        serverDelayMs: isNonHuman(full.white) && isNonHuman(full.black) ? botMoveDelayMs : 0,
      }),
  };
}

export const LISHOGI_PROFILE: ServerProfile = lishogiProfile();
