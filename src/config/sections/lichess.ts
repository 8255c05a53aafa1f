import type { JsonSchema } from './section.js';
import { section } from './section.js';

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
}

export interface DrawOrResignConfig {
  readonly resignEnabled: boolean;
  readonly resignScoreCp: number;
  readonly resignMoves: number;
  readonly offerDrawEnabled: boolean;
  readonly offerDrawScoreCp: number;
  readonly offerDrawMoves: number;
  readonly offerDrawPieces: number;
  readonly acceptDraws: boolean;
}

export interface CorrespondenceConfig {
  readonly moveTimeMs: number;
  readonly checkinPeriodS: number;
  readonly disconnectTimeS: number;
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
}

export interface LichessRecordsConfig {
  readonly pgn: boolean;
  readonly gameLog: boolean;
}

/** The lichess Bot API client; the token comes from the LICHESS_TOKEN environment variable only. */
export interface LichessConfig {
  readonly enabled: boolean;
  readonly url: string;
  readonly concurrency: number;
  readonly requestTimeoutMs: number;
  readonly streamSilenceMs: number;
  readonly abortTimeS: number;
  readonly firstMoveMs: number;
  readonly claimVictory: boolean;
  readonly maxTakebacks: number;
  readonly onShutdown: (typeof SHUTDOWN_POLICIES)[number];
  readonly challenge: ChallengeFilterConfig;
  readonly drawOrResign: DrawOrResignConfig;
  readonly correspondence: CorrespondenceConfig;
  readonly greeting: GreetingConfig;
  readonly matchmaking: MatchmakingConfig;
  readonly records: LichessRecordsConfig;
}

const strings = (description: string, def: readonly string[], values?: readonly string[]): JsonSchema => ({
  type: 'array',
  items: values ? { enum: values } : { type: 'string' },
  uniqueItems: true,
  default: def,
  description,
});
const int = (description: string, def: number, minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  default: def,
  description,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
const bool = (description: string, def: boolean): JsonSchema => ({ type: 'boolean', default: def, description });
const text = (description: string, def: string): JsonSchema => ({ type: 'string', default: def, description });

export const lichessSection = section('Lichess through the Bot API. The token is read from LICHESS_TOKEN, never from this file.', {
  enabled: bool('play on lichess', false),
  url: text('server base URL', 'https://lichess.org'),
  concurrency: int('games played at once', 1, 1, 64),
  requestTimeoutMs: int('timeout of one API call, milliseconds', 10000, 100, 120000),
  streamSilenceMs: int('reconnect a stream that sent no byte (not even a keep-alive) for this long, milliseconds', 20000, 1000, 600000),
  abortTimeS: int('abort a game whose opponent makes no first move within this time, seconds', 30, 5, 3600),
  firstMoveMs: int('longest think for our first move (lichess aborts a game nobody starts), milliseconds', 5000, 100, 60000),
  claimVictory: bool('claim the win when the opponent has left and lichess allows it', true),
  maxTakebacks: int('takebacks accepted per game (0: none)', 0, 0, 100),
  onShutdown: { enum: SHUTDOWN_POLICIES, default: 'finish', description: 'on SIGINT/SIGTERM: finish | resign the games in progress' },
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
    botGamesPerDay: int('games against bots per 24 h (lichess caps it at 100; else decline: later)', 100, 0),
  }),
  drawOrResign: section('Draw offers and resignation from our recent search scores (lichess-bot draw_or_resign).', {
    resignEnabled: bool('resign when every one of the last resignMoves scores is at or below resignScoreCp', false),
    resignScoreCp: int('resign threshold, centipawns from our view', -1000),
    resignMoves: int('consecutive searches below the threshold before resigning', 3, 1),
    offerDrawEnabled: bool('offer (and accept) a draw when the last offerDrawMoves scores are within offerDrawScoreCp of 0', true),
    offerDrawScoreCp: int('draw window, centipawns', 0, 0),
    offerDrawMoves: int('consecutive searches inside the window before offering', 10, 1),
    offerDrawPieces: int('offer only with at most this many pieces on the board, kings included', 10, 2),
    acceptDraws: bool("accept the opponent's draw offer when our own draw condition holds", true),
  }),
  correspondence: section('Correspondence games: think, disconnect while waiting, check back.', {
    moveTimeMs: int('think time per correspondence move, milliseconds', 60000, 100),
    checkinPeriodS: int('how often to look for correspondence games where it is our turn, seconds', 600, 1),
    disconnectTimeS: int("leave a correspondence game's stream after this long on the opponent's turn, seconds", 300, 1),
  }),
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
  }),
  records: section('What to write per lichess game into records.dir/lichess/.', {
    pgn: bool('a PGN per game, with clocks and our evals as comments', true),
    gameLog: bool('a JSON-lines game log per game (searches with score, depth, nodes, pv, pvLeaf)', true),
  }),
});
