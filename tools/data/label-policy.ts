/**
 * Labels `kishi datagen` positions for the policy network (issue 19): each position of the chunks
 * is searched by Kishi's alpha-beta at a fixed node budget, and its features, the keys of every
 * legal move (src/eval/policy/) and the index of the move the search chose are written to a label
 * file (src/learning/policy/label-file.ts) per chunk, for `trainer/policy_train.py`:
 *
 *   npx tsc -p . && node dist/tools/data/label-policy.js --game chess --data DIR --out DIR
 *     [--chunks 100] [--first 0] [--step 1] [--nodes 1000] [--nnue models/chess-nnue.bin] [--hash 16]
 *   node dist/tools/data/label-policy.js --game chess --relabel DIR --out DIR
 *   node dist/tools/data/label-policy.js --game chess --selfplay 400 --out DIR [--games 40] [--seed 1] [--nodes 1000]
 *     [--chunks-out DIR]
 *   node dist/tools/data/label-policy.js --game shogi --from-selfplay DIR --out DIR
 *
 * `--selfplay` plays datagen games instead (src/learning/datagen/datagen-game.ts: book, random
 * plies, alpha-beta at the node budget) and labels every position it searches, in check or not,
 * whatever the move: datagen keeps only quiet moves out of check (what its value targets need),
 * so labels drawn from its chunks never teach captures, promotions or evasions. One label file of
 * `--games` games per chunk, `<game>-sp<seed>-<chunk>.kpl`; a game depends only on the seed and its
 * index, so a killed run resumes at the first missing file. Labels repeated inside a chunk (the
 * book's first plies) are kept once. `--chunks-out` also writes each chunk's datagen records (quiet
 * positions, scores and game results, as `kishi datagen` writes them, though not deduplicated across
 * chunks) as datagen chunk `<chunk>` of shard 0 of 1 there, for the NNUE trainer.
 *
 * `--from-selfplay` reads the training chunks of `kishi selfplay` (src/nn/training-chunk.ts; with
 * `--model models/<game>-nnue.bin` its MCTS runs on the CPU networks) instead: each recorded
 * position becomes a label whose targets are the root's visit distribution over its legal moves
 * (AlphaZero's policy target; label-file.ts version 3), its target move the most visited one, its
 * score the root value in centipawns (`2K atanh(q)`, K of the value network). One label file per
 * chunk, `<game>-<chunk name>.kpl`; a chunk whose label file exists is skipped.
 *
 * `--relabel` reads label files instead (no search): each position's features and move keys are
 * computed again from its stored text and its move found again by text, so label files follow a
 * change of the policy inputs without searching again.
 *
 * Chunks `first, first + step, ...` (`--chunks` of them) are labelled; a chunk whose label file
 * exists is skipped, so a killed run resumes. Deterministic: the table and heuristics are cleared
 * per chunk, the search is node-limited.
 *
 * The records keep no castling rights; a king and rook on their initial squares are given the
 * right (the usual case in these self-play games), so castling moves get labels too.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GameKind } from '../../src/core/game.js';
import { CHESS_KEYS_PER_MOVE, ChessPolicyInput } from '../../src/eval/policy/chess-policy-input.js';
import { SHOGI_KEYS_PER_MOVE, ShogiPolicyInput } from '../../src/eval/policy/shogi-policy-input.js';
import { FastChessBoard } from '../../src/games/chess/fast/board.js';
import { FastShogiBoard } from '../../src/games/shogi/fast/board.js';
import { writeFileAtomic } from '../../src/core/atomic-write.js';
import { chunkBytes, chunkFileName, parseChunk } from '../../src/learning/datagen/chunk.js';
import { playDatagenGame } from '../../src/learning/datagen/datagen-game.js';
import { prepareDatagen } from '../../src/learning/datagen/datagen-setup.js';
import { recordWriter } from '../../src/learning/datagen/record-writers.js';
import { decodeChessRecord, decodeShogiRecord, RECORD_BYTES, type ChessRecord, type ShogiRecord } from '../../src/learning/datagen/position-record.js';
import { LabelWriter, readLabels } from '../../src/learning/policy/label-file.js';
import { chunkPosition, readChunk } from '../../src/nn/training-chunk.js';
import { loadCpuEvaluator } from '../../src/player/mcts-cpu-nets.js';
import type { ChessSearchBoard } from '../../src/search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../src/search/alphabeta/search-board.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';
import type { ShogiSearchBoard } from '../../src/search/alphabeta/shogi-board.js';

const { values } = parseArgs({
  options: {
    game: { type: 'string' },
    data: { type: 'string' },
    relabel: { type: 'string' },
    out: { type: 'string' },
    chunks: { type: 'string', default: '100' },
    first: { type: 'string', default: '0' },
    step: { type: 'string', default: '1' },
    nodes: { type: 'string', default: '1000' },
    nnue: { type: 'string' },
    hash: { type: 'string', default: '16' },
    selfplay: { type: 'string' },
    'from-selfplay': { type: 'string' },
    'chunks-out': { type: 'string' },
    games: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
  },
});
const fail = (why: string): never => {
  console.error(`label-policy: ${why}`);
  process.exit(2);
};
const game = values.game as GameKind;
if (game !== 'chess' && game !== 'shogi') fail('--game chess|shogi');
if ([values.data, values.relabel, values.selfplay, values['from-selfplay']].filter((v) => v !== undefined).length !== 1 || values.out === undefined) {
  fail('one of --data DIR, --relabel DIR, --selfplay CHUNKS, --from-selfplay DIR, and --out DIR, are required');
}
const num = (k: 'chunks' | 'first' | 'step' | 'nodes' | 'hash' | 'selfplay' | 'games' | 'seed'): number => {
  const v = Number(values[k]);
  if (!Number.isInteger(v) || v < 0) fail(`--${k} must be a non-negative integer`);
  return v;
};
const NODES = num('nodes');

/** FEN of a chess record (castling: king and rook on their initial squares). */
const chessRecordFen = (r: ChessRecord): string => {
  const letters = ' pnbrqk';
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = r.pieces[rank * 8 + file]!;
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      const l = letters[p & 7]!;
      row += p >> 3 === 0 ? l.toUpperCase() : l;
    }
    rows.push(empty > 0 ? row + String(empty) : row);
  }
  const at = (sq: number, p: number) => r.pieces[sq] === p;
  let castle = '';
  if (at(4, 6)) castle += (at(7, 4) ? 'K' : '') + (at(0, 4) ? 'Q' : '');
  if (at(60, 14)) castle += (at(63, 12) ? 'k' : '') + (at(56, 12) ? 'q' : '');
  return `${rows.join('/')} ${r.stm === 0 ? 'w' : 'b'} ${castle === '' ? '-' : castle} - ${r.halfmove} ${Math.max(1, r.fullmove)}`;
};

