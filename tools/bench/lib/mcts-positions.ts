/**
 * The positions the MCTS benchmarks search from (tools/bench/nn.ts, tools/bench/mcts-cpu.ts): an
 * opening and a tactical middlegame per game, so the rates of the two benchmarks compare.
 */
import type { GameKind } from '../../../src/core/game.js';

export const MCTS_POSITIONS: Record<GameKind, readonly { start: string; moves: string[] }[]> = {
  chess: [
    { start: 'startpos', moves: ['e2e4', 'c7c5', 'g1f3', 'd7d6'] },
    { start: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', moves: [] },
  ],
  shogi: [
    { start: 'startpos', moves: ['7g7f', '3c3d', '2g2f'] },
    { start: 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1', moves: [] },
  ],
};
