/**
 * The net and MCTS benchmark on its own (it also runs inside `npm run bench` as the `nn` module):
 *
 *   npx tsc -p . && node dist/tools/bench-nn.js [--reps 3] [--quick]
 *
 * Prints raw onnxruntime-node throughput of the shipped nets (batch 1/8/32, fp32/INT8), MCTS
 * playouts/s with the same nets against the raw throughput at the search's batch size, and the
 * share of MCTS time spent outside the net. See tools/bench/nn.ts.
 */
import { parseArgs } from 'node:util';
import { bench } from './bench/nn.js';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '3' }, quick: { type: 'boolean', default: false } } });
const rows = await bench.run({ reps: Number(values.reps), quick: values.quick === true, log: (m) => process.stderr.write(m + '\n') });
const fmt = (x: number | undefined): string => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(2));
for (const r of rows) {
  const ratio = r.baseline !== undefined && r.baseline > 0 ? `  ratio ${(r.ours / r.baseline).toFixed(2)}` : '';
  console.log(`${r.name.padEnd(52)} ${fmt(r.ours).padStart(8)} ${r.unit.padEnd(8)}${r.baseline !== undefined ? ` (${r.baselineName} ${fmt(r.baseline)})` : ''}${ratio}`);
}