/** SFEN of a shogi record. */
const shogiRecordSfen = (r: ShogiRecord): string => {
  const letters = ' PLNSBRGK';
  const rows: string[] = [];
  for (let rank = 0; rank < 9; rank++) {
    let row = '';
    let empty = 0;
    for (let col = 0; col < 9; col++) {
      const p = r.pieces[rank * 9 + col]!;
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      const t = p & 15;
      const l = t > 8 ? `+${letters[t - 8]!}` : letters[t]!;
      row += (p & 32) !== 0 ? l.toLowerCase() : l;
    }
    rows.push(empty > 0 ? row + String(empty) : row);
  }
  let hand = '';
  for (let side = 0; side < 2; side++) {
    for (const t of [6, 5, 7, 4, 3, 2, 1]) {
      const c = r.hands[side * 7 + t - 1]!;
      if (c === 0) continue;
      const l = side === 0 ? letters[t]! : letters[t]!.toLowerCase();
      hand += (c > 1 ? String(c) : '') + l;
    }
  }
  return `${rows.join('/')} ${r.stm === 0 ? 'b' : 'w'} ${hand === '' ? '-' : hand} ${Math.max(1, r.ply + 1)}`;
};

const kpm = game === 'chess' ? CHESS_KEYS_PER_MOVE : SHOGI_KEYS_PER_MOVE;
const feats = new Int32Array(160);
const scratch = new Int32Array(160);
const list = new Int32Array(600);
const keys = new Int32Array(600 * kpm);
const base = new Float32Array(600);
const baseMoves = new Int32Array(600);
const indices = new Int32Array(600);
// The one-ply prior (its value is not needed: no quiescence).
const onePly = loadCpuEvaluator(`models/${game}-nnue.bin`, game, { qsearchPlies: 0 }).unwrap();
const chessInput = new ChessPolicyInput();
const shogiInput = new ShogiPolicyInput();

