/**
 * A Kishi alpha-beta engine with given weights (linear, or a network), run synchronously in this thread, behind the match
 * runner's `MatchEngine`: the trainer's evaluation matches need no child processes, no compiled
 * worker and no weights files. Meant for fixed-node (or fixed-depth) matches: a search blocks the
 * event loop, so clocks are not enforced while it runs.
 */
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../../core/game.js';
import type { NnueNetwork } from '../../eval/nnue/network.js';
import { Result } from '../../core/result.js';
import type { KishiError } from '../../core/result.js';
import type { EngineGoRequest, EngineReply, MatchEngine } from '../../engines/match-engine.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../../player/alphabeta-engine.js';
import type { SearchLimits } from '../../player/player.js';

export class InlineEngine implements MatchEngine {
  private readonly engine: AlphaBetaEngine;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  private readonly recent: string[] = [];

  constructor(
    readonly name: string,
    private readonly game: GameKind,
    theta: Float64Array,
    hashMb = 16,
    nnue?: NnueNetwork,
  ) {
    this.engine = new AlphaBetaEngine({ game, theta: Float64Array.from(theta), hashMb, moveOverheadMs: 0, ...(nnue !== undefined ? { nnue } : {}) });
  }

  alive(): boolean {
    return true;
  }

  async newGame(): Promise<Result<void, KishiError>> {
    this.engine.newGame();
    return Result.ok(undefined);
  }

  async go(req: EngineGoRequest): Promise<EngineReply> {
    const limits: SearchLimits = {
      ...(req.nodes !== undefined ? { nodes: req.nodes } : {}),
      ...(req.depth !== undefined ? { depth: req.depth } : {}),
      ...(req.movetimeMs !== undefined ? { movetimeMs: req.movetimeMs } : {}),
    };
    const t0 = performance.now();
    const r = this.engine.go(
      { game: this.game, variant: 'standard', start: req.start, moves: req.moves, ...(req.clock !== undefined ? { clock: req.clock } : {}), limits },
      this.signal,
    );
    const elapsedMs = performance.now() - t0;
    if (r.isErr) {
      this.recent.push(`! ${r.error.message}`);
      return { kind: 'crash', elapsedMs, detail: r.error.message };
    }
    this.recent.push(`< ${r.value.move}`);
    if (this.recent.length > 20) this.recent.shift();
    return { kind: 'move', move: r.value.move, ...(r.value.info !== undefined ? { info: r.value.info } : {}), elapsedMs };
  }

  gameOver(): void {}

  lastLines(): string[] {
    return [...this.recent];
  }

  async close(): Promise<void> {}
}
