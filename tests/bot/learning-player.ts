/**
 * TEST DOUBLE for the online-learning tests: the real alpha-beta engine (in-process, no worker thread),
 * searching a fixed number of nodes per move whatever the clock says, so that games are reproducible
 * and fast; its weights are read from the live weights file when it is made, like the engine's.
 * `loads` records every weights file version a Player was made with.
 */
import { readFileSync } from 'node:fs';
import type { GameKind } from '../../src/core/game.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../../src/player/alphabeta-engine.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../src/player/player.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';

export class NodeLimitedPlayer implements Player {
  readonly name = 'kishi-alphabeta-inline (test double)';
  private readonly engine: AlphaBetaEngine;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));

  constructor(
    private readonly game: GameKind,
    theta: Float64Array,
    private readonly nodes: number,
  ) {
    this.engine = new AlphaBetaEngine({ game, theta, hashMb: 1, moveOverheadMs: 0 });
  }

  supports(game: GameKind, variant: string): boolean {
    return game === this.game && (game === 'shogi' ? variant === 'standard' : ['standard', 'fromPosition'].includes(variant));
  }

  async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    Atomics.store(this.signal, 0, 0);
    const { clock: _clock, ponder: _ponder, ...rest } = request;
    const r = this.engine.go({ ...rest, limits: { nodes: this.nodes } }, this.signal);
    if (r.isErr) throw r.error;
    if (r.value.info !== undefined) onInfo?.(r.value.info);
    return r.value;
  }

  stop(): void {
    Atomics.store(this.signal, 0, 1);
  }

  ponderhit(): void {}

  async newGame(): Promise<void> {
    this.engine.newGame();
  }

  async close(): Promise<void> {}
}

/** A player factory over the weights file `weightsFile`, recording the file's text at each creation. */
export function learningPlayerFactory(
  weightsFile: string,
  nodes: number,
): { readonly factory: (game: GameKind) => Promise<Player>; readonly loads: string[] } {
  const loads: string[] = [];
  return {
    loads,
    factory: async (game) => {
      const text = readFileSync(weightsFile, 'utf8');
      const w = loadWeightsFile(weightsFile, game);
      if (w.isErr) throw w.error;
      loads.push(text);
      return new NodeLimitedPlayer(game, w.value.theta, nodes);
    },
  };
}