/**
 * Adds the position `text` (on `fast`, its internal board) to `writer` with the move `best`
 * (internal encoding) as target; false when `best` is not among the generated moves. With
 * `visitsByIndex` (visit share by ResNet policy index, as a self-play chunk keeps them) the record
 * carries the shares as soft targets and its target is the most visited move instead (`best` is
 * not used); false when no legal move has a share.
 */
const addPosition = (
  writer: LabelWriter,
  text: string,
  fast: FastChessBoard | FastShogiBoard,
  best: number,
  score: number,
  visitsByIndex?: ReadonlyMap<number, number>,
): boolean => {
  let n: number;
  let nf: number;
  const moveTexts: string[] = [];
  if (fast instanceof FastChessBoard) {
    n = fast.generateMoves(list, false, 0);
    nf = ChessPolicyInput.features(fast, feats, scratch);
    chessInput.begin(fast);
    for (let j = 0; j < n; j++) {
      chessInput.keys(list[j]!, keys, j * kpm);
      moveTexts.push(fast.moveToUci(list[j]!, false));
    }
  } else {
    n = fast.generateMoves(list, false);
    nf = ShogiPolicyInput.features(fast, feats, scratch);
    shogiInput.begin(fast);
    for (let j = 0; j < n; j++) {
      shogiInput.keys(list[j]!, keys, j * kpm);
      moveTexts.push(fast.moveToUsi(list[j]!));
    }
  }
  const mb = onePly.attach(fast instanceof FastChessBoard ? ChessMctsBoard.fromText(text, []).unwrap() : ShogiMctsBoard.fromText(text, []).unwrap());
  if (mb.generate(baseMoves) !== n) throw new Error(`move counts differ in ${text}`);
  let visits: Float32Array | undefined;
  let target: number;
  if (visitsByIndex === undefined) target = list.subarray(0, n).indexOf(best);
  else {
    mb.moveIndices(baseMoves, n, indices);
    visits = new Float32Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += visits[i] = visitsByIndex.get(indices[i]!) ?? 0;
    if (!(sum > 0)) return false;
    target = 0;
    for (let i = 0; i < n; i++) {
      visits[i]! /= sum;
      if (visits[i]! > visits[target]!) target = i;
    }
  }
  if (target < 0) return false;
  onePly.evaluate(baseMoves, n, base);
  for (let i = 0; i < n; i++) {
    if (baseMoves[i] !== list[i]) throw new Error(`move orders differ in ${text}`);
    base[i] = Math.max(-30, Math.log(base[i]!));
  }
  writer.add({ features: feats, featureCount: nf, keys, moveCount: n, base, target, score, text: `${text}\t${moveTexts.join(' ')}`, ...(visits !== undefined ? { visits } : {}) });
  return true;
};

/** `addPosition` for the position `text` (FEN or SFEN) and the move `want` (UCI or USI), on a fresh board. */
const addByText = (writer: LabelWriter, text: string, want: string, score: number): boolean => {
  if (game === 'chess') {
    const b = FastChessBoard.fromFen(text).unwrap();
    return addPosition(writer, text, b, b.parseUci(want), score);
  }
  const b = FastShogiBoard.fromSfen(text).unwrap();
  return addPosition(writer, text, b, b.parseUsi(want) ?? 0, score);
};

