/**
 * Checks an INT8 (QDQ) model against its fp32 source with onnxruntime-node, and records the INT8
 * model's reference outputs in its manifest (trainer/quantize_int8.py leaves the fp32 ones).
 *
 *   node dist/tools/nn/check-int8.js --game chess --fp32 models/chess.onnx --int8 models/chess-int8.onnx \
 *     --chunks records/nn/chess-bootstrap --positions 2000 [--no-record]
 *
 * Reports, over the positions: value error (mean, max absolute), policy agreement (share of
 * positions with the same most likely legal move, mean KL divergence fp32 || int8 over the legal
 * moves), and throughput of both models (positions per second, batch 1/8/32, one ORT thread).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { GameKind } from '../../src/core/game.js';
import { NetEvaluator, type NnInput, type NnOutput } from '../../src/nn/evaluator.js';
import { encodingOf, manifestPathOf, parseManifest } from '../../src/nn/manifest.js';
import { OnnxRunner } from '../../src/nn/onnx-runner.js';
import { encodePosition } from '../../src/nn/reference-check.js';
import { chunkPlanes, readChunk } from '../../src/nn/training-chunk.js';

const opts = new Command()
  .requiredOption('--game <game>')
  .requiredOption('--fp32 <path>')
  .requiredOption('--int8 <path>')
  .option('--chunks <dir>', 'training chunks to sample positions from')
  .option('--positions <n>', 'positions to compare', '1000')
  .option('--no-record', 'do not write the INT8 reference outputs into its manifest')
  .parse()
  .opts<{ game: GameKind; fp32: string; int8: string; chunks?: string; positions: string; record: boolean }>();

const spec = encodingOf(opts.game);
const load = async (path: string): Promise<NetEvaluator> => new NetEvaluator((await OnnxRunner.create(path, spec)).unwrap(), 64);
const fp32 = await load(opts.fp32);
const int8 = await load(opts.int8);

// Positions: from chunks when given, else the manifest's reference positions.
const inputs: NnInput[] = [];
const manifestText = readFileSync(manifestPathOf(opts.int8), 'utf8');
const manifest = parseManifest(manifestText, opts.game, manifestPathOf(opts.int8)).unwrap();
if (opts.chunks !== undefined) {
  const want = Number(opts.positions);
  for (const f of readdirSync(opts.chunks).filter((f) => f.endsWith('.knr')).sort()) {
    const c = readChunk(readFileSync(join(opts.chunks, f))).unwrap();
    const step = Math.max(1, Math.floor(c.header.count / Math.max(1, want / 4)));
    for (let i = 0; i < c.header.count && inputs.length < want; i += step) {
      const planes = new Float32Array(spec.inputSize);
      chunkPlanes(c, i, planes);
      const a = c.polStart[i]!;
      const b = c.polStart[i + 1]!;
      inputs.push({ planes, moveIndices: Int32Array.from(c.polIndex.subarray(a, b)), moveCount: b - a });
    }
    if (inputs.length >= want) break;
  }
} else {
  for (const ref of manifest.reference.positions) inputs.push(encodePosition(opts.game, ref).unwrap().input);
}

const evaluateAll = async (ev: NetEvaluator): Promise<NnOutput[]> => {
  const out: NnOutput[] = [];
  for (let i = 0; i < inputs.length; i += 64) out.push(...(await ev.evaluate(inputs.slice(i, i + 64))));
  return out;
};
const a = await evaluateAll(fp32);
const b = await evaluateAll(int8);
let valueErr = 0;
let valueMax = 0;
let agree = 0;
let kl = 0;
for (let i = 0; i < inputs.length; i++) {
  const e = Math.abs(a[i]!.value - b[i]!.value);
  valueErr += e;
  valueMax = Math.max(valueMax, e);
  const pa = a[i]!.priors;
  const pb = b[i]!.priors;
  let ba = 0;
  let bb = 0;
  for (let k = 0; k < pa.length; k++) {
    if (pa[k]! > pa[ba]!) ba = k;
    if (pb[k]! > pb[bb]!) bb = k;
    if (pa[k]! > 0) kl += pa[k]! * Math.log(pa[k]! / Math.max(pb[k]!, 1e-12));
  }
  if (ba === bb) agree++;
}
const n = inputs.length;
const accuracy = {
  positions: n,
  source: opts.chunks ?? 'manifest reference positions',
  valueMeanAbsError: +(valueErr / n).toFixed(5),
  valueMaxAbsError: +valueMax.toFixed(5),
  policyTop1Agreement: +(agree / n).toFixed(4),
  policyMeanKl: +(kl / n).toFixed(5),
};
console.log(JSON.stringify(accuracy));

const throughput = async (ev: NetEvaluator): Promise<Record<string, number>> => {
  const r: Record<string, number> = {};
  for (const batch of [1, 8, 32]) {
    const slice = Array.from({ length: batch }, (_, i) => inputs[i % n]!);
    for (let i = 0; i < 3; i++) await ev.evaluate(slice);
    const reps = Math.max(4, Math.round(256 / batch));
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await ev.evaluate(slice);
    r[`batch${batch}`] = Math.round((reps * batch * 1000) / (performance.now() - t0));
  }
  return r;
};
const speed = { fp32: await throughput(fp32), int8: await throughput(int8) };
console.log(JSON.stringify({ positionsPerSecond: speed }));

if (opts.record) {
  const raw = JSON.parse(manifestText) as Record<string, unknown> & { reference: unknown; provenance: Record<string, unknown> };
  const refs = manifest.reference.positions;
  const encoded = refs.map((r) => encodePosition(opts.game, r).unwrap());
  const outs = await int8.evaluate(encoded.map((e) => e.input));
  // INT8 kernels may round differently on other CPUs (VNNI or not): a looser tolerance than fp32's 1e-4.
  raw.reference = {
    tolerance: 2e-3,
    positions: refs.map((r, i) => ({
      start: r.start,
      moves: r.moves,
      ...(r.chess960 === true ? { chess960: true } : {}),
      value: +outs[i]!.value.toFixed(7),
      priors: Object.fromEntries(encoded[i]!.moves.map((m, k) => [m, +outs[i]!.priors[k]!.toFixed(7)])),
    })),
  };
  const { referenceNote: _drop, ...prov } = raw.provenance;
  raw.provenance = { ...prov, int8Check: { ...accuracy, recordedBy: 'tools/nn/check-int8.ts (onnxruntime-node)' } };
  writeFileSync(manifestPathOf(opts.int8), JSON.stringify(raw, null, 1) + '\n');
  console.log(`recorded the INT8 reference outputs in ${manifestPathOf(opts.int8)}`);
}
await fp32.close();
await int8.close();
