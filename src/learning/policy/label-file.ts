/**
 * The policy labelling file (`*.kpl`, version 3): positions with the features and move keys the
 * policy network reads (src/eval/policy/) and the move Kishi's alpha-beta chose, written by
 * `tools/data/label-policy.ts`, read by `trainer/policy_train.py`. All integers little-endian.
 *
 * Header (16 bytes): magic `KPL1` | u16 version (3; version 1 had no base logits, version 2 no
 * visit targets) | u8 game (0 chess, 1 shogi) | u8 keys per move | u32 record count | u32 CRC-32 of
 * the records (the bytes after the header).
 *
 * Record: u16 feature count F | u16 move count M | u16 target move index | u16 text length T |
 * i16 search score (side to move, centipawns) | u16 flags | F x u16 features | M x keys x
 * u16 move keys (in the move generator's order) | M x f32 base logits (the one-ply prior's log
 * probabilities, src/search/mcts/cpu-evaluator.ts, which a residual policy network corrects) |
 * [M x f32 target probabilities, when flags bit 0 is set] |
 * T bytes of text (UTF-8): the FEN/SFEN, a tab,
 * then the moves' UCI/USI strings separated by spaces (the reference positions of the exported
 * network come from it).
 *
 * Flags (version 3; reserved 0 in versions 1 and 2): bit 0 = the record carries soft targets, the
 * MCTS root's visit distribution over its moves (same order, non-negative, summing to 1), written by
 * `tools/data/label-policy.ts --from-selfplay` from the chunks of `kishi selfplay` on the CPU
 * networks; its target move is then the most visited one. Other bits are unused and must be 0. A record without visit targets has flags 0 and no extra bytes, so a
 * version 3 file of such records differs from version 2 only in its version number.
 */
import { crc32 } from '../../core/crc32.js';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';

export const LABEL_MAGIC = 'KPL1';
export const LABEL_VERSION = 3;
/** Record flag: `moveCount` f32 target probabilities follow the base logits. */
export const LABEL_FLAG_VISITS = 1;
const HEADER = 16;

/** One labelled position. */
export interface LabelRecord {
  readonly features: ArrayLike<number>;
  readonly featureCount: number;
  /** `moveCount * keysPerMove` keys. */
  readonly keys: ArrayLike<number>;
  readonly moveCount: number;
  /** `moveCount` base logits. */
  readonly base: ArrayLike<number>;
  readonly target: number;
  readonly score: number;
  readonly text: string;
  /**
   * Optional soft targets: `moveCount` probabilities (the MCTS root's visit distribution, in the
   * moves' order), non-negative and summing to 1 within 1e-3.
   */
  readonly visits?: ArrayLike<number>;
}

/** Collects records and returns the file bytes. */
export class LabelWriter {
  private buf = new Uint8Array(1 << 20);
  private len = 0;
  count = 0;

  constructor(
    readonly game: GameKind,
    readonly keysPerMove: number,
  ) {}

  add(r: LabelRecord): void {
    const text = new TextEncoder().encode(r.text);
    if (r.featureCount > 65535 || r.moveCount > 65535 || text.length > 65535 || r.target < 0 || r.target >= r.moveCount) {
      throw new Error(`label record out of range (${r.featureCount} features, ${r.moveCount} moves, target ${r.target})`);
    }
    const visits = r.visits;
    if (visits !== undefined) {
      if (visits.length !== r.moveCount) throw new Error(`label record: ${visits.length} visit targets for ${r.moveCount} moves`);
      let sum = 0;
      for (let i = 0; i < visits.length; i++) {
        const p = visits[i]!;
        if (!Number.isFinite(p) || p < 0) throw new Error(`label record: visit target ${i} is ${p}, not a finite non-negative probability`);
        sum += p;
      }
      if (!(Math.abs(sum - 1) <= 1e-3)) throw new Error(`label record: visit targets sum to ${sum}, not 1 (within 1e-3)`);
    }
    const size = 12 + 2 * r.featureCount + 2 * r.moveCount * this.keysPerMove + 4 * r.moveCount * (visits !== undefined ? 2 : 1) + text.length;
    while (this.len + size > this.buf.length) {
      const grown = new Uint8Array(this.buf.length * 2);
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
    }
    const v = new DataView(this.buf.buffer);
    let o = this.len;
    v.setUint16(o, r.featureCount, true);
    v.setUint16(o + 2, r.moveCount, true);
    v.setUint16(o + 4, r.target, true);
    v.setUint16(o + 6, text.length, true);
    v.setInt16(o + 8, Math.max(-32767, Math.min(32767, Math.round(r.score))), true);
    v.setUint16(o + 10, visits !== undefined ? LABEL_FLAG_VISITS : 0, true);
    o += 12;
    for (let i = 0; i < r.featureCount; i++, o += 2) v.setUint16(o, r.features[i]!, true);
    const nk = r.moveCount * this.keysPerMove;
    for (let i = 0; i < nk; i++, o += 2) {
      const k = r.keys[i]!;
      if (!(k >= 0 && k <= 65535)) throw new Error(`move key ${k} out of range`);
      v.setUint16(o, k, true);
    }
    for (let i = 0; i < r.moveCount; i++, o += 4) v.setFloat32(o, r.base[i]!, true);
    if (visits !== undefined) for (let i = 0; i < r.moveCount; i++, o += 4) v.setFloat32(o, visits[i]!, true);
    this.buf.set(text, o);
    this.len = o + text.length;
    this.count++;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(HEADER + this.len);
    for (let i = 0; i < 4; i++) out[i] = LABEL_MAGIC.charCodeAt(i);
    const v = new DataView(out.buffer);
    v.setUint16(4, LABEL_VERSION, true);
    v.setUint8(6, this.game === 'chess' ? 0 : 1);
    v.setUint8(7, this.keysPerMove);
    v.setUint32(8, this.count, true);
    out.set(this.buf.subarray(0, this.len), HEADER);
    v.setUint32(12, crc32(out, HEADER, HEADER + this.len), true);
    return out;
  }
}

