import { describe, expect, it } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { KishiError, Result } from '../../../src/core/result.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { recordsFromLabels } from '../../../src/learning/datagen/label-records.js';
import { decodeChessRecord, decodeShogiRecord, RECORD_BYTES, RESULT_DRAW } from '../../../src/learning/datagen/position-record.js';
import { recordWriter } from '../../../src/learning/datagen/record-writers.js';
import type { StoredLabel } from '../../../src/learning/policy/label-file.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';

const boards = (game: GameKind) => {
  const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
  if (game === 'chess') {
    const ce = new ChessLinearEval(theta);
    return (position: string): Result<SearchBoard, KishiError> => ChessSearchBoard.fromText(position, [], ce);
  }
  const se = new ShogiLinearEval(theta);
  return (position: string): Result<SearchBoard, KishiError> => ShogiSearchBoard.fromText(position, [], se);
};

const label = (position: string, move: string, score: number): StoredLabel => ({ position, moves: ['x', move], target: 1, score });

const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
// After 7g7f 3c3d: the bishops see each other.
const SHOGI_OPEN = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3';
const CHESS_START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('recordsFromLabels', () => {
  it('keeps what a datagen game keeps: quiet moves out of check, scores below the cap', () => {
    const make = boards('shogi');
    const labels = [
      label(SHOGI_START, '7g7f', 30), // kept
      label(SHOGI_OPEN, '8h2b+', 200), // capture and promotion
      label(SHOGI_OPEN, '2g2f', -15), // kept
      label('4k4/9/9/9/9/9/9/4r4/4K4 b - 1', '5i4i', -900), // in check
      label(SHOGI_START, '2g2f', 3000), // at the score cap
      label(SHOGI_START, 'P*5e', 0), // not legal: no pawn in hand
    ];
    expect(recordsFromLabels('shogi', labels.slice(0, 5), make).map((r) => r.count).unwrap()).toBe(2);
    const { records } = recordsFromLabels('shogi', labels.slice(0, 5), make).unwrap();
    // The records are those the datagen writer makes of the same boards.
    const expected = new Uint8Array(2 * RECORD_BYTES.shogi);
    recordWriter('shogi')(make(SHOGI_START).unwrap(), expected, 0, 30);
    recordWriter('shogi')(make(SHOGI_OPEN).unwrap(), expected, RECORD_BYTES.shogi, -15);
    const first = decodeShogiRecord(records, 0).unwrap();
    expect([first.score, first.result, first.stm]).toEqual([30, RESULT_DRAW, 0]);
    expect(decodeShogiRecord(records, RECORD_BYTES.shogi).unwrap().score).toBe(-15);
    // Apart from the result byte, which datagen fills in at the game's end.
    for (const off of [0, RECORD_BYTES.shogi]) expected[off + 56] = RESULT_DRAW;
    expect(records).toEqual(expected);
    const bad = recordsFromLabels('shogi', labels, make);
    expect(bad.isErr && bad.error.code).toBe('ERR_LABELS');
    expect(bad.isErr && bad.error.message).toMatch(/P\*5e is not legal/);
  });

  it('chess: captures, promotions and mate scores are left out; a bad FEN is an error', () => {
    const make = boards('chess');
    const r = recordsFromLabels(
      'chess',
      [
        label(CHESS_START, 'e2e4', 20),
        label('4k3/P7/8/8/8/8/8/4K3 w - - 0 1', 'a7a8q', 800),
        label('4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1', 'e4d5', 100),
        label(CHESS_START, 'd2d4', 31990),
      ],
      make,
    ).unwrap();
    expect(r.count).toBe(1);
    expect(decodeChessRecord(r.records, 0).unwrap().score).toBe(20);
    const bad = recordsFromLabels('chess', [label('not a fen', 'e2e4', 0)], make);
    expect(bad.isErr && bad.error.code).toBe('ERR_FEN');
  });
});
