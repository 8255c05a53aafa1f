/**
 * lishogi's Bot API JSON shapes, as its code writes them (lishogi: `modules/bot/src/main/BotJsonView.scala`,
 * `modules/api/src/main/EventStream.scala`, `modules/game/src/main/JsonView.scala` `ownerPreview`,
 * `modules/challenge/src/main/JsonView.scala`; scalashogi `Status.scala`, `Clock.scala`). The JSON Schemas
 * in tests/fixtures/lishogi/schemas/ are the full contract with the commits read; these types hold what Kishi
 * reads. Unlike lichess:
 * - colours are `sente` (moves first) and `gote`;
 * - in `gameState`, `btime`/`binc` are sente's and `wtime`/`winc` gote's (shogi calls sente "black"),
 *   `byo` is the byoyomi in milliseconds, and the draw flags are `sdraw`/`gdraw` (always present);
 * - `gameFull` names the players `sente`/`gote` (with `white`/`black` kept as aliases of sente/gote for old
 *   clients), gives `initialSfen` (and `initialFen` as an alias), and its clock has `byoyomi` (ms) and `periods`;
 * - challenges' `timeControl` has `byoyomi` (s) and `periods`; there are no decline reasons.
 */
import type { ShogiVariantKey, Speed } from '../lichess/types.js';

export type ShogiColor = 'sente' | 'gote';

/**
 * scalashogi `Status` names and ids, as lishogi.org runs them: scalashogi 13.2.0 (lishogi
 * `project/Dependencies.scala` @ WandererXII/lishogi@acb3b122), `src/main/scala/Status.scala` @
 * WandererXII/scalashogi@e49f8a477ea456d127476d7cbc5de19a83b1b345: `paused` 21 (an adjourned game; not
 * over), `check` 45 (check shogi; was `specialVariantEnd`), `illegalMove` 46 (an illegal move in pro mode
 * loses; scalashogi@b42b8df2).
 */
export const LISHOGI_STATUSES = [
  'created',
  'started',
  'paused',
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
  'tryRule',
  'perpetualCheck',
  'impasse27',
  'royalsLost',
  'bareKing',
  'repetition',
  'check',
  'illegalMove',
] as const;
export type LishogiStatus = (typeof LISHOGI_STATUSES)[number];

/** Numeric status ids (scalashogi `Status.scala`), sent as `status.id` in gameStart/gameFinish. */
export const LISHOGI_STATUS_IDS: Readonly<Record<LishogiStatus, number>> = {
  created: 10,
  started: 20,
  paused: 21,
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
  tryRule: 39,
  perpetualCheck: 40,
  impasse27: 41,
  royalsLost: 42,
  bareKing: 43,
  repetition: 44,
  check: 45,
  illegalMove: 46,
};

/**
 * lishogi perf keys (`modules/rating/src/main/PerfType.scala` @ WandererXII/lishogi@acb3b122, since
 * "Merge perftypes, remove speeds" @ee461317): one `realTime` perf for standard shogi with a clock, one
 * `correspondence` perf without, and one perf per variant whatever its clock (`PerfType.from`). A
 * challenge's `perf.name` and the `perf` of gameStart/gameFinish and `/api/account/playing` are these keys.
 */
export const LISHOGI_PERF_KEYS = ['realTime', 'correspondence', 'minishogi', 'chushogi', 'annanshogi', 'kyotoshogi', 'checkshogi', 'dobutsu'] as const;

export interface LishogiVariant {
  readonly key: ShogiVariantKey;
  readonly name: string;
  readonly short?: string;
}

/** `BotJsonView.playerJson`: every field is added only when known. */
export interface LishogiPlayer {
  readonly aiLevel?: number;
  readonly id?: string;
  readonly name?: string;
  readonly title?: string | null;
  readonly rating?: number;
  readonly provisional?: boolean;
}

/** `BotJsonView.gameState`. */
export interface LishogiGameState {
  readonly type: 'gameState';
  /** Every USI move since the start, space-separated. */
  readonly moves: string;
  /** Sente's clock, milliseconds (main time, or the byoyomi period once in byoyomi). */
  readonly btime: number;
  /** Gote's clock, milliseconds. */
  readonly wtime: number;
  readonly binc: number;
  readonly winc: number;
  /** Byoyomi, milliseconds (0: none). */
  readonly byo: number;
  readonly sdraw: boolean;
  readonly gdraw: boolean;
  readonly status: LishogiStatus;
  readonly winner?: ShogiColor;
  readonly rematch?: string;
  /** Kyoto shogi only. */
  readonly fairyMoves?: string;
}