/** Checks a label file's header and checksum; returns its record count. */
export const checkLabelFile = (bytes: Uint8Array, source: string): Result<{ game: GameKind; version: number; keysPerMove: number; count: number }, KishiError> => {
  const fail = (why: string) => Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: ${why}`));
  if (bytes.length < HEADER) return fail(`truncated (${bytes.length} bytes)`);
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magic !== LABEL_MAGIC) return fail(`not a label file (magic ${JSON.stringify(magic)})`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint16(4, true);
  if (version < 1 || version > LABEL_VERSION) return fail(`version ${version}, this build reads 1..${LABEL_VERSION}`);
  const g = v.getUint8(6);
  if (g > 1) return fail(`unknown game code ${g}`);
  if (crc32(bytes, HEADER, bytes.length) !== v.getUint32(12, true)) return fail('checksum mismatch: the file is corrupt');
  return Result.ok({ game: g === 0 ? 'chess' : 'shogi', version, keysPerMove: v.getUint8(7), count: v.getUint32(8, true) });
};

/** What a label record keeps in words: the features and keys are not decoded (a reader recomputes them from the text). */
export interface StoredLabel {
  /** FEN or SFEN. */
  readonly position: string;
  /** Every legal move's UCI/USI text, in the move generator's order. */
  readonly moves: readonly string[];
  /** Index into `moves` of the search's move. */
  readonly target: number;
  /** The search's score, side to move, centipawns. */
  readonly score: number;
  /** The record's soft targets (MCTS visit distribution over `moves`), when it has them (version 3). */
  readonly visits?: number[];
}

/**
 * The records of a label file as positions, moves and scores, after `checkLabelFile`'s checks;
 * `ERR_LABELS` when a record runs past the end of the file, its target is not one of its moves or
 * it has unknown flags.
 */
export const readLabels = (bytes: Uint8Array, source: string): Result<StoredLabel[], KishiError> => {
  const head = checkLabelFile(bytes, source);
  if (head.isErr) return Result.err(head.error);
  const { count, keysPerMove, version } = head.value;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  const out: StoredLabel[] = [];
  let o = HEADER;
  for (let r = 0; r < count; r++) {
    if (o + 12 > bytes.length) return Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: record ${r} of ${count} is cut short`));
    const nf = v.getUint16(o, true);
    const nm = v.getUint16(o + 2, true);
    const target = v.getUint16(o + 4, true);
    const tl = v.getUint16(o + 6, true);
    const score = v.getInt16(o + 8, true);
    // Versions 1 and 2 wrote the field as reserved 0.
    const flags = version >= 3 ? v.getUint16(o + 10, true) : 0;
    if ((flags & ~LABEL_FLAG_VISITS) !== 0) {
      return Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: record ${r} has unknown record flags 0x${flags.toString(16)}`));
    }
    o += 12 + 2 * nf + 2 * nm * keysPerMove + (version >= 2 ? 4 * nm : 0);
    let visits: number[] | undefined;
    if ((flags & LABEL_FLAG_VISITS) !== 0) {
      if (o + 4 * nm > bytes.length) return Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: record ${r} of ${count} is cut short`));
      visits = [];
      for (let i = 0; i < nm; i++) visits.push(v.getFloat32(o + 4 * i, true));
      o += 4 * nm;
    }
    if (o + tl > bytes.length) return Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: record ${r} of ${count} is cut short`));
    const [position, moveText] = decoder.decode(bytes.subarray(o, o + tl)).split('\t');
    o += tl;
    const moves = (moveText ?? '').split(' ');
    if (position === undefined || moveText === undefined || target >= moves.length || moves.length !== nm) {
      return Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: record ${r} has no position or its move ${target} is not among its ${nm} moves`));
    }
    out.push(visits !== undefined ? { position, moves, target, score, visits } : { position, moves, target, score });
  }
  if (o !== bytes.length) return Result.err(new KishiError('ERR_LABELS', `policy labels ${source}: ${bytes.length - o} bytes after the last record`));
  return Result.ok(out);
};
