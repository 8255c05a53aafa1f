/**
 * An in-process Kishi {@link Player} behind {@link MatchEngine}, so `kishi match` can play a player
 * without a child process (tests, quick experiments). The request becomes a `GoRequest`
 * (clock and hard limits in the Player API's shape); a throw is a crash, a missed deadline a loss on
 * time, and a player that does not stop within `graceMs` after `stop()` counts as hung (it is then
 * closed and reported dead, so the runner makes a new one).
 */
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../core/game.js';
import { Result } from '../core/result.js';
import type { KishiError } from '../core/result.js';
import type { GoRequest, GoResult, Player, SearchLimits } from '../player/player.js';
import type { EngineGoRequest, EngineReply, MatchEngine } from '../engines/match-engine.js';

export interface PlayerEngineOptions {
  readonly game: GameKind;
  readonly variant: string;
  readonly name?: string;
  readonly graceMs?: number;
  readonly logLines?: number;
}

export class PlayerEngine implements MatchEngine {
  private dead = false;
  private readonly recent: string[] = [];
  private readonly born = performance.now();

  constructor(
    private readonly player: Player,
    private readonly opts: PlayerEngineOptions,
  ) {}

  get name(): string {
    return this.opts.name ?? this.player.name;
  }

  alive(): boolean {
    return !this.dead;
  }

  async newGame(): Promise<Result<void, KishiError>> {
    this.log('#', 'newGame');
    await this.player.newGame();
    return Result.ok(undefined);
  }

  async go(req: EngineGoRequest): Promise<EngineReply> {
    if (this.dead) return { kind: 'crash', elapsedMs: 0, detail: 'the player was closed after a hang' };
    const limits: SearchLimits = {
      ...(req.movetimeMs !== undefined ? { movetimeMs: req.movetimeMs } : {}),
      ...(req.nodes !== undefined ? { nodes: req.nodes } : {}),
      ...(req.depth !== undefined ? { depth: req.depth } : {}),
    };
    const request: GoRequest = {
      game: this.opts.game,
      variant: this.opts.variant,
      start: req.start,
      moves: req.moves,
      ...(req.clock !== undefined ? { clock: req.clock } : {}),
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
    };
    this.log('>', `go ${req.start} moves ${req.moves.join(' ')}`);
    const t0 = performance.now();
    const search = this.player.go(request).then(
      (r): { ok: GoResult } => ({ ok: r }),
      (e: unknown): { error: string } => ({ error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
    );
    const first = await raceTimeout(search, req.deadlineMs);
    if (first !== 'timeout') return this.reply(first, performance.now() - t0);
    const elapsedMs = performance.now() - t0;
    this.log('>', 'stop');
    this.player.stop();
    const late = await raceTimeout(search, this.opts.graceMs ?? 1000);
    if (late === 'timeout') {
      this.dead = true;
      this.log('#', 'no answer to stop: closing the player');
      void this.player.close().catch(() => {});
    }
    return { kind: 'timeout', elapsedMs, responsive: late !== 'timeout' };
  }

  private reply(r: { ok: GoResult } | { error: string }, elapsedMs: number): EngineReply {
    if ('error' in r) {
      this.log('!', r.error);
      return { kind: 'crash', elapsedMs, detail: `the player threw: ${r.error}` };
    }
    this.log('<', `bestmove ${r.ok.move}${r.ok.info ? ` (depth ${r.ok.info.depth}, score ${JSON.stringify(r.ok.info.score)})` : ''}`);
    return { kind: 'move', move: r.ok.move, ...(r.ok.ponder !== undefined ? { ponder: r.ok.ponder } : {}), ...(r.ok.info ? { info: r.ok.info } : {}), elapsedMs };
  }

  gameOver(): void {}

  lastLines(): string[] {
    return [...this.recent];
  }

  async close(): Promise<void> {
    this.dead = true;
    await this.player.close();
  }

  private log(mark: string, text: string): void {
    this.recent.push(`+${((performance.now() - this.born) / 1000).toFixed(3)}s ${mark} ${text}`);
    if (this.recent.length > (this.opts.logLines ?? 100)) this.recent.shift();
  }
}

async function raceTimeout<T>(p: Promise<T>, timeoutMs: number | undefined): Promise<T | 'timeout'> {
  if (timeoutMs === undefined) return p;
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), Math.max(0, timeoutMs))));
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}
