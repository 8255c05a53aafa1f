/**
 * Matchmaking (off by default), after lichess-bot's `lib/matchmaking.py`: when the bot has a free slot and
 * has not challenged anyone for `intervalS`, pick an online bot (`/api/bot/online`) whose rating fits,
 * propose one of the configured clocks and variants, and cancel the challenge if it is not answered within
 * `challengeTimeoutS` (25 s; lichess drops real-time challenges after 20 s anyway). A pending challenge holds
 * a game slot, so an acceptance that arrives late cannot push the bot over its concurrency (lichess-bot#1221).
 * Bots that decline, or that lichess reports as capped for the day, are not challenged again for
 * `declineMemoryH`; our own bot-vs-bot daily cap (429 `bot.vsBot.day`) pauses matchmaking for as long as
 * lichess says.
 * lichess-bot's finer points: `challengeFilter` (none: forget declines; coarse: skip the bot; fine: skip it
 * only for the variant, speed or mode its decline key names, preferring bots with no such memory),
 * `ratingPreference` (weights favouring stronger or weaker bots), `challengeDays` (correspondence
 * challenges), online block lists (`isBlocked`), and the decline memory kept on disk (`stateFile`).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type winston from 'winston';
import type { MatchmakingConfig } from '../../config/sections/lichess.js';
import type { LichessClient } from './client.js';
import type { ChallengeJson, OnlineBot } from './types.js';

export interface MatchmakerDeps {
  readonly client: LichessClient;
  readonly config: MatchmakingConfig;
  /** Our lichess id (lower-case). */
  readonly myId: string;
  readonly myRating: (perf: string) => number | undefined;
  /** Whether a new game fits now (free slot, daily cap, not shutting down, games in progress per config). */
  readonly canChallenge: () => boolean;
  /** Holds a slot for a pending challenge until `release`. */
  readonly reserve: (challengeId: string) => void;
  readonly release: (challengeId: string) => void;
  /** Whether a bot (lower-case id) is on an online block list (matchmaking.onlineBlockList and friends). */
  readonly isBlocked?: (id: string) => boolean;
  readonly log: winston.Logger;
  /** Random source in [0, 1) (tests pass a fixed one). */
  readonly random?: () => number;
  /** Where the decline memory is kept across restarts (undefined: memory only). */
  readonly stateFile?: string;
}

/** What a decline key says the bot objected to (fine filter): the variant, the speed, the mode, or the bot itself. */
const ASPECT_OF_DECLINE: Readonly<Record<string, 'variant' | 'speed' | 'mode'>> = {
  variant: 'variant',
  standard: 'variant',
  toofast: 'speed',
  tooslow: 'speed',
  timecontrol: 'speed',
  rated: 'mode',
  casual: 'mode',
};

interface Pending {
  readonly id: string;
  readonly opponent: string;
  readonly timer: NodeJS.Timeout;
  /** The challenge's variant, speed and mode, for the fine filter. */
  readonly aspects: { readonly variant: string; readonly speed: string; readonly mode: string };
}

export class Matchmaker {
  private lastChallengeAt = 0;
  private pending: Pending | undefined;
  private readonly declinedUntil = new Map<string, number>();
  private pausedUntil = 0;
  private busy = false;
  private stopped = false;
  /** Counters for tests. */
  readonly stats = { challenges: 0, canceled: 0, declined: 0, accepted: 0 };

  constructor(private readonly deps: MatchmakerDeps) {
    if (deps.stateFile === undefined) return;
    try {
      const saved = JSON.parse(readFileSync(deps.stateFile, 'utf8')) as Record<string, number>;
      for (const [k, until] of Object.entries(saved)) if (typeof until === 'number') this.declinedUntil.set(k, until);
    } catch {
      // No memory yet.
    }
  }

  /** Called periodically by the bot. */
  async tick(now: number = Date.now()): Promise<void> {
    const cfg = this.deps.config;
    if (!cfg.enabled || this.stopped || this.busy || this.pending !== undefined) return;
    if (now < this.pausedUntil || now - this.lastChallengeAt < cfg.intervalS * 1000) return;
    if (!this.deps.canChallenge()) return;
    this.busy = true;
    try {
      await this.challengeSomeone(now);
    } finally {
      this.busy = false;
    }
  }

