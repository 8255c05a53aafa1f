/**
 * Turns policy label files (`*.kpl`, tools/data/label-policy.ts) into datagen chunks (`*.kdg`,
 * src/learning/datagen/chunk.ts) for the NNUE trainer, so the positions the label jobs searched
 * also train the value network (the filter: src/learning/datagen/label-records.ts):
 *
 *   npx tsc -p . && node dist/tools/data/labels-to-chunks.js --game shogi --labels DIR [DIR...] --out DIR
 *
 * A label keeps no game result: the records say draw and the chunk header's game count is 0, which
 * `trainer/nnue_train.py` reads as "no results": it then requires `--lambda 1.0` (the score alone as
 * the target) and a given `--k`.
 *
 * Label file `<game>-sp<seed>-<n>.kpl` becomes chunk `n` (`<game>-s0of1-c<n>.kdg`). A chunk that
 * exists is skipped, so new label files are converted by running the command again, and chunks that
 * `label-policy.js --chunks-out` wrote (with results) are kept.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GameKind } from '../../src/core/game.js';
import type { KishiError, Result } from '../../src/core/result.js';
import { ChessLinearEval } from '../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../src/eval/linear/shogi-eval.js';
import { writeFileAtomic } from '../../src/core/atomic-write.js';
import { chunkBytes, chunkFileName } from '../../src/learning/datagen/chunk.js';
import { recordsFromLabels } from '../../src/learning/datagen/label-records.js';
import { readLabels } from '../../src/learning/policy/label-file.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../src/search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../src/search/alphabeta/shogi-board.js';

const { values } = parseArgs({
  options: { game: { type: 'string' }, labels: { type: 'string', multiple: true }, out: { type: 'string' } },
});
const fail = (why: string): never => {
  console.error(`labels-to-chunks: ${why}`);
  process.exit(2);
};
const game = values.game as GameKind;
if (game !== 'chess' && game !== 'shogi') fail('--game chess|shogi');
if (values.labels === undefined || values.out === undefined) fail('--labels DIR [--labels DIR...] and --out DIR are required');
const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
const chessEval = game === 'chess' ? new ChessLinearEval(theta) : undefined;
const shogiEval = game === 'shogi' ? new ShogiLinearEval(theta) : undefined;
const makeBoard = (position: string): Result<SearchBoard, KishiError> =>
  chessEval !== undefined ? ChessSearchBoard.fromText(position, [], chessEval) : ShogiSearchBoard.fromText(position, [], shogiEval!);

const labelName = new RegExp(`^${game}-sp\\d+-(\\d+)\\.kpl$`);
mkdirSync(values.out!, { recursive: true });
const t0 = Date.now();
let files = 0;
let kept = 0;
let seen = 0;
for (const dir of values.labels!) {
  for (const name of readdirSync(dir).sort()) {
    const m = labelName.exec(name);
    if (!m) continue;
    const index = Number(m[1]);
    const outFile = join(values.out!, chunkFileName(game, 0, 1, index));
    if (existsSync(outFile)) continue;
    const labels = readLabels(new Uint8Array(readFileSync(join(dir, name))), name);
    if (labels.isErr) fail(labels.error.message);
    const r = recordsFromLabels(game, labels.unwrap(), makeBoard);
    if (r.isErr) fail(`${name}: ${r.error.message}`);
    seen += labels.unwrap().length;
    kept += r.unwrap().count;
    files++;
    writeFileAtomic(outFile, chunkBytes({ game, chunkIndex: index, shardIndex: 0, shardCount: 1, games: 0, seed: 0 }, r.unwrap().records));
  }
}
console.log(`${files} label files: ${kept} of ${seen} positions kept in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
