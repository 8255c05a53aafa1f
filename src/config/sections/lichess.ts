import { bool, int, section, strings, text } from './section.js';
import { BOOK_NORMALIZATIONS, BOOK_SELECTIONS } from '../../books/book-choice.js';
import { drawOrResignSection, type DrawOrResignConfig } from './draw-or-resign.js';

/** Keys follow lichess-bot's `config.yml` (challenge, matchmaking, greeting, draw_or_resign, correspondence), in camelCase with units in the name. */
export const LICHESS_VARIANTS = [
  'standard',
  'chess960',
  'fromPosition',
  'crazyhouse',
  'antichess',
  'atomic',
  'horde',
  'kingOfTheHill',
  'racingKings',
  'threeCheck',
] as const;
export const LICHESS_SPEEDS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export const LICHESS_MODES = ['casual', 'rated'] as const;
export const SHUTDOWN_POLICIES = ['finish', 'resign'] as const;
export const MATCHMAKING_MODES = ['casual', 'rated', 'random'] as const;
export const CHALLENGE_SORTS = ['first', 'best'] as const;
export const CHALLENGE_PREFERENCES = ['none', 'human', 'bot'] as const;
export const CHALLENGE_FILTERS = ['none', 'coarse', 'fine'] as const;
export const RATING_PREFERENCES = ['none', 'high', 'low'] as const;
export const PGN_GROUPINGS = ['game', 'opponent', 'all'] as const;
/** Lichess variants a Polyglot book can be given for (fromPosition uses the standard books). */
export const BOOK_VARIANTS = ['standard', 'chess960', 'crazyhouse', 'antichess', 'atomic', 'horde', 'kingOfTheHill', 'racingKings', 'threeCheck'] as const;
export const CHESSDB_QUALITIES = ['best', 'good', 'all'] as const;
export const CLOUD_QUALITIES = ['best', 'good'] as const;
export const EXPLORER_SOURCES = ['masters', 'lichess', 'player'] as const;
export const EXPLORER_SORTS = ['winrate', 'games_played'] as const;
export const EGTB_SOURCES = ['lichess', 'chessdb'] as const;

export interface ChallengeFilterConfig {
  readonly acceptBot: boolean;
  readonly onlyBot: boolean;
  readonly variants: readonly string[];
  readonly speeds: readonly string[];
  readonly modes: readonly string[];
  readonly minBaseS: number;
  readonly maxBaseS: number;
  readonly minIncrementS: number;
  readonly maxIncrementS: number;
  readonly minDays: number;
  readonly maxDays: number;
  readonly allowUnlimited: boolean;
  readonly bulletRequiresIncrement: boolean;
  readonly minRating: number;
  readonly maxRating: number;
  readonly maxRatingDifference: number;
  readonly blockList: readonly string[];
  readonly allowList: readonly string[];
  readonly maxGamesPerOpponent: number;
  readonly recentBotChallengeAgeS: number;
  readonly maxRecentBotChallenges: number;
  readonly botGamesPerDay: number;
  readonly onlineBlockList: readonly string[];
  readonly onlineBlockListRefreshS: number;
  readonly gamesReservedForHumans: number;
  readonly sortBy: (typeof CHALLENGE_SORTS)[number];
  readonly preference: (typeof CHALLENGE_PREFERENCES)[number];
  readonly queueTimeS: number;
  /** lishogi only (LishogiChallengeConfig): shortest and longest byoyomi, seconds, when the clock has one. */
  readonly minByoyomiS?: number;
  readonly maxByoyomiS?: number;
  /** lishogi only: most byoyomi periods. */
  readonly maxPeriods?: number;
}

export interface CorrespondenceConfig {
  readonly moveTimeMs: number;
  readonly checkinPeriodS: number;
  readonly disconnectTimeS: number;
  readonly ponder: boolean;
}

export interface GreetingConfig {
  readonly hello: string;
  readonly goodbye: string;
  readonly helloSpectators: string;
  readonly goodbyeSpectators: string;
}

