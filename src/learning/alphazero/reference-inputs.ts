/**
 * The fixed reference positions of the model manifests, encoded: writes a training chunk whose
 * records hold the input planes and legal-move policy indices of each position and, as text,
 * `{"start", "moves", "chess960", "legal": [move texts in policy order]}`. trainer/kishi_nn/export.py
 * runs the net on them and records the outputs in the manifest; tests/nn/model.test.ts checks that
 * onnxruntime-node reproduces them. The positions are in `REFERENCE_POSITIONS` below. The AlphaZero
 * loop writes the chunk for the trainer; tools/nn/reference-inputs.ts writes it from the command line.
 */
import type { GameKind } from '../../core/game.js';
import { ChunkWriter } from '../../nn/training-chunk.js';
import { ChessMctsBoard } from '../../search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../search/mcts/mcts-board.js';
import { ShogiMctsBoard } from '../../search/mcts/shogi-mcts-board.js';

export interface ReferenceInput {
  readonly start: string;
  readonly moves: readonly string[];
  readonly chess960?: boolean;
}

export const REFERENCE_POSITIONS: Record<GameKind, readonly ReferenceInput[]> = {
  chess: [
    { start: 'startpos', moves: [] },
    { start: 'startpos', moves: ['e2e4', 'c7c5', 'g1f3'] },
    { start: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', moves: [] },
    { start: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', moves: ['e1g1'] },
    { start: 'bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1', moves: ['g2g3', 'g7g6'], chess960: true },
    { start: 'n3k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1', moves: [] },
    { start: '8/8/4k3/8/2pP4/8/8/4K3 b - d3 0 40', moves: [] },
  ],
  shogi: [
    { start: 'startpos', moves: [] },
    { start: 'startpos', moves: ['7g7f', '3c3d', '8h2b+', '3a2b'] },
    { start: 'startpos', moves: ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e', '8d8e', '6i7h', '4a3b', '2e2d', '2c2d', '2h2d', 'P*2c', '2d2f'] },
    { start: '4k4/9/4P4/9/9/9/9/9/4K4 b G 1', moves: [] },
    { start: '9/4k4/9/9/9/9/9/4K4/9 b 2R2B4G4S4N4L18P 1', moves: [] },
  ],
};

/** The chunk of `game`'s reference positions. */
export const referenceChunk = (game: GameKind): Uint8Array => {
  let writer: ChunkWriter | undefined;
  for (const ref of REFERENCE_POSITIONS[game]) {
    const board: MctsBoard =
      game === 'chess' ? ChessMctsBoard.fromText(ref.start, ref.moves, ref.chess960 === true).unwrap() : ShogiMctsBoard.fromText(ref.start, ref.moves).unwrap();
    writer ??= new ChunkWriter(board.spec, { phase: 'reference' });
    const list = new Int32Array(board.maxMoves);
    const n = board.generate(list);
    const planes = new Float32Array(board.spec.inputSize);
    board.encode(planes, 0);
    const indices = new Int32Array(n);
    board.moveIndices(list, n, indices);
    const legal = Array.from(list.subarray(0, n), (m) => board.moveToText(m));
    writer.add({
      planes,
      moveIndices: indices,
      policy: new Float32Array(n).fill(1 / n),
      value: NaN,
      result: 0,
      text: JSON.stringify({ start: ref.start, moves: ref.moves, chess960: ref.chess960 === true, legal }),
    });
  }
  return writer!.toBytes();
};
