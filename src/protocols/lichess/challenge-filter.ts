/**
 * Which challenges to accept, and the decline reason to send for the others. The checks run in
 * lichess-bot's order (`lib/model.py` `Challenge.is_supported`), and the first failure decides:
 * noBot → onlyBot → time control (timeControl, tooFast, tooSlow) → variant (variant, standard) →
 * mode (casual, rated) → generic (block list, online block lists, allow list, rating) → generic (the engine
 * cannot play it) → later (shutting down, per-opponent limit, recent games against a bot, the bot-vs-bot
 * daily cap, slots reserved for humans, concurrency).
 * lichess-bot sends `timeControl` for every clock failure; Kishi uses the finer keys the API offers.
 * Pure: the caller supplies the counts.
 */
import type { ChallengeFilterConfig } from '../../config/sections/lichess.js';
import type { ChallengeJson, DeclineReason } from './types.js';

/** What the filter needs to know about the bot's current state. */
export interface ChallengeContext {
  /** Our own lichess id (lower-case). */
  readonly myId: string;
  /** Our rating for a perf key (`blitz`, `chess960`...), when known. */
  readonly myRating: (perf: string) => number | undefined;
  /** Games playing now plus challenges accepted whose game has not started yet. */
  readonly busySlots: number;
  readonly concurrency: number;
  /** Games in progress against this opponent (lower-case id). */
  readonly gamesWith: (opponentId: string) => number;
  /** Games started against this bot within the recent window. */
  readonly recentGamesWith: (opponentId: string) => number;
  /** Games against bots started in the last 24 hours. */
  readonly botGamesToday: number;
  /** Whether the engine plays this lichess variant. */
  readonly supportsVariant: (variant: string) => boolean;
  /** SIGINT/SIGTERM received: no new games. */
  readonly shuttingDown: boolean;
  /** Whether a user (lower-case id) is on one of the online block lists. */
  readonly onlineBlocked?: (id: string) => boolean;
}

export type ChallengeDecision =
  | { readonly accept: true }
  | { readonly accept: false; readonly reason: DeclineReason; readonly why: string }
  /** Our own outgoing challenge echoed back: neither accept nor decline. */
  | { readonly accept: false; readonly reason: undefined; readonly why: string };

const isBot = (c: ChallengeJson): boolean => c.challenger.title === 'BOT';

/** The perf key the server rates this challenge under (lishogi gives it; lichess: the speed or the variant). */
export const perfKey = (c: ChallengeJson): string =>
  c.perfKey ?? (c.variant.key === 'standard' || c.variant.key === 'fromPosition' ? c.speed : c.variant.key);

function timeControlReason(c: ChallengeJson, cfg: ChallengeFilterConfig): [DeclineReason, string] | undefined {
  if (!cfg.speeds.includes(c.speed)) return ['timeControl', `speed ${c.speed} is not in ${cfg.speeds.join(',')}`];
  const tc = c.timeControl;
  if (tc.type === 'clock') {
    const minInc = Math.max(cfg.minIncrementS, cfg.bulletRequiresIncrement && isBot(c) && c.speed === 'bullet' ? 1 : 0);
    if (tc.limit < cfg.minBaseS) return ['tooFast', `initial clock ${tc.limit} s < ${cfg.minBaseS} s`];
    if (tc.increment < minInc) return ['tooFast', `increment ${tc.increment} s < ${minInc} s`];
    if (tc.limit > cfg.maxBaseS) return ['tooSlow', `initial clock ${tc.limit} s > ${cfg.maxBaseS} s`];
    if (tc.increment > cfg.maxIncrementS) return ['tooSlow', `increment ${tc.increment} s > ${cfg.maxIncrementS} s`];
    // lishogi clocks: byoyomi (seconds) and periods.
    const byo = tc.byoyomi ?? 0;
    if (byo > 0) {
      if (cfg.minByoyomiS !== undefined && byo < cfg.minByoyomiS) return ['tooFast', `byoyomi ${byo} s < ${cfg.minByoyomiS} s`];
      if (cfg.maxByoyomiS !== undefined && byo > cfg.maxByoyomiS) return ['tooSlow', `byoyomi ${byo} s > ${cfg.maxByoyomiS} s`];
      if (cfg.maxPeriods !== undefined && (tc.periods ?? 1) > cfg.maxPeriods) return ['tooSlow', `${tc.periods} byoyomi periods > ${cfg.maxPeriods}`];
    } else if (tc.limit === 0 && tc.increment === 0 && tc.byoyomi !== undefined) {
      return ['tooFast', 'no main time, increment or byoyomi'];
    }
    return undefined;
  }
  if (tc.type === 'correspondence') {
    if (tc.daysPerTurn < cfg.minDays) return ['tooFast', `${tc.daysPerTurn} days per move < ${cfg.minDays}`];
    if (tc.daysPerTurn > cfg.maxDays) return ['tooSlow', `${tc.daysPerTurn} days per move > ${cfg.maxDays}`];
    return undefined;
  }
  return cfg.allowUnlimited ? undefined : ['timeControl', 'games without a clock are not accepted'];
}