  /** Whether this challenge id is ours and still pending. */
  isPending(id: string): boolean {
    return this.pending?.id === id;
  }

  /** Our challenge became a game. */
  onGameStart(id: string): void {
    if (this.pending?.id !== id) return;
    clearTimeout(this.pending.timer);
    this.pending = undefined;
    this.stats.accepted++;
    // The slot now belongs to the game; the bot converts the reservation.
  }

  /** Our challenge was declined or canceled (by them, by lichess on expiry, or by us). */
  onChallengeGone(c: ChallengeJson, declined: boolean): void {
    if (this.pending?.id !== c.id) return;
    clearTimeout(this.pending.timer);
    if (declined) {
      this.stats.declined++;
      const filter = this.deps.config.challengeFilter;
      const key = (c as { declineReasonKey?: string }).declineReasonKey?.toLowerCase() ?? '';
      const aspect = ASPECT_OF_DECLINE[key];
      if (filter === 'coarse' || (filter === 'fine' && aspect === undefined)) this.remember(this.pending.opponent);
      else if (filter === 'fine' && aspect !== undefined) this.remember(this.pending.opponent, this.pending.aspects[aspect]);
    }
    this.deps.release(c.id);
    this.pending = undefined;
  }

  /** Stops challenging and cancels a pending challenge. */
  async stop(): Promise<void> {
    this.stopped = true;
    const p = this.pending;
    if (p === undefined) return;
    clearTimeout(p.timer);
    this.pending = undefined;
    await this.deps.client.request('cancel', { args: [p.id] });
    this.deps.release(p.id);
  }

  /** Remembers a decline: of the bot itself (`aspect` empty) or of one variant, speed or mode. */
  private remember(opponent: string, aspect = ''): void {
    this.declinedUntil.set(`${opponent}|${aspect}`, Date.now() + this.deps.config.declineMemoryH * 3_600_000);
    this.save();
  }

  private declined(opponent: string, aspect = ''): boolean {
    return (this.declinedUntil.get(`${opponent}|${aspect}`) ?? 0) > Date.now();
  }

