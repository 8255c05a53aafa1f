/**
 * Reading the MCTS policy network from disk: the policy file (src/eval/policy/format.ts) and its
 * manifest beside it, both validated, and every reference position's legal moves and integer
 * logits recomputed by this build's move generator and inference and compared exactly (so a file
 * and manifest that do not belong together, a move key that changed, or a move the trainer's data
 * did not have are caught at start-up). Any failure is an `ERR_POLICY` saying what is wrong; the
 * MCTS then keeps the one-ply prior (mcts-cpu-nets.ts).
 */
import type { GameKind } from '../core/game.js';
import { parseJsonText } from '../core/json.js';
import { KishiError, Result } from '../core/result.js';
import { checkPolicyManifest, parsePolicy, type PolicyManifest, type PolicyNet } from '../eval/policy/format.js';
import { ChessPolicy, ShogiPolicy } from '../eval/policy/policy-network.js';
import { FastChessBoard } from '../games/chess/fast/board.js';
import { FastShogiBoard } from '../games/shogi/fast/board.js';
import { readModelFilePair } from './model-file-pair.js';
import { resolveModelPath } from '../core/package-path.js';

export interface LoadedPolicy {
  readonly net: PolicyNet;
  readonly manifest: PolicyManifest;
  readonly file: string;
}

/** The manifest path of a policy file. */
export const policyManifestPath = (file: string): string => `${file.endsWith('.bin') ? file.slice(0, -4) : file}.manifest.json`;

/** Every legal move's integer logit, by UCI/USI text, for a FEN or SFEN. */
export const policyLogitsOf = (net: PolicyNet, position: string): Result<Map<string, number>, KishiError> => {
  const out = new Map<string, number>();
  if (net.game === 'chess') {
    const b = FastChessBoard.fromFen(position);
    if (b.isErr) return Result.err(b.error);
    const list = new Int32Array(256);
    const n = b.value.generateMoves(list, false, 0);
    const logits = new Float64Array(n);
    new ChessPolicy(net).intLogits(b.value, list, n, logits);
    for (let i = 0; i < n; i++) out.set(b.value.moveToUci(list[i]!, false), logits[i]!);
    return Result.ok(out);
  }
  const b = FastShogiBoard.fromSfen(position);
  if (b.isErr) return Result.err(b.error);
  const list = new Int32Array(600);
  const n = b.value.generateMoves(list, false);
  const logits = new Float64Array(n);
  new ShogiPolicy(net).intLogits(b.value, list, n, logits);
  for (let i = 0; i < n; i++) out.set(b.value.moveToUsi(list[i]!), logits[i]!);
  return Result.ok(out);
};

/** Checks bytes + manifest JSON text for `game` (no file access). */
export const validatePolicy = (bytes: Uint8Array, manifestText: string, game: GameKind, file: string): Result<LoadedPolicy, KishiError> => {
  const net = parsePolicy(bytes, file);
  if (net.isErr) return Result.err(net.error);
  if (net.value.game !== game) return Result.err(new KishiError('ERR_POLICY', `policy network ${file}: a ${net.value.game} network, not ${game}`));
  const json = parseJsonText(manifestText, 'ERR_POLICY', `policy manifest of ${file}`);
  if (json.isErr) return Result.err(json.error);
  const manifest = checkPolicyManifest(json.value, net.value, policyManifestPath(file));
  if (manifest.isErr) return Result.err(manifest.error);
  for (const r of manifest.value.references) {
    const fail = (why: string) => Result.err(new KishiError('ERR_POLICY', `policy network ${file}: reference ${JSON.stringify(r.position)}: ${why}`));
    const got = policyLogitsOf(net.value, r.position);
    if (got.isErr) return fail(got.error.message);
    const want = Object.entries(r.logits);
    if (want.length !== got.value.size) return fail(`${got.value.size} legal moves here, ${want.length} in the manifest`);
    for (const [move, logit] of want) {
      const v = got.value.get(move);
      if (v === undefined) return fail(`the manifest's move ${move} is not legal here`);
      if (v !== logit) return fail(`move ${move} gives ${v}, the manifest says ${logit} (file and manifest do not belong together, or the inference changed)`);
    }
  }
  return Result.ok({ net: net.value, manifest: manifest.value, file });
};

/** Reads and validates a policy file and its manifest. */
export const loadPolicyFile = (path: string, game: GameKind): Result<LoadedPolicy, KishiError> => {
  const file = resolveModelPath(path);
  const read = readModelFilePair(file, policyManifestPath(file), { code: 'ERR_POLICY', file: 'policy network', manifest: 'policy manifest' });
  if (read.isErr) return Result.err(read.error);
  return validatePolicy(read.value.bytes, read.value.text, game, file);
};
