/**
 * The lichess Bot API's JSON shapes, written from the bundled JSON Schemas in
 * the lichess-org/api OpenAPI spec (api 2.0.165; copies in tests/fixtures/lichess/schemas/). Stream events are discriminated unions on `type`.
 * Only fields Kishi reads are required here; the schemas are the full contract (the tests validate the
 * local server's messages against them).
 */

export const VARIANT_KEYS = [
  'standard',
  'chess960',
  'crazyhouse',
  'antichess',
  'atomic',
  'horde',
  'kingOfTheHill',
  'racingKings',
  'threeCheck',
  'fromPosition',
] as const;
export type VariantKey = (typeof VARIANT_KEYS)[number];

/**
 * lishogi's variant keys (lishogi-org/api `VariantKey`; scalashogi `variant/*.scala`): a lishogi profile
 * normalises its events into the shapes of this file, so a variant key is either server's.
 */
export const SHOGI_VARIANT_KEYS = ['standard', 'minishogi', 'chushogi', 'annanshogi', 'kyotoshogi', 'checkshogi'] as const;
export type ShogiVariantKey = (typeof SHOGI_VARIANT_KEYS)[number];

/** Whether a variant key is one of lichess's chess variants. */
export const isChessVariantKey = (key: string): key is VariantKey => (VARIANT_KEYS as readonly string[]).includes(key);

export const SPEEDS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type Speed = (typeof SPEEDS)[number];

export const GAME_STATUSES = [
  'created',
  'started',
  'aborted',
  'mate',
  'resign',
  'stalemate',
  'timeout',
  'draw',
  'outoftime',
  'cheat',
  'noStart',
  'unknownFinish',
  'insufficientMaterialClaim',
  'variantEnd',
] as const;
export type LichessGameStatus = (typeof GAME_STATUSES)[number];

/**
 * The statuses only lishogi has (scalashogi 13.2.0 `Status.scala`, WandererXII/scalashogi@e49f8a47): a game
 * adjourned by agreement (`paused`, 21: not over), 27-point impasse (entering king), perpetual check (the
 * checking side loses), fourfold repetition (sennichite, a draw), variant ends, a check-shogi win (`check`,
 * 45: was `specialVariantEnd`) and a lost illegal move in pro mode (`illegalMove`, 46).
 */
export const SHOGI_ONLY_STATUSES = [
  'paused',
  'tryRule',
  'perpetualCheck',
  'impasse27',
  'royalsLost',
  'bareKing',
  'repetition',
  'check',
  'illegalMove',
] as const;
export type GameStatus = LichessGameStatus | (typeof SHOGI_ONLY_STATUSES)[number];

/** Numeric ids of the statuses (`GameStatusId`). */
export const GAME_STATUS_IDS: Readonly<Record<LichessGameStatus, number>> = {
  created: 10,
  started: 20,
  aborted: 25,
  mate: 30,
  resign: 31,
  stalemate: 32,
  timeout: 33,
  draw: 34,
  outoftime: 35,
  cheat: 36,
  noStart: 37,
  unknownFinish: 38,
  insufficientMaterialClaim: 39,
  variantEnd: 60,
};

export type Color = 'white' | 'black';