export function checkChallenge(c: ChallengeJson, cfg: ChallengeFilterConfig, ctx: ChallengeContext): ChallengeDecision {
  const challenger = c.challenger.id.toLowerCase();
  if (c.direction === 'out' || challenger === ctx.myId.toLowerCase()) {
    return { accept: false, reason: undefined, why: 'our own challenge' };
  }
  const decline = (reason: DeclineReason, why: string): ChallengeDecision => ({ accept: false, reason, why });
  const bot = isBot(c);
  if (bot && !cfg.acceptBot) return decline('noBot', 'challenges from bots are not accepted');
  if (!bot && cfg.onlyBot) return decline('onlyBot', 'only bots are accepted');
  const tc = timeControlReason(c, cfg);
  if (tc) return decline(tc[0], tc[1]);
  if (!cfg.variants.includes(c.variant.key)) {
    const onlyStandard = cfg.variants.length > 0 && cfg.variants.every((v) => v === 'standard');
    return decline(onlyStandard ? 'standard' : 'variant', `variant ${c.variant.key} is not in ${cfg.variants.join(',')}`);
  }
  const mode = c.rated ? 'rated' : 'casual';
  if (!cfg.modes.includes(mode)) return decline(c.rated ? 'casual' : 'rated', `${mode} games are not accepted`);
  const lower = (names: readonly string[]): string[] => names.map((n) => n.toLowerCase());
  if (lower(cfg.blockList).includes(challenger)) return decline('generic', `${c.challenger.name} is on the block list`);
  if (ctx.onlineBlocked?.(challenger)) return decline('generic', `${c.challenger.name} is on an online block list`);
  if (cfg.allowList.length > 0 && !lower(cfg.allowList).includes(challenger)) {
    return decline('generic', `${c.challenger.name} is not on the allow list`);
  }
  const rating = c.challenger.rating;
  if (rating !== undefined) {
    if (rating < cfg.minRating || rating > cfg.maxRating) return decline('generic', `rating ${rating} outside ${cfg.minRating}..${cfg.maxRating}`);
    const mine = ctx.myRating(perfKey(c));
    if (mine !== undefined && Math.abs(rating - mine) > cfg.maxRatingDifference) {
      return decline('generic', `rating ${rating} is more than ${cfg.maxRatingDifference} from ours (${mine})`);
    }
  }
  if (!ctx.supportsVariant(c.variant.key)) return decline('generic', `the engine does not play ${c.variant.key}`);
  if (ctx.shuttingDown) return decline('later', 'shutting down');
  if (ctx.gamesWith(challenger) >= cfg.maxGamesPerOpponent) {
    return decline('later', `already ${ctx.gamesWith(challenger)} game(s) against ${c.challenger.name}`);
  }
  if (bot && cfg.maxRecentBotChallenges > 0 && ctx.recentGamesWith(challenger) >= cfg.maxRecentBotChallenges) {
    return decline('later', `${ctx.recentGamesWith(challenger)} recent games against ${c.challenger.name}`);
  }
  if (bot && ctx.botGamesToday >= cfg.botGamesPerDay) return decline('later', `${ctx.botGamesToday} games against bots in 24 h`);
  if (bot && cfg.gamesReservedForHumans > 0 && ctx.busySlots >= ctx.concurrency - cfg.gamesReservedForHumans) {
    return decline('later', `${cfg.gamesReservedForHumans} game slot(s) are kept for humans`);
  }
  if (ctx.busySlots >= ctx.concurrency) return decline('later', `${ctx.busySlots} of ${ctx.concurrency} game slots busy`);
  return { accept: true };
}

/**
 * The order in which waiting challenges get a free slot (lichess-bot `challenge.sort_by`, `preference`):
 * the preferred kind (human or bot) first, then the highest challenger rating (`best`) or the earliest
 * arrival (`first`). Returns a comparator over (challenge, arrival index).
 */
export function challengeOrder(
  cfg: Pick<ChallengeFilterConfig, 'sortBy' | 'preference'>,
): (a: { readonly c: ChallengeJson; readonly seq: number }, b: { readonly c: ChallengeJson; readonly seq: number }) => number {
  const preferred = (c: ChallengeJson): number => (cfg.preference === 'none' ? 0 : (cfg.preference === 'bot') === isBot(c) ? 0 : 1);
  return (a, b) =>
    preferred(a.c) - preferred(b.c) ||
    (cfg.sortBy === 'best' ? (b.c.challenger.rating ?? 0) - (a.c.challenger.rating ?? 0) : 0) ||
    a.seq - b.seq;
}