export interface MatchmakingConfig {
  readonly enabled: boolean;
  readonly allowDuringGames: boolean;
  readonly variants: readonly string[];
  readonly initialTimesS: readonly number[];
  readonly incrementsS: readonly number[];
  readonly mode: (typeof MATCHMAKING_MODES)[number];
  readonly minRating: number;
  readonly maxRating: number;
  readonly maxRatingDifference: number;
  readonly intervalS: number;
  readonly challengeTimeoutS: number;
  readonly declineMemoryH: number;
  readonly blockList: readonly string[];
  readonly onlineBlockList: readonly string[];
  readonly includeChallengeBlockList: boolean;
  readonly challengeDays: readonly number[];
  readonly challengeFilter: (typeof CHALLENGE_FILTERS)[number];
  readonly ratingPreference: (typeof RATING_PREFERENCES)[number];
}

export interface LichessRecordsConfig {
  readonly pgn: boolean;
  readonly gameLog: boolean;
  readonly pgnFileGrouping: (typeof PGN_GROUPINGS)[number];
  readonly mergeExport: boolean;
}

export interface PolyglotConfig {
  readonly enabled: boolean;
  readonly book: Readonly<Record<(typeof BOOK_VARIANTS)[number], readonly string[]>>;
  readonly minWeight: number;
  readonly selection: (typeof BOOK_SELECTIONS)[number];
  readonly maxDepth: number;
  readonly normalization: (typeof BOOK_NORMALIZATIONS)[number];
}

export interface OnlineMovesConfig {
  readonly maxOutOfBookMoves: number;
  readonly maxRetries: number;
  readonly maxDepth: number;
  readonly timeoutMs: number;
  readonly chessdbBook: {
    readonly enabled: boolean;
    readonly url: string;
    readonly minTimeS: number;
    readonly moveQuality: (typeof CHESSDB_QUALITIES)[number];
    readonly minDepth: number;
  };
  readonly lichessCloudAnalysis: {
    readonly enabled: boolean;
    readonly minTimeS: number;
    readonly moveQuality: (typeof CLOUD_QUALITIES)[number];
    readonly maxScoreDifferenceCp: number;
    readonly minDepth: number;
    readonly minKnodes: number;
  };
  readonly lichessOpeningExplorer: {
    readonly enabled: boolean;
    readonly url: string;
    readonly minTimeS: number;
    readonly source: (typeof EXPLORER_SOURCES)[number];
    readonly playerName: string;
    readonly sort: (typeof EXPLORER_SORTS)[number];
    readonly minGames: number;
  };
  readonly onlineEgtb: {
    readonly enabled: boolean;
    readonly url: string;
    readonly minTimeS: number;
    readonly maxPieces: number;
    readonly source: (typeof EGTB_SOURCES)[number];
  };
}

/** Lichess game speeds (the `speed` of a game), the keys of `goOverrides`. */
export const GO_OVERRIDE_SPEEDS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;

/** Search limits for the games of one speed; 0 leaves that limit out (lichess-bot `go_commands`). */
export interface GoOverride {
  readonly nodes: number;
  readonly depth: number;
  readonly movetimeMs: number;
}

/** The lichess Bot API client; the token comes from the LICHESS_TOKEN environment variable only. */
export interface LichessConfig {
  readonly enabled: boolean;
  readonly url: string;
  readonly concurrency: number;
  readonly requestTimeoutMs: number;
  readonly streamSilenceMs: number;
  readonly gameStreamSilenceMs: number;
  readonly abortTimeS: number;
  readonly firstMoveMs: number;
  readonly claimVictory: boolean;
  readonly maxTakebacks: number;
  readonly onShutdown: (typeof SHUTDOWN_POLICIES)[number];
  readonly statusCheckS: number;
  readonly fakeThinkTime: boolean;
  readonly rateLimitingDelayMs: number;
  readonly polyglot: PolyglotConfig;
  readonly onlineMoves: OnlineMovesConfig;
  readonly challenge: ChallengeFilterConfig;
  readonly drawOrResign: DrawOrResignConfig;
  readonly correspondence: CorrespondenceConfig;
  readonly goOverrides: Readonly<Record<(typeof GO_OVERRIDE_SPEEDS)[number], GoOverride>>;
  readonly greeting: GreetingConfig;
  readonly matchmaking: MatchmakingConfig;
  readonly records: LichessRecordsConfig;
}



