/**
 * trainer/policy_train.py on label files version 3 (src/learning/policy/label-file.ts) that carry
 * MCTS visit targets: tiny generated chess label files (random playouts; half the records with a
 * visit distribution, half one-hot on a move the visits disfavour), short trainings on the CPU.
 *
 * - `--soft-weight` decides between the two conflicting kinds of target: weighted 10, the net
 *   follows the visits; weighted 0.1, the one-hot targets. Both nets load (references bit-exact).
 * - `--init` with the net just written and a zero learning rate gives back the same file byte for
 *   byte, and its losses are the soft cross-entropy computed here from that net's integer logits
 *   (so the loss is the cross-entropy against the visits, one-hot where a record has none).
 * - `--init` with a net of another hidden width is refused with a message, before any training.
 *
 * Needs a Python with torch (resolvePython); skipped with the reason printed when there is none.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { seededRng } from '../../../src/core/rng.js';
import { CHESS_KEYS_PER_MOVE, ChessPolicyInput } from '../../../src/eval/policy/chess-policy-input.js';
import { FastChessBoard } from '../../../src/games/chess/fast/board.js';
import { resolvePython } from '../../../src/learning/alphazero/train-process.js';
import { LabelWriter, readLabels, type StoredLabel } from '../../../src/learning/policy/label-file.js';
import { loadPolicyFile, policyLogitsOf } from '../../../src/player/policy-file.js';
import { describeIf } from '../../setup/skip.js';
import { runProcess } from '../../setup/run-process.js';

const python = resolvePython(process.env);
const NO_PYTHON = python.isErr ? python.error.message : '';
if (python.isErr) console.warn(`policy-train.test.ts skipped: ${python.error.message}`);

const FILES = 8;
const PER_FILE = 50;
const KPM = CHESS_KEYS_PER_MOVE;

/** A fixed score in [-1, 1) of a move key (the visits prefer high scores, the one-hot targets the lowest). */
const score = (key: number): number => (Math.imul(key + 1, 0x9e3779b1) >>> 0) / 2 ** 31 - 1;

/** Distinct positions of seeded random playouts from the start position. */
const positions = (n: number): string[] => {
  const rng = seededRng(11);
  const seen = new Set<string>();
  const list = new Int32Array(256);
  while (seen.size < n) {
    const b = FastChessBoard.fromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').unwrap();
    for (let ply = 0; ply < 30 && seen.size < n; ply++) {
      const m = b.generateMoves(list, false, 0);
      if (m === 0) break;
      if (ply >= 2) seen.add(b.toFen());
      b.makeMove(list[Math.floor(rng() * m)]!);
    }
  }
  return [...seen];
};

/** Label files `chess-00000.kpl`..: even records carry visits (softmax of 3 x score), odd ones are one-hot on the lowest score. */
const writeLabels = (dir: string): void => {
  const fens = positions(FILES * PER_FILE);
  const input = new ChessPolicyInput();
  const feats = new Int32Array(160);
  const scratch = new Int32Array(160);
  const list = new Int32Array(256);
  const keys = new Int32Array(256 * KPM);
  for (let f = 0; f < FILES; f++) {
    const w = new LabelWriter('chess', KPM);
    for (let r = 0; r < PER_FILE; r++) {
      const fen = fens[f * PER_FILE + r]!;
      // A fresh board: a played board's move order depends on its history.
      const b = FastChessBoard.fromFen(fen).unwrap();
      const n = b.generateMoves(list, false, 0);
      const nf = ChessPolicyInput.features(b, feats, scratch);
      input.begin(b);
      const s: number[] = [];
      const texts: string[] = [];
      for (let j = 0; j < n; j++) {
        input.keys(list[j]!, keys, j * KPM);
        s.push(score(keys[j * KPM]!));
        texts.push(b.moveToUci(list[j]!, false));
      }
      const base = new Float32Array(n);
      const text = `${fen}\t${texts.join(' ')}`;
      if (r % 2 === 0) {
        const e = s.map((x) => Math.exp(3 * x));
        const sum = e.reduce((a, x) => a + x, 0);
        const visits = e.map((x) => x / sum);
        w.add({ features: feats, featureCount: nf, keys, moveCount: n, base, target: s.indexOf(Math.max(...s)), score: 0, text, visits });
      } else {
        w.add({ features: feats, featureCount: nf, keys, moveCount: n, base, target: s.indexOf(Math.min(...s)), score: 0, text });
      }
    }
    writeFileSync(join(dir, `chess-${String(f).padStart(5, '0')}.kpl`), w.bytes());
  }
};