/** `--relabel`: the positions of label files again with this build's inputs. */
const relabel = (dir: string): void => {
  mkdirSync(values.out!, { recursive: true });
  const files = readdirSync(dir).filter((f) => f.startsWith(`${game}-`) && f.endsWith('.kpl')).sort();
  let done = 0;
  const t0 = Date.now();
  for (const name of files) {
    const labels = readLabels(new Uint8Array(readFileSync(join(dir, name))), name);
    if (labels.isErr) fail(labels.error.message);
    const writer = new LabelWriter(game, kpm);
    labels.unwrap().forEach((l, r) => {
      const want = l.moves[l.target]!;
      if (!addByText(writer, l.position, want, l.score)) fail(`${name} record ${r}: move ${want} not generated in ${l.position}`);
    });
    writeFileAtomic(join(values.out!, name), writer.bytes());
    done += writer.count;
  }
  console.log(`relabelled ${done} positions from ${files.length} files in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
};

/** The arrays one after the other. */
const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

/** `--selfplay`: datagen games, every searched position labelled with the search's move. */
const selfplay = (): void => {
  const setup = prepareDatagen({ game, nodes: NODES, hash: num('hash'), nnue: values.nnue ?? `models/${game}-nnue.bin` });
  if (setup.isErr) fail(setup.error.message);
  const { makeBoard, search, settings, openings } = setup.unwrap();
  mkdirSync(values.out!, { recursive: true });
  const chunksOut = values['chunks-out'];
  if (chunksOut !== undefined) mkdirSync(chunksOut, { recursive: true });
  // The games' datagen records (with results) go to `--chunks-out` when given, for the NNUE trainer.
  const write = chunksOut !== undefined ? recordWriter(game) : () => {};
  const seed = num('seed');
  const games = Math.max(1, num('games'));
  const t0 = Date.now();
  let done = 0;
  for (let chunk = 0; chunk < num('selfplay'); chunk++) {
    const outFile = join(values.out!, `${game}-sp${seed}-${String(chunk).padStart(5, '0')}.kpl`);
    if (existsSync(outFile)) continue;
    const writer = new LabelWriter(game, kpm);
    const seen = new Set<string>();
    const observe = (board: SearchBoard, best: number, score: number): void => {
      const text = board.toText();
      if (seen.has(text)) return;
      seen.add(text);
      // A fresh board: the searched one's piece lists, hence its move order, depend on its history.
      const want = board.moveToText(best);
      if (!addByText(writer, text, want, score)) fail(`${outFile}: the search's move ${want} is not in the generated list (${text})`);
    };
    const parts: Uint8Array[] = [];
    for (let j = 0; j < games; j++) parts.push(playDatagenGame(chunk * games + j, seed, settings, openings, makeBoard, search, write, observe).records);
    // The chunk first: a run killed between the two writes redoes the chunk, whose games are the same.
    if (chunksOut !== undefined) writeFileAtomic(join(chunksOut, chunkFileName(game, 0, 1, chunk)), chunkBytes({ game, chunkIndex: chunk, shardIndex: 0, shardCount: 1, games, seed }, concat(parts)));
    writeFileAtomic(outFile, writer.bytes());
    done += writer.count;
    const s = (Date.now() - t0) / 1000;
    console.log(`${outFile}: ${writer.count} positions; ${done} in ${s.toFixed(0)} s (${(done / s).toFixed(1)}/s)`);
  }
};

