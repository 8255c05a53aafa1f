/**
 * Datagen records from policy labels (src/learning/policy/label-file.ts): the positions the label
 * jobs searched also train the value network. A label keeps the position, the search's move and its
 * score; the same filter as a datagen game (datagen-game.ts) picks the positions: not in check, a
 * quiet best move (no capture or promotion), a score below `maxScoreCp` and not a mate score.
 *
 * A label keeps no game result: the records say draw. Chunks of such records carry a game count of
 * 0, which `trainer/nnue_train.py` reads as "no results" (it then trains on the scores alone).
 */
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { isMateScore } from '../../search/alphabeta/score.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { StoredLabel } from '../policy/label-file.js';
import { RESULT_OFFSET } from './datagen-game.js';
import { RECORD_BYTES, RESULT_DRAW } from './position-record.js';
import { recordWriter } from './record-writers.js';

/**
 * The records of the labels that pass the datagen filter, in order. `makeBoard` builds the search
 * board of a FEN/SFEN (`ERR_FEN` / `ERR_SFEN`); a label whose move is not legal there is `ERR_LABELS`.
 */
export const recordsFromLabels = (
  game: GameKind,
  labels: readonly StoredLabel[],
  makeBoard: (position: string) => Result<SearchBoard, KishiError>,
  maxScoreCp = 3000,
): Result<{ records: Uint8Array; count: number }, KishiError> => {
  const rb = RECORD_BYTES[game];
  const write = recordWriter(game);
  const records = new Uint8Array(labels.length * rb);
  let count = 0;
  for (const [i, l] of labels.entries()) {
    const board = makeBoard(l.position);
    if (board.isErr) return Result.err(board.error);
    const b = board.value;
    const text = l.moves[l.target]!;
    const move = b.parseMove(text);
    if (move === 0) return Result.err(new KishiError('ERR_LABELS', `label ${i}: move ${text} is not legal in ${l.position}`));
    if (isMateScore(l.score) || Math.abs(l.score) >= maxScoreCp || b.inCheck() || b.tacticalOrder(move) !== 0) continue;
    write(b, records, count * rb, l.score);
    records[count * rb + RESULT_OFFSET[game]] = RESULT_DRAW;
    count++;
  }
  return Result.ok({ records: records.slice(0, count * rb), count });
};
