/**
 * TEST DOUBLE for the online-learning tests (the shared fake Player answering with the real alpha-beta
 * engine, in-process, no worker thread),
 * searching a fixed number of nodes per move whatever the clock says, so that games are reproducible
 * and fast; its weights are read from the live weights file when it is made, like the engine's.
 * `loads` records every weights file version a Player was made with.
 */
import { readFileSync } from 'node:fs';
import type { GameKind } from '../../src/core/game.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../../src/player/alphabeta-engine.js';
import type { Player } from '../../src/player/player.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';
import { FakePlayer } from '../fakes/player.js';

export class NodeLimitedPlayer extends FakePlayer {
  constructor(game: GameKind, theta: Float64Array, nodes: number) {
    const engine = new AlphaBetaEngine({ game, theta, hashMb: 1, moveOverheadMs: 0 });
    const signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
    super({
      name: 'kishi-alphabeta-inline (test double)',
      games: [game],
      // The real engine on a node budget, whatever the clock says; a ponder guess is searched as it comes.
      answer: (request) => {
        const { clock: _clock, ponder: _ponder, budget: _budget, ...rest } = request;
        const r = engine.go({ ...rest, limits: { nodes } }, signal);
        if (r.isErr) throw r.error;
        return r.value;
      },
      onNewGame: () => engine.newGame(),
    });
  }
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
