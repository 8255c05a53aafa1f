import type { JsonSchema } from './section.js';
import { bool, int, section, strings } from './section.js';
import type {
  ChallengeFilterConfig,
  CorrespondenceConfig,
  GO_OVERRIDE_SPEEDS,
  GoOverride,
  GreetingConfig,
} from './lichess.js';
import type { DrawOrResignConfig } from './draw-or-resign.js';
import { LICHESS_MODES, LICHESS_SPEEDS, SHUTDOWN_POLICIES, lichessSection } from './lichess.js';

/**
 * lishogi.org through its Bot API (the lichess Bot API in shogi). Keys follow the lichess section where
 * lishogi offers the same thing; chess-only parts (books, online moves, takebacks, claim-victory, PGN,
 * matchmaking) are absent. The token is read from LISHOGI_TOKEN only.
 */

/** lishogi's variant keys (lishogi-org/api `VariantKey`); Kishi plays `standard` only. */
export const LISHOGI_VARIANTS = ['standard', 'minishogi', 'chushogi', 'annanshogi', 'kyotoshogi', 'checkshogi'] as const;

/** Which lishogi challenges to accept: the lichess filter plus byoyomi and periods (seconds, counts). */
export interface LishogiChallengeConfig extends ChallengeFilterConfig {
  readonly minByoyomiS: number;
  readonly maxByoyomiS: number;
  readonly maxPeriods: number;
}

export interface LishogiRecordsConfig {
  readonly gameLog: boolean;
}

export interface LishogiConfig {
  readonly enabled: boolean;
  readonly url: string;
  readonly concurrency: number;
  readonly requestTimeoutMs: number;
  readonly streamSilenceMs: number;
  readonly gameStreamSilenceMs: number;
  readonly abortTimeS: number;
  readonly firstMoveMs: number;
  readonly onShutdown: (typeof SHUTDOWN_POLICIES)[number];
  readonly statusCheckS: number;
  /** `''` for the built-in engine, or `usi:<command>` to bridge an external USI engine to the account. */
  readonly engine: string;
  readonly challenge: LishogiChallengeConfig;
  readonly drawOrResign: DrawOrResignConfig;
  readonly correspondence: CorrespondenceConfig;
  readonly goOverrides: Readonly<Record<(typeof GO_OVERRIDE_SPEEDS)[number], GoOverride>>;
  readonly greeting: GreetingConfig;
  readonly records: LishogiRecordsConfig;
}

const lichessProp = (key: string): JsonSchema => {
  const p = lichessSection.properties?.[key];
  if (p === undefined) throw new Error(`lichess section has no ${key}`);
  return p;
};
const lichessChallenge = lichessProp('challenge').properties ?? {};



export const lishogiSection = section('lishogi.org through its Bot API (shogi). The token is read from LISHOGI_TOKEN, never from this file.', {
  enabled: bool('play on lishogi', false),
  url: { type: 'string', default: 'https://lishogi.org', description: 'server base URL' },
  concurrency: int('games played at once', 1, 1, 64),
  requestTimeoutMs: int('timeout of one API call, milliseconds', 10000, 100, 120000),
  // lishogi sends a keep-alive every 6 s (EventStream, GameStateStream).
  streamSilenceMs: int('reconnect the event stream when it sent no byte (not even a keep-alive) for this long, milliseconds', 20000, 1000, 600000),
  gameStreamSilenceMs: int('reconnect (at once) a game stream that sent no keep-alive for this long (our clock may be running), milliseconds; 0: the server\'s keep-alive cadence + 1.5 s (lichess 8.5 s, lishogi 7.5 s)', 0, 0, 600000),
  abortTimeS: int('abort a game whose opponent makes no first move within this time, seconds', 30, 5, 3600),
  firstMoveMs: int('longest think for our first move (lishogi aborts a game nobody starts), milliseconds', 5000, 100, 60000),
  onShutdown: { enum: SHUTDOWN_POLICIES, default: 'finish', description: 'on SIGINT/SIGTERM: finish | resign the games in progress' },
  statusCheckS: int('how often to ask /api/users/status whether lishogi shows us online (reconnect the event stream if not), seconds (0: never)', 3600, 0),
  engine: {
    type: 'string',
    default: '',
    pattern: '^(|usi:.+)$',
    description: 'empty for the built-in engine, or usi:<command> to play with an external USI engine (a bridge, as lishogi-bot)',
  },
  challenge: section('Which challenges to accept (lishogi takes no decline reason; ours is logged).', {
    ...lichessChallenge,
    variants: strings('accepted variants (Kishi plays standard shogi only)', ['standard'], ['standard']),
    speeds: strings('accepted speeds', ['bullet', 'blitz', 'rapid', 'classical'], LICHESS_SPEEDS),
    modes: strings('accepted modes', ['casual', 'rated'], LICHESS_MODES),
    maxIncrementS: int('largest increment, seconds', 60, 0),
    // lishogi holds a bot's move 750 ms before playing it against another bot: a shorter period leaves
    // too little for the search and the network.
    minByoyomiS: int('shortest byoyomi when the clock has one, seconds (lishogi holds a bot move 750 ms against bots)', 2, 0, 60),
    maxByoyomiS: int('longest byoyomi, seconds', 60, 0, 60),
    maxPeriods: int('most byoyomi periods', 5, 1, 5),
  }),
  drawOrResign: lichessProp('drawOrResign'),
  correspondence: lichessProp('correspondence'),
  goOverrides: lichessProp('goOverrides'),
  greeting: lichessProp('greeting'),
  records: section('What to write per lishogi game into records.dir/lishogi/.', {
    gameLog: bool('a JSON-lines game log per game (USI moves, SFEN positions, searches)', true),
  }),
});
