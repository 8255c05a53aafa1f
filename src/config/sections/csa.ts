import { section } from './section.js';

/** A CSA server such as floodgate; the password comes from the CSA_PASSWORD environment variable only. */
export interface CsaConfig {
  readonly enabled: boolean;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly gameName: string;
  /** Log in in extended (x1) mode and ask for games with `%%GAME`; the connection then stays open between games. */
  readonly x1: boolean;
  /** `''` for the built-in engine, or `usi:<command>` for an external USI engine. */
  readonly engine: string;
  /** Seconds of silence on our side before a blank keep-alive line is sent (never under 30). */
  readonly keepAliveSec: number;
  /** Seconds to wait for any reply to a keep-alive before the server is taken for dead. */
  readonly replyTimeoutSec: number;
  /** Safety margin kept back per move, milliseconds, on top of the measured round trip (at least 1000). */
  readonly marginMs: number;
  /** Send the floodgate comment extension (`'* <cp> <pv>`) with our moves. */
  readonly comments: boolean;
  /** First wait before reconnecting after an error, seconds; doubles up to `reconnectMaxSec`. */
  readonly reconnectSec: number;
  /** Longest wait between reconnection attempts, seconds. */
  readonly reconnectMaxSec: number;
  /** Stop after this many games (0: play until stopped). */
  readonly maxGames: number;
}

export const csaSection = section('A CSA-protocol shogi server (floodgate). The password is read from CSA_PASSWORD, never from this file.', {
  enabled: { type: 'boolean', default: false, description: 'play on the CSA server' },
  host: { type: 'string', default: 'wdoor.c.u-tokyo.ac.jp', description: 'server host name' },
  port: { type: 'integer', minimum: 1, maximum: 65535, default: 4081, description: 'server TCP port' },
  user: {
    type: 'string',
    default: 'kishi',
    pattern: '^[A-Za-z0-9_-]{1,32}$',
    description: 'login name (letters, digits, _ and -, at most 32)',
  },
  gameName: {
    type: 'string',
    default: 'floodgate-300-10F',
    // `<name>-<total>-<byoyomi or increment>[F][-B|-W]`: shogi-server accepts a colour suffix for direct
    // games (`-B`/`-b` black, `-W`/`-w` white); floodgate refuses one, which the login check reports (login.ts).
    pattern: '^[A-Za-z0-9_]+(-[A-Za-z0-9_]+)*-[0-9]+-[0-9]+F?(-[BWbw])?$',
    description: 'game name such as floodgate-300-10F, or mygame-600-10-B to ask for black in a direct game; the login password becomes <gameName>,<CSA_PASSWORD>',
  },
  x1: { type: 'boolean', default: false, description: 'log in in extended (x1) mode and ask for games with %%GAME' },
  engine: {
    type: 'string',
    default: '',
    pattern: '^(|usi:.+)$',
    description: 'empty for the built-in engine, or usi:<command> to play with an external USI engine',
  },
  keepAliveSec: {
    type: 'integer',
    minimum: 30,
    maximum: 600,
    default: 40,
    description: 'seconds without sending before a blank keep-alive line (at least 30)',
  },
  replyTimeoutSec: {
    type: 'integer',
    minimum: 5,
    maximum: 600,
    default: 30,
    description: 'seconds to wait for a reply to a keep-alive before reconnecting',
  },
  marginMs: {
    type: 'integer',
    minimum: 1000,
    maximum: 60000,
    default: 1500,
    description: 'time kept back per move on top of the measured round trip, milliseconds (at least 1000)',
  },
  comments: { type: 'boolean', default: true, description: "send the floodgate comment ('* <cp> <pv>) with our moves" },
  reconnectSec: {
    type: 'integer',
    minimum: 1,
    maximum: 3600,
    default: 10,
    description: 'first wait before reconnecting after an error, seconds (doubles each failure)',
  },
  reconnectMaxSec: {
    type: 'integer',
    minimum: 1,
    maximum: 3600,
    default: 300,
    description: 'longest wait between reconnection attempts, seconds',
  },
  maxGames: { type: 'integer', minimum: 0, default: 0, description: 'stop after this many games (0: no limit)' },
});