/** `BotJsonView.gameFull` (WandererXII/lishogi@51be91d1 `modules/bot/src/main/BotJsonView.scala`). */
export interface LishogiGameFull {
  readonly type: 'gameFull';
  readonly id: string;
  readonly variant: LishogiVariant;
  /** Absent (null) for correspondence and unlimited games; milliseconds, periods a count. */
  readonly clock?: { readonly initial: number; readonly increment: number; readonly byoyomi: number; readonly periods: number } | null;
  /** Kept "for backwards support" only (`speedKeyBc`, marked to be removed): not relied on. */
  readonly speed?: Speed;
  /** The perf's translated name (`perfType.trans`), for display. */
  readonly perf?: { readonly name?: string } | null;
  readonly rated: boolean;
  readonly createdAt: number;
  readonly sente: LishogiPlayer;
  readonly gote: LishogiPlayer;
  /** `startpos` or an SFEN. */
  readonly initialSfen: string;
  readonly state: LishogiGameState;
  readonly tournamentId?: string;
}

export interface LishogiChatLine {
  readonly type: 'chatLine';
  readonly room: 'player' | 'spectator';
  readonly username: string;
  readonly text: string;
}

/**
 * `JsonView.ownerPreview` (WandererXII/lishogi@d2fbb2e2 `modules/game/src/main/JsonView.scala`) plus
 * `source`, `compat` and `id` (EventStream.gameJson); also each entry of `/api/account/playing`'s
 * `nowPlaying` (`LobbyApi.nowPlaying`). No `speed` since @ee461317: `perf` is a perf key.
 */
export interface LishogiGameEventInfo {
  readonly fullId: string;
  readonly gameId: string;
  readonly id?: string;
  readonly sfen?: string;
  readonly color?: ShogiColor;
  readonly lastMove?: string;
  readonly source?: string;
  readonly status?: { readonly id: number; readonly name: LishogiStatus };
  readonly variant?: { readonly key: ShogiVariantKey; readonly name: string };
  /** A perf key (LISHOGI_PERF_KEYS). */
  readonly perf?: string;
  readonly rated?: boolean;
  readonly hasMoved?: boolean;
  readonly opponent?: { readonly id: string | null; readonly username: string; readonly rating?: number; readonly ai?: number };
  readonly isMyTurn?: boolean;
  readonly secondsLeft?: number;
  readonly tournamentId?: string;
  readonly winner?: ShogiColor;
  readonly compat?: { readonly bot?: boolean; readonly board?: boolean };
}

export interface LishogiChallengeUser {
  readonly id: string;
  readonly name: string;
  readonly title?: string | null;
  readonly rating?: number;
  readonly provisional?: boolean;
  readonly patron?: boolean;
  readonly online?: boolean;
  readonly lag?: number;
}

export type LishogiTimeControl =
  | {
      readonly type: 'clock';
      /** Seconds. */
      readonly limit: number;
      readonly increment: number;
      readonly byoyomi: number;
      readonly periods: number;
      readonly show?: string;
    }
  | { readonly type: 'correspondence'; readonly daysPerTurn: number }
  | { readonly type: 'unlimited' };

/**
 * `challenge/JsonView.apply` (WandererXII/lishogi@1ae6af1f `modules/challenge/src/main/JsonView.scala`): no
 * `speed` since @ee461317 ("Merge perftypes, remove speeds"); `perf.name` is the perf key.
 */
export interface LishogiChallenge {
  readonly id: string;
  readonly url: string;
  readonly status: 'created' | 'offline' | 'canceled' | 'declined' | 'accepted';
  readonly challenger: LishogiChallengeUser | null;
  readonly destUser: LishogiChallengeUser | null;
  readonly variant: { readonly key: ShogiVariantKey; readonly name: string };
  readonly rated: boolean;
  readonly timeControl: LishogiTimeControl;
  readonly color: 'random' | 'sente' | 'gote';
  /** `name` is the perf key (LISHOGI_PERF_KEYS). */
  readonly perf: { readonly icon: string; readonly name: string };
  readonly direction?: 'in' | 'out';
  readonly rematchOf?: string;
  readonly initialSfen?: string;
}