  private save(): void {
    const file = this.deps.stateFile;
    if (file === undefined) return;
    const now = Date.now();
    for (const [k, until] of this.declinedUntil) if (until <= now) this.declinedUntil.delete(k);
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(this.declinedUntil)));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The memory still holds for this run.
    }
  }

  /** Weighted pick (lichess-bot `get_weights`): `high` favours strong bots, `low` weak ones, within [lo, hi]. */
  private pickWeighted(bots: readonly OnlineBot[], perf: string, lo: number, hi: number): OnlineBot | undefined {
    const pref = this.deps.config.ratingPreference;
    if (pref === 'none' || bots.length < 2) return this.pick(bots);
    const rating = (b: OnlineBot): number => b.perfs?.[perf]?.rating ?? lo;
    const weights =
      pref === 'high'
        ? bots.map((b) => rating(b) - Math.min(lo - (hi - lo), lo - 1))
        : bots.map((b) => Math.max(2 * hi - lo, hi + 1) - rating(b));
    const total = weights.reduce((a, w) => a + Math.max(0, w), 0);
    let r = (this.deps.random ?? Math.random)() * total;
    for (let i = 0; i < bots.length; i++) {
      r -= Math.max(0, weights[i] ?? 0);
      if (r < 0) return bots[i];
    }
    return bots[bots.length - 1];
  }

  private pick<T>(items: readonly T[]): T | undefined {
    if (items.length === 0) return undefined;
    return items[Math.floor((this.deps.random ?? Math.random)() * items.length)];
  }

  private async challengeSomeone(now: number): Promise<void> {
    const cfg = this.deps.config;
    const { client, log } = this.deps;
    const variant = this.pick(cfg.variants) ?? 'standard';
    const limit = this.pick(cfg.initialTimesS) ?? 180;
    const increment = this.pick(cfg.incrementsS) ?? 0;
    const hasClock = cfg.initialTimesS.length > 0 || cfg.incrementsS.length > 0;
    const days =
      cfg.challengeDays.length > 0 && (!hasClock || (this.deps.random ?? Math.random)() < 0.5) ? (this.pick(cfg.challengeDays) ?? 1) : 0;
    const speed = days > 0 ? 'correspondence' : speedOf(limit, increment);
    const perf = variant === 'standard' || variant === 'fromPosition' ? speed : variant;
    const online = await client.request<OnlineBot[]>('onlineBots', { query: { nb: 512 } });
    if (online.isErr) {
      log.warn(`matchmaking: cannot list online bots: ${online.error.message}`);
      this.lastChallengeAt = now;
      return;
    }
    const mine = this.deps.myRating(perf);
    const blocked = new Set(cfg.blockList.map((n) => n.toLowerCase()));
    const candidates = online.value.data.filter((b) => {
      const id = b.id.toLowerCase();
      if (id === this.deps.myId || blocked.has(id) || this.deps.isBlocked?.(id)) return false;
      if (this.declined(id)) return false;
      const rating = b.perfs?.[perf]?.rating;
      if (rating === undefined) return true;
      if (rating < cfg.minRating || rating > cfg.maxRating) return false;
      return mine === undefined || Math.abs(rating - mine) <= cfg.maxRatingDifference;
    });
    const rated = cfg.mode === 'rated' || (cfg.mode === 'random' && (this.deps.random ?? Math.random)() < 0.5);
    const mode = rated ? 'rated' : 'casual';
    // Fine filter: bots that declined this variant, speed or mode come last (only when nobody else is left).
    const ready = candidates.filter((b) => ![variant, speed, mode].some((a) => this.declined(b.id.toLowerCase(), a)));
    const lo = Math.max(cfg.minRating, mine !== undefined ? mine - cfg.maxRatingDifference : cfg.minRating);
    const hi = Math.min(cfg.maxRating, mine !== undefined ? mine + cfg.maxRatingDifference : cfg.maxRating);
    const target = this.pickWeighted(ready.length > 0 ? ready : candidates, perf, lo, hi);
    this.lastChallengeAt = now;
    if (target === undefined) {
      log.debug('matchmaking: no suitable bot online');
      return;
    }
    if (!this.deps.canChallenge()) return;
    const r = await client.request<ChallengeJson>('challenge', {
      args: [target.username],
      form: days > 0 ? { rated, days, color: 'random', variant } : { rated, 'clock.limit': limit, 'clock.increment': increment, color: 'random', variant },
    });
    if (r.isErr) {
      const e = r.error;
      if (e.status === 429 && e.rateLimit?.key === 'bot.vsBot.day') {
        this.pausedUntil = Date.now() + (e.rateLimit.waitMs ?? 86_400_000);
        log.warn(`matchmaking: our bot-vs-bot daily cap is reached; pausing for ${Math.round((this.pausedUntil - Date.now()) / 1000)} s`);
      } else if (e.status === 400 && e.rateLimit !== undefined) {
        this.remember(target.id.toLowerCase());
        log.info(`matchmaking: ${target.username} cannot play more bots today`);
      } else {
        this.remember(target.id.toLowerCase());
        log.warn(`matchmaking: challenging ${target.username} failed: ${e.message}`);
      }
      return;
    }
    const id = r.value.data.id;
    this.stats.challenges++;
    this.deps.reserve(id);
    log.info(`matchmaking: challenged ${target.username} (${variant} ${days > 0 ? `${days} days` : `${limit}+${increment}`}${rated ? ' rated' : ''}), challenge ${id}`);
    const timer = setTimeout(() => {
      if (this.pending?.id !== id) return;
      this.pending = undefined;
      this.stats.canceled++;
      log.info(`matchmaking: ${target.username} did not answer; canceling ${id}`);
      void client.request('cancel', { args: [id] }).finally(() => this.deps.release(id));
    }, cfg.challengeTimeoutS * 1000);
    this.pending = { id, opponent: target.id.toLowerCase(), timer, aspects: { variant, speed, mode } };
  }
}

/** Lichess's speed for a clock: estimated duration = limit + 40 × increment (seconds). */
export function speedOf(limitS: number, incrementS: number): 'ultraBullet' | 'bullet' | 'blitz' | 'rapid' | 'classical' {
  const total = limitS + 40 * incrementS;
  if (total < 30) return 'ultraBullet';
  if (total < 180) return 'bullet';
  if (total < 480) return 'blitz';
  if (total < 1500) return 'rapid';
  return 'classical';
}