/** `--from-selfplay`: the positions of `kishi selfplay` chunks with their root visit distributions. */
const fromSelfplay = (dir: string): void => {
  mkdirSync(values.out!, { recursive: true });
  const files = readdirSync(dir).filter((f) => f.endsWith('.knr')).sort();
  // Root values back to centipawns with the value network's own scale (cpu-evaluator.ts: v = tanh(cp / 2K)).
  const k = onePly.settings.k;
  const t0 = Date.now();
  let done = 0;
  for (const name of files) {
    const outFile = join(values.out!, `${game}-${name.replace(/\.knr$/, '')}.kpl`);
    if (existsSync(outFile)) continue;
    const chunk = readChunk(new Uint8Array(readFileSync(join(dir, name))));
    if (chunk.isErr) fail(`${name}: ${chunk.error.message}`);
    const c = chunk.unwrap();
    if (c.header.game !== game) fail(`${name}: a ${c.header.game} chunk, not ${game}`);
    const writer = new LabelWriter(game, kpm);
    for (let i = 0; i < c.header.count; i++) {
      const text = chunkPosition(c, i);
      const visits = new Map<number, number>();
      for (let j = c.polStart[i]!; j < c.polStart[i + 1]!; j++) visits.set(c.polIndex[j]!, c.polProb[j]!);
      const q = Math.max(-0.999, Math.min(0.999, Number.isNaN(c.value[i]!) ? 0 : c.value[i]!));
      const score = 2 * k * Math.atanh(q);
      const fast = game === 'chess' ? FastChessBoard.fromFen(text) : FastShogiBoard.fromSfen(text);
      if (fast.isErr) fail(`${name} position ${i}: ${fast.error.message}`);
      if (!addPosition(writer, text, fast.unwrap(), 0, score, visits)) fail(`${name} position ${i}: no visits on its legal moves (${text})`);
    }
    writeFileAtomic(outFile, writer.bytes());
    done += writer.count;
    const s = (Date.now() - t0) / 1000;
    console.log(`${outFile}: ${writer.count} positions; ${done} in ${s.toFixed(0)} s`);
  }
};

const main = (): void => {
  if (values['from-selfplay'] !== undefined) {
    fromSelfplay(values['from-selfplay']);
    return;
  }
  if (values.relabel !== undefined) {
    relabel(values.relabel);
    return;
  }
  if (values.selfplay !== undefined) {
    selfplay();
    return;
  }
  const setup = prepareDatagen({ game, hash: num('hash'), nnue: values.nnue ?? `models/${game}-nnue.bin` });
  if (setup.isErr) fail(setup.error.message);
  const { makeBoard, search } = setup.unwrap();
  const files = readdirSync(values.data!).filter((f) => f.startsWith(`${game}-`) && f.endsWith('.kdg')).sort();
  mkdirSync(values.out!, { recursive: true });
  const rb = RECORD_BYTES[game];
  const t0 = Date.now();
  let done = 0;
  const chunks = num('chunks');
  const step = Math.max(1, num('step'));
  for (let c = 0, i = num('first'); c < chunks && i < files.length; c++, i += step) {
    const name = files[i]!;
    const outFile = join(values.out!, name.replace(/\.kdg$/, '.kpl'));
    if (existsSync(outFile)) continue;
    const chunk = parseChunk(new Uint8Array(readFileSync(join(values.data!, name))), name);
    if (chunk.isErr) fail(chunk.error.message);
    const records = chunk.unwrap().records;
    const count = records.length / rb;
    const writer = new LabelWriter(game, kpm);
    search.tt.clear();
    search.clearHeuristics();
    for (let k = 0; k < count; k++) {
      let text: string;
      if (game === 'chess') {
        const r = decodeChessRecord(records, k * rb);
        if (r.isErr) fail(r.error.message);
        text = chessRecordFen(r.unwrap());
      } else {
        const r = decodeShogiRecord(records, k * rb);
        if (r.isErr) fail(r.error.message);
        text = shogiRecordSfen(r.unwrap());
      }
      const sb = makeBoard({ start: text, moves: [], source: name });
      const res = search.search(sb, { nodes: NODES });
      const fast = game === 'chess' ? (sb as ChessSearchBoard).board : (sb as ShogiSearchBoard).board;
      if (!addPosition(writer, text, fast, res.bestMove, res.score)) fail(`${name} record ${k}: the search's move is not in the generated list (${text})`);
    }
    writeFileAtomic(outFile, writer.bytes());
    done += count;
    const s = (Date.now() - t0) / 1000;
    console.log(`${name}: ${count} positions; ${done} in ${s.toFixed(0)} s (${(done / s).toFixed(1)}/s)`);
  }
};

main();