const train = async (args: string[]) => {
  const r = await runProcess(python.unwrap(), ['trainer/policy_train.py', '--game', 'chess', '--hidden', '8', '--val-every', '4', '--references', '4', '--threads', '1', '--device', 'cpu', ...args], { timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
};

interface History {
  readonly train_loss: number;
  readonly val_loss: number;
}
const manifestOf = (bin: string): { training: { history: History[]; soft_weight: number; init: unknown }; data: Record<string, number> } =>
  JSON.parse(readFileSync(bin.replace(/\.bin$/, '.manifest.json'), 'utf8'));

/** The labels of the given files. */
const labelsOf = (dir: string, files: number[]): StoredLabel[] =>
  files.flatMap((f) => {
    const name = `chess-${String(f).padStart(5, '0')}.kpl`;
    return readLabels(new Uint8Array(readFileSync(join(dir, name))), name).unwrap();
  });

describeIf(python.isOk, NO_PYTHON)('policy_train.py with visit targets', () => {
  it('weighs the visit targets, loads, fine-tunes from --init, refuses a mismatched --init', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kishi-policy-train-'));
    const data = join(root, 'labels');
    mkdirSync(data);
    writeLabels(data);
    const common = ['--data', data, '--epochs', '3', '--batch', '32', '--lr', '0.03', '--lr-end', '0.003'];
    const soft = join(root, 'soft.bin');
    const hard = join(root, 'hard.bin');
    for (const [out, w] of [
      [soft, '10'],
      [hard, '0.1'],
    ] as const) {
      const r = await train([...common, '--out', out, '--soft-weight', w]);
      expect(r.status, r.stderr).toBe(0);
    }
    const ms = manifestOf(soft);
    expect(ms.training.soft_weight).toBe(10);
    expect(ms.training.init).toBe(null);
    // Files 0 and 4 validate; half of every file's records carry visits.
    expect(ms.data).toMatchObject({ train_positions: 300, val_positions: 100, train_visit_targets: 150, val_visit_targets: 50 });
    expect(ms.training.history.length).toBe(3);

    // Both load (the manifest's reference logits match this build's inference) and follow the targets weighted more.
    const all = labelsOf(data, [...Array(FILES).keys()]);
    const agreement = (bin: string): { high: number; low: number } => {
      const net = loadPolicyFile(bin, 'chess').unwrap().net;
      let high = 0;
      let low = 0;
      for (const l of all) {
        const logits = policyLogitsOf(net, l.position).unwrap();
        const lg = l.moves.map((m) => logits.get(m)!);
        const best = lg.indexOf(Math.max(...lg));
        const b = FastChessBoard.fromFen(l.position).unwrap();
        const input = new ChessPolicyInput();
        input.begin(b);
        const list = new Int32Array(256);
        const n = b.generateMoves(list, false, 0);
        const keys = new Int32Array(n * KPM);
        const s: number[] = [];
        for (let j = 0; j < n; j++) {
          input.keys(list[j]!, keys, j * KPM);
          s.push(score(keys[j * KPM]!));
        }
        // The label's move order is the generator's, as here.
        if (best === s.indexOf(Math.max(...s))) high++;
        if (best === s.indexOf(Math.min(...s))) low++;
      }
      return { high: high / all.length, low: low / all.length };
    };
    const a = agreement(soft);
    const b = agreement(hard);
    expect(a.high, JSON.stringify({ a, b })).toBeGreaterThan(a.low + 0.15);
    expect(b.low, JSON.stringify({ a, b })).toBeGreaterThan(b.high + 0.15);

    // --init with no learning: the same net back, and its losses are the soft cross-entropy of its integer logits.
    const again = join(root, 'again.bin');
    const r = await train(['--data', data, '--epochs', '1', '--lr', '0', '--lr-end', '0', '--init', soft, '--out', again]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/initialised from/);
    expect(Buffer.compare(readFileSync(again), readFileSync(soft))).toBe(0);
    const net = loadPolicyFile(soft, 'chess').unwrap().net;
    const crossEntropy = (labels: StoredLabel[]): number => {
      let total = 0;
      for (const l of labels) {
        const logits = policyLogitsOf(net, l.position).unwrap();
        const lg = l.moves.map((m) => logits.get(m)! / (net.qa * net.qb));
        const max = Math.max(...lg);
        const lse = max + Math.log(lg.reduce((s, x) => s + Math.exp(x - max), 0));
        const p = l.visits ?? l.moves.map((_, i) => (i === l.target ? 1 : 0));
        const sum = p.reduce((s, x) => s + x, 0);
        total -= p.reduce((s, x, i) => s + (x / sum) * (lg[i]! - lse), 0);
      }
      return total / labels.length;
    };
    const h = manifestOf(again).training.history[0]!;
    const val = crossEntropy(labelsOf(data, [0, 4]));
    const tr = crossEntropy(labelsOf(data, [1, 2, 3, 5, 6, 7]));
    expect(Math.abs(h.val_loss - val), JSON.stringify({ h, val, tr })).toBeLessThan(1e-4 * Math.max(1, val));
    expect(Math.abs(h.train_loss - tr), JSON.stringify({ h, val, tr })).toBeLessThan(1e-4 * Math.max(1, tr));
    // The one-hot cross-entropy (against the target move alone) is another number on these labels.
    const oneHot = crossEntropy(labelsOf(data, [0, 4]).map(({ visits: _v, ...l }) => l));
    expect(Math.abs(oneHot - val)).toBeGreaterThan(0.05);
    expect(manifestOf(again).training.init).toMatchObject({ file: soft });

    // A net of another shape is refused before any training.
    const bad = await train(['--data', data, '--epochs', '1', '--hidden', '16', '--init', soft, '--out', join(root, 'bad.bin')]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--init .*soft\.bin does not match this run: hidden 8 \(this run: 16\)/);
  }, 180_000);
});