export const lichessSection = section('Lichess through the Bot API. The token is read from LICHESS_TOKEN, never from this file.', {
  enabled: bool('play on lichess', false),
  url: text('server base URL', 'https://lichess.org'),
  concurrency: int('games played at once', 1, 1, 64),
  requestTimeoutMs: int('timeout of one API call, milliseconds', 10000, 100, 120000),
  streamSilenceMs: int('reconnect the event stream when it sent no byte (not even a keep-alive) for this long, milliseconds', 20000, 1000, 600000),
  // Lichess writes a game stream's keep-alive every 7 s whatever else it sends (lila GameStateStream): the
  // silence counts from the last keep-alive (src/protocols/lichess/stream.ts); on a game stream every silent
  // second may be our clock running while the opponent's move is lost.
  gameStreamSilenceMs: int('reconnect (at once) a game stream that sent no keep-alive for this long (our clock may be running), milliseconds; 0: the server\'s keep-alive cadence + 1.5 s (lichess 8.5 s, lishogi 7.5 s)', 0, 0, 600000),
  abortTimeS: int('abort a game whose opponent makes no first move within this time, seconds', 30, 5, 3600),
  firstMoveMs: int('longest think for our first move (lichess aborts a game nobody starts), milliseconds', 5000, 100, 60000),
  claimVictory: bool('claim the win when the opponent has left and lichess allows it', true),
  maxTakebacks: int('takebacks accepted per game (0: none)', 0, 0, 100),
  onShutdown: { enum: SHUTDOWN_POLICIES, default: 'finish', description: 'on SIGINT/SIGTERM: finish | resign the games in progress' },
  fakeThinkTime: bool('after ten plies, wait a little before moving, less as the game goes on (lichess-bot fake_think_time)', false),
  rateLimitingDelayMs: int('wait this long before each move we send, milliseconds (lichess-bot rate_limiting_delay)', 0, 0, 10000),
  statusCheckS: int('how often to ask /api/users/status whether lichess shows us online (reconnect the event stream if not), seconds (0: never)', 3600, 0),
  polyglot: section('Polyglot opening books (.bin), consulted before the engine (lichess-bot engine.polyglot).', {
    enabled: bool('play book moves', false),
    book: section('book files per lichess variant, tried in order (fromPosition uses standard)', Object.fromEntries(
      BOOK_VARIANTS.map((v) => [v, strings(`book paths for ${v}`, [])]),
    )),
    minWeight: int('ignore book moves with a smaller Polyglot weight', 1, 0, 65535),
    selection: { enum: BOOK_SELECTIONS, default: 'weighted_random', description: 'weighted_random | uniform_random | best_move' },
    maxDepth: int('use the book for our moves up to this full-move number', 20, 1),
    normalization: {
      enum: BOOK_NORMALIZATIONS,
      default: 'none',
      description: 'several books: none (first book with a move) | max | sum (weights divided per book, then merged)',
    },
  }),
  onlineMoves: section('Online move sources after the book, before the engine (lichess-bot online_moves).', {
    maxOutOfBookMoves: int('stop asking the online opening sources after this many misses in a game', 10, 0),
    maxRetries: int('retries of a failed online request (network error, 5xx)', 2, 0, 10),
    maxDepth: int('ask the online opening sources up to this full-move number (tablebases: always)', 1000, 1),
    timeoutMs: int('timeout of one online request, milliseconds', 3000, 100, 60000),
    chessdbBook: section('chessdb.cn opening book (standard chess only)', {
      enabled: bool('ask chessdb.cn', false),
      url: text('cdb.php address', 'https://www.chessdb.cn/cdb.php'),
      minTimeS: int('only with at least this much on our clock, seconds', 20, 0),
      moveQuality: { enum: CHESSDB_QUALITIES, default: 'good', description: 'best (querypv) | good (querybest) | all (query)' },
      minDepth: int('move quality best: least depth of the chessdb line', 20, 0),
    }),
    lichessCloudAnalysis: section('lichess cloud evaluations (GET /api/cloud-eval)', {
      enabled: bool('ask the lichess cloud eval', false),
      minTimeS: int('only with at least this much on our clock, seconds', 20, 0),
      moveQuality: { enum: CLOUD_QUALITIES, default: 'best', description: 'best (first line) | good (a random line of 5 within maxScoreDifferenceCp)' },
      maxScoreDifferenceCp: int('move quality good: largest loss to the best line, centipawns', 50, 0),
      minDepth: int('least depth of the cloud eval', 20, 0),
      minKnodes: int('least thousands of nodes of the cloud eval', 0, 0),
    }),
    lichessOpeningExplorer: section('lichess opening explorer (explorer.lichess.ovh)', {
      enabled: bool('ask the opening explorer', false),
      url: text('explorer base address', 'https://explorer.lichess.ovh'),
      minTimeS: int('only with at least this much on our clock, seconds', 20, 0),
      source: { enum: EXPLORER_SOURCES, default: 'masters', description: 'masters | lichess | player' },
      playerName: text('source player: whose games (empty: our own account)', ''),
      sort: { enum: EXPLORER_SORTS, default: 'winrate', description: 'winrate | games_played' },
      minGames: int('least games a move must have', 10, 0),
    }),
    onlineEgtb: section('online endgame tablebase (no castling rights left)', {
      enabled: bool('ask an online tablebase', false),
      url: text('tablebase base address (source lichess)', 'https://tablebase.lichess.ovh'),
      minTimeS: int('only with at least this much on our clock, seconds', 20, 0),
      maxPieces: int('largest piece count, kings included (lichess: 7 standard, 6 atomic/antichess)', 7, 2, 8),
      source: { enum: EGTB_SOURCES, default: 'lichess', description: 'lichess (standard, atomic, antichess) | chessdb (standard)' },
    }),
  }),
  challenge: section('Which challenges to accept; the first failed check gives the decline reason sent.', {
    acceptBot: bool('accept challenges from bots (else decline: noBot)', true),
    onlyBot: bool('accept challenges from bots only (else decline: onlyBot)', false),
    variants: strings('accepted variants (else decline: variant, or standard when only standard is accepted)', ['standard'], LICHESS_VARIANTS),
    speeds: strings('accepted speeds (else decline: timeControl)', ['bullet', 'blitz', 'rapid', 'classical'], LICHESS_SPEEDS),
    modes: strings('accepted modes (else decline: casual or rated)', ['casual', 'rated'], LICHESS_MODES),
    minBaseS: int('shortest initial clock, seconds (else decline: tooFast)', 0, 0),
    maxBaseS: int('longest initial clock, seconds (else decline: tooSlow)', 10800, 0),
    minIncrementS: int('smallest increment, seconds (else decline: tooFast)', 0, 0),
    maxIncrementS: int('largest increment, seconds (else decline: tooSlow)', 180, 0),
    minDays: int('fewest days per move of a correspondence game (else decline: tooFast)', 1, 1),
    maxDays: int('most days per move of a correspondence game (else decline: tooSlow)', 14, 1),
    allowUnlimited: bool('accept games without a clock (else decline: timeControl)', false),
    bulletRequiresIncrement: bool('decline bullet without increment from bots (tooFast)', false),
    minRating: int('lowest challenger rating (else decline: generic)', 0, 0),
    maxRating: int('highest challenger rating (else decline: generic)', 4000, 0),
    maxRatingDifference: int('largest rating difference to us, rating points (else decline: generic)', 4000, 0),
    blockList: strings('user names always declined (generic)', []),
    allowList: strings('when not empty, only these user names are accepted (else decline: generic)', []),
    maxGamesPerOpponent: int('games at once against one opponent (else decline: later)', 1, 1),
    recentBotChallengeAgeS: int('window for counting recent games against one bot, seconds', 3600, 0),
    maxRecentBotChallenges: int('games against one bot within that window (0: no limit; else decline: later)', 0, 0),
    botGamesPerDay: int('games against bots per 24 h, counted across restarts (lichess caps it at 100; else decline: later)', 100, 0),
    onlineBlockList: strings('URLs of plain-text block lists, one user name per line (generic)', []),
    onlineBlockListRefreshS: int('how often the online block lists are fetched again, seconds', 3600, 60),
    gamesReservedForHumans: int('game slots bots may not take (else decline: later)', 0, 0),
    sortBy: { enum: CHALLENGE_SORTS, default: 'first', description: 'which waiting challenge gets a free slot: first (arrival) | best (highest rating)' },
    preference: { enum: CHALLENGE_PREFERENCES, default: 'none', description: 'none | human | bot: challengers of this kind go first' },
    queueTimeS: int('keep an acceptable challenge waiting this long for a free slot before declining it (later), seconds (0: decline at once)', 0, 0, 60),
  }),
  drawOrResign: drawOrResignSection,
  correspondence: section('Correspondence games: think, disconnect while waiting, check back.', {
    moveTimeMs: int('think time per correspondence move, milliseconds', 60000, 100),
    checkinPeriodS: int('how often to look for correspondence games where it is our turn, seconds', 600, 1),
    disconnectTimeS: int("leave a correspondence game's stream after this long on the opponent's turn, seconds", 300, 1),
    ponder: bool("think on the opponent's time until disconnectTimeS, then moveTimeMs from their move (lichess-bot correspondence.ponder)", false),
  }),
  goOverrides: section(
    'Search limits per game speed, applied to our searches in games of that speed instead of the time plan (lichess-bot engine.go_commands: nodes, depth, movetime); 0: not set.',
    Object.fromEntries(
      GO_OVERRIDE_SPEEDS.map((speed) => [
        speed,
        section(`limits in ${speed} games`, {
          nodes: int('stop after this many nodes (0: no limit)', 0, 0),
          depth: int('stop after this depth (0: no limit)', 0, 0, 200),
          movetimeMs: int('think exactly this long, milliseconds (0: the time plan)', 0, 0, 3600000),
        }),
      ]),
    ),
  ),
  greeting: section('Chat messages; {me} and {opponent} are replaced; an empty text sends nothing.', {
    hello: text('to the opponent at the start', 'Hi! I am {me}, a Kishi bot. Good luck! Type !help for commands.'),
    goodbye: text('to the opponent at the end', 'Good game!'),
    helloSpectators: text('to spectators at the start', 'Hi! I am {me}. Type !help for commands.'),
    goodbyeSpectators: text('to spectators at the end', 'Thanks for watching!'),
  }),
  matchmaking: section('Challenging other bots when idle (lichess-bot matchmaking); off by default.', {
    enabled: bool('challenge online bots', false),
    allowDuringGames: bool('also challenge while games are in progress (up to concurrency)', false),
    variants: strings('variants to propose', ['standard'], LICHESS_VARIANTS),
    initialTimesS: { type: 'array', items: { type: 'integer', minimum: 0 }, default: [60, 180], description: 'initial clocks to propose, seconds' },
    incrementsS: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 60 }, default: [1, 2], description: 'increments to propose, seconds' },
    mode: { enum: MATCHMAKING_MODES, default: 'casual', description: 'casual | rated | random' },
    minRating: int('lowest opponent rating', 0, 0),
    maxRating: int('highest opponent rating', 4000, 0),
    maxRatingDifference: int('largest rating difference to us, rating points', 4000, 0),
    intervalS: int('least time between two challenges, seconds', 60, 1),
    challengeTimeoutS: int('cancel our challenge when unanswered this long, seconds', 25, 1),
    declineMemoryH: int('do not challenge a bot that declined us for this long, hours', 24, 0),
    blockList: strings('bots never challenged', []),
    onlineBlockList: strings('URLs of plain-text lists of bots never challenged, one per line', []),
    includeChallengeBlockList: bool('also skip the bots on challenge.blockList and challenge.onlineBlockList', false),
    challengeDays: {
      type: 'array',
      items: { enum: [1, 2, 3, 5, 7, 10, 14] },
      default: [],
      description: 'days per move of correspondence challenges to propose (empty: none; with clocks too, either at random)',
    },
    challengeFilter: {
      enum: CHALLENGE_FILTERS,
      default: 'coarse',
      description: 'after a decline: none (forget it) | coarse (skip that bot) | fine (skip it for the declined variant, speed or mode)',
    },
    ratingPreference: { enum: RATING_PREFERENCES, default: 'none', description: 'none | high | low: favour stronger or weaker opponents' },
  }),
  records: section('What to write per lichess game into records.dir/lichess/.', {
    pgn: bool('a PGN per game, with clocks and our evals as comments', true),
    gameLog: bool('a JSON-lines game log per game (searches with score, depth, nodes, pv, pvLeaf)', true),
    pgnFileGrouping: { enum: PGN_GROUPINGS, default: 'game', description: 'game (<id>.pgn) | opponent (<me> games vs. <opponent>.pgn) | all (<me> games.pgn)' },
    mergeExport: bool("add lichess's own tags (GET /game/export: opening, rating changes) to the PGN", true),
  }),
});