/** The POST body keys of `/api/challenge/{id}/decline` (camelCase). */
export const DECLINE_REASONS = [
  'generic',
  'later',
  'tooFast',
  'tooSlow',
  'timeControl',
  'rated',
  'casual',
  'standard',
  'variant',
  'noBot',
  'onlyBot',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export interface Variant {
  readonly key: VariantKey | ShogiVariantKey;
  readonly name: string;
  readonly short?: string;
}

export interface ChallengeUser {
  readonly id: string;
  readonly name: string;
  readonly rating?: number;
  readonly title?: string;
  readonly provisional?: boolean;
  readonly online?: boolean;
  readonly lag?: number;
}

export type TimeControl =
  | {
      readonly type: 'clock';
      readonly limit: number;
      readonly increment: number;
      readonly show?: string;
      /** lishogi: byoyomi per move once the main time is spent, seconds (0: none). */
      readonly byoyomi?: number;
      /** lishogi: byoyomi periods (1..5). */
      readonly periods?: number;
    }
  | { readonly type: 'correspondence'; readonly daysPerTurn: number }
  | { readonly type: 'unlimited' };

export interface ChallengeJson {
  readonly id: string;
  readonly url: string;
  readonly status: 'created' | 'offline' | 'canceled' | 'declined' | 'accepted';
  readonly challenger: ChallengeUser;
  readonly destUser: ChallengeUser | null;
  readonly variant: Variant;
  readonly rated: boolean;
  readonly speed: Speed;
  readonly timeControl: TimeControl;
  readonly color: 'white' | 'black' | 'random';
  readonly finalColor?: Color;
  readonly perf: { readonly icon: string; readonly name: string };
  /**
   * The key the challenge is rated under in the account's `perfs`, where the server gives it (lishogi's
   * `perf.name` is the perf key since WandererXII/lishogi@ee461317); lichess: derived (challenge-filter.ts).
   */
  readonly perfKey?: string;
  readonly direction?: 'in' | 'out';
  readonly initialFen?: string;
  readonly rematchOf?: string;
}

/** `declineReasonKey` in `challengeDeclined` events is lower-case, unlike the POST body. */
export type DeclineReasonKeyLower = Lowercase<DeclineReason>;

export interface ChallengeDeclinedJson extends ChallengeJson {
  readonly declineReason: string;
  readonly declineReasonKey: DeclineReasonKeyLower;
}

export interface Compat {
  readonly bot?: boolean;
  readonly board?: boolean;
}

/** The `game` of `gameStart` / `gameFinish` (`GameEventInfo`). */
export interface GameEventInfo {
  readonly fullId: string;
  readonly gameId: string;
  readonly fen?: string;
  readonly color?: Color;
  readonly lastMove?: string;
  readonly source?: string;
  readonly status?: { readonly id: number; readonly name: GameStatus };
  readonly variant?: Variant;
  readonly speed?: Speed;
  readonly perf?: string;
  readonly rated?: boolean;
  readonly hasMoved?: boolean;
  readonly opponent?:
    | { readonly id: string; readonly username: string; readonly rating: number; readonly ratingDiff?: number }
    | { readonly id: null; readonly username: string; readonly ai: number };
  readonly isMyTurn?: boolean;
  readonly secondsLeft?: number;
  readonly winner?: Color;
  readonly rating?: number;
  readonly ratingDiff?: number;
  readonly compat?: Compat;
  readonly id?: string;
  readonly tournamentId?: string;
}

export interface GameStartEvent {
  readonly type: 'gameStart';
  readonly game: GameEventInfo;
}
export interface GameFinishEvent {
  readonly type: 'gameFinish';
  readonly game: GameEventInfo;
}
export interface ChallengeEvent {
  readonly type: 'challenge';
  readonly challenge: ChallengeJson;
  readonly compat?: Compat;
}
export interface ChallengeCanceledEvent {
  readonly type: 'challengeCanceled';
  readonly challenge: ChallengeJson;
}
export interface ChallengeDeclinedEvent {
  readonly type: 'challengeDeclined';
  readonly challenge: ChallengeDeclinedJson;
}

/** A line of `/api/stream/event`. */
export type IncomingEvent = GameStartEvent | GameFinishEvent | ChallengeEvent | ChallengeCanceledEvent | ChallengeDeclinedEvent;

export interface GameStateEvent {
  readonly type: 'gameState';
  /** Every move since the start, UCI, space-separated ("" before the first move). */
  readonly moves: string;
  readonly wtime: number;
  readonly btime: number;
  readonly winc: number;
  readonly binc: number;
  readonly status: GameStatus;
  readonly winner?: Color;
  /** Present only when true (lila). */
  readonly wdraw?: boolean;
  readonly bdraw?: boolean;
  readonly wtakeback?: boolean;
  readonly btakeback?: boolean;
  readonly expiration?: { readonly idleMillis: number; readonly millisToMove: number };
  /** lishogi: the byoyomi of both sides, milliseconds (`byo`); 0 or absent: none. */
  readonly byo?: number;
  /** Undocumented: the id of the rematch game. */
  readonly rematch?: string;
}

export interface GamePlayer {
  readonly id: string;
  readonly name: string;
  readonly title?: string | null;
  readonly rating?: number;
  readonly provisional?: boolean;
  readonly aiLevel?: number;
}

export interface GameFullEvent {
  readonly type: 'gameFull';
  readonly id: string;
  readonly variant: Variant;
  /** Missing for correspondence and unlimited games; milliseconds (lishogi adds byoyomi, ms, and periods). */
  readonly clock?: { readonly initial: number; readonly increment: number; readonly byoyomi?: number; readonly periods?: number };
  readonly speed: Speed;
  readonly perf: { readonly name?: string };
  readonly rated: boolean;
  readonly createdAt: number;
  readonly white: GamePlayer;
  readonly black: GamePlayer;
  /** `startpos` or a FEN. */
  readonly initialFen: string;
  readonly state: GameStateEvent;
  readonly daysPerTurn?: number;
  readonly tournamentId?: string;
}

export interface ChatLineEvent {
  readonly type: 'chatLine';
  readonly room: 'player' | 'spectator';
  readonly username: string;
  readonly text: string;
}

export interface OpponentGoneEvent {
  readonly type: 'opponentGone';
  readonly gone: boolean;
  readonly claimWinInSeconds?: number;
}

/** A line of `/api/bot/game/stream/{id}`. */
export type GameStreamEvent = GameFullEvent | GameStateEvent | ChatLineEvent | OpponentGoneEvent;

/** `/api/account` (the part Kishi reads of `UserExtended`). */
export interface Account {
  readonly id: string;
  readonly username: string;
  readonly title?: string;
  readonly perfs?: Readonly<Record<string, { readonly rating: number; readonly games?: number }>>;
}

/** One entry of `/api/account/playing`. */
export interface PlayingGame {
  readonly gameId: string;
  readonly fullId: string;
  readonly color: Color;
  readonly fen: string;
  readonly hasMoved: boolean;
  readonly isMyTurn: boolean;
  readonly lastMove: string;
  readonly opponent: { readonly id: string | null; readonly username: string; readonly rating?: number; readonly ai?: number };
  readonly perf: string;
  readonly rated: boolean;
  readonly secondsLeft: number | null;
  readonly source: string;
  /** lichess always gives it; lishogi gives none (wire.ts derives it where it can be told). */
  readonly speed?: Speed;
  readonly variant: Variant;
}

export interface PlayingResponse {
  readonly nowPlaying: readonly PlayingGame[];
  readonly nbMyTurn?: number;
}

/** `/api/token/test`: one entry per token sent, `null` for an unknown token. */
export type TokenTestResponse = Readonly<Record<string, { readonly scopes: string; readonly userId: string; readonly expires: number | null } | null>>;

/** A line of `/api/bot/online` (`User`). */
export interface OnlineBot {
  readonly id: string;
  readonly username: string;
  readonly title?: string;
  readonly perfs?: Readonly<Record<string, { readonly rating: number; readonly games?: number }>>;
}

/**
 * Whether a status ends the game (lichess-bot: anything but `started`). lishogi's `paused` (an adjourned
 * game, scalashogi `Status.Paused` 21, below `Aborted`) is not an end: lila's `Game.finished` is
 * `status >= Mate` and a paused game resumes as `started` (lishogi `Game.resume`).
 */
export const isGameOver = (status: GameStatus): boolean => status !== 'started' && status !== 'created' && status !== 'paused';

/** Narrowing helpers for untrusted stream lines. */
export const isIncomingEvent = (v: unknown): v is IncomingEvent =>
  typeof v === 'object' &&
  v !== null &&
  ['gameStart', 'gameFinish', 'challenge', 'challengeCanceled', 'challengeDeclined'].includes(String((v as { type?: unknown }).type));

export const isGameStreamEvent = (v: unknown): v is GameStreamEvent =>
  typeof v === 'object' && v !== null && ['gameFull', 'gameState', 'chatLine', 'opponentGone'].includes(String((v as { type?: unknown }).type));
