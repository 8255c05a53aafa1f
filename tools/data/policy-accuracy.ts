/**
 * Top-1 accuracy of the CPU MCTS priors against alpha-beta's moves: for the positions of policy
 * label files (tools/data/label-policy.ts), how often the policy network's highest prior and the
 * one-ply prior's (src/search/mcts/cpu-evaluator.ts) are the move the search chose, and the mean
 * prior each gives that move:
 *
 *   npx tsc -p . && node dist/tools/data/policy-accuracy.js --game chess --labels DIR --policy FILE
 *     [--every 20] [--max 5000]
 *
 * `--every 20` takes every 20th label file starting with the first: the trainer's validation files
 * (its `--val-every`), so the network is scored on positions it did not train on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GameKind } from '../../src/core/game.js';
import { readLabels } from '../../src/learning/policy/label-file.js';
import { loadCpuEvaluator } from '../../src/player/mcts-cpu-nets.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';

const { values } = parseArgs({
  options: {
    game: { type: 'string' },
    labels: { type: 'string' },
    policy: { type: 'string' },
    every: { type: 'string', default: '20' },
    max: { type: 'string', default: '5000' },
  },
});
const game = values.game as GameKind;
if ((game !== 'chess' && game !== 'shogi') || values.labels === undefined || values.policy === undefined) {
  console.error('policy-accuracy: --game chess|shogi --labels DIR --policy FILE are required');
  process.exit(2);
}
const oneply = loadCpuEvaluator(`models/${game}-nnue.bin`, game).unwrap();
const withNet = loadCpuEvaluator(`models/${game}-nnue.bin`, game, {}, values.policy).unwrap();
if (withNet.policy === undefined) {
  console.error(`policy-accuracy: ${withNet.policyError?.message ?? 'no policy'}`);
  process.exit(2);
}
const files = readdirSync(values.labels)
  .filter((f) => f.startsWith(`${game}-`) && f.endsWith('.kpl'))
  .sort()
  .filter((_, i) => i % Number(values.every) === 0);
const max = Number(values.max);
let n = 0;
const hits = [0, 0];
const mass = [0, 0];
const moves = new Int32Array(600);
const priors = new Float32Array(600);
for (const f of files) {
  const bytes = new Uint8Array(readFileSync(join(values.labels, f)));
  const labels = readLabels(bytes, f);
  if (labels.isErr) throw new Error(labels.error.message);
  for (const l of labels.value) {
    if (n >= max) break;
    const position = l.position;
    const want = l.moves[l.target]!;
    [oneply, withNet].forEach((ev, k) => {
      const root = game === 'chess' ? ChessMctsBoard.fromText(position, []).unwrap() : ShogiMctsBoard.fromText(position, []).unwrap();
      const board = ev.attach(root);
      const count = board.generate(moves);
      ev.evaluate(moves, count, priors);
      let best = 0;
      for (let i = 1; i < count; i++) if (priors[i]! > priors[best]!) best = i;
      if (board.moveToText(moves[best]!) === want) hits[k]!++;
      for (let i = 0; i < count; i++) if (board.moveToText(moves[i]!) === want) mass[k]! += priors[i]!;
    });
    n++;
  }
  if (n >= max) break;
}
const pct = (x: number) => ((100 * x) / n).toFixed(1);
console.log(`${game}: ${n} positions from ${files.length} label files`);
console.log(`one-ply prior: top-1 ${pct(hits[0]!)}%, mean prior of the search's move ${pct(mass[0]!)}%`);
console.log(`policy network: top-1 ${pct(hits[1]!)}%, mean prior of the search's move ${pct(mass[1]!)}%`);
