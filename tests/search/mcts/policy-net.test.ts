/**
 * The factorised policy network of the CPU MCTS (src/eval/policy/, src/player/policy-file.ts):
 * its move keys cover exactly the legal moves (checked against chessops and shogiops: castling, en
 * passant, promotions and under-promotions, shogi drops and optional/forced promotions) and tell
 * every two legal moves apart; the file format round-trips; the shipped networks' reference
 * logits, computed by the trainer, match this build's inference bit-exact; a corrupt, truncated,
 * mismatched or wrong-game file is refused with a clear error and the evaluator keeps the one-ply
 * prior; with a network the evaluator's priors are the softmax of its logits.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { describe, expect, test } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { seededRng } from '../../../src/core/rng.js';
import { CHESS_KEYS_PER_MOVE, ChessPolicyInput } from '../../../src/eval/policy/chess-policy-input.js';
import { parsePolicy, POLICY_INPUTS, serializePolicy, type PolicyNet } from '../../../src/eval/policy/format.js';
import { ChessPolicy, ShogiPolicy } from '../../../src/eval/policy/policy-network.js';
import { SHOGI_KEYS_PER_MOVE, ShogiPolicyInput } from '../../../src/eval/policy/shogi-policy-input.js';
import { FastChessBoard } from '../../../src/games/chess/fast/board.js';
import { seeGe } from '../../../src/games/chess/fast/see.js';
import { FastShogiBoard } from '../../../src/games/shogi/fast/board.js';
import { seeGe as shogiSeeGe } from '../../../src/games/shogi/fast/see.js';
import { checkCpuNetFiles, loadCpuEvaluator, policyPathFor } from '../../../src/player/mcts-cpu-nets.js';
import { loadPolicyFile, policyLogitsOf, validatePolicy } from '../../../src/player/policy-file.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';
import { shogiopsFromSfen, shogiopsLegalUsi } from '../../games/shogi/fast/shogiops-reference.js';

const CHESS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  // Kiwipete: castling both ways, many captures.
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  // White: promotions with and without capture (b7b8, b7xa8), en passant d5xc6, castling both ways.
  'r3k2r/1P6/8/2pP4/8/8/8/R3K2R w KQkq c6 0 1',
  // Black to move (mirrored keys): promotions on b1/a1, en passant d4xc3, castling.
  'r3k2r/8/8/8/2Pp4/8/1p6/R3K2R b KQkq c3 0 1',
  // In check.
  '4k3/8/8/8/8/8/3q4/4K3 w - - 0 1',
];

const SHOGI = [
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3p3/9/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b Pp 1',
  'lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1',
  // White to move (turned keys), promoted pieces on the board, drops of every kind.
  '8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124',
  // Forced and optional promotions (pawn, lance, knight near the last ranks), drops restricted by nifu and dead squares.
  '4k4/2P6/L8/1N7/9/9/9/9/4K4 b 2PLN 1',
];

/** chessops' legal moves as UCI, castling written king to its destination (e1g1). */
const chessopsLegal = (fen: string): string[] => {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const out: string[] = [];
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from)!;
    for (const to of dests) {
      const target = pos.board.get(to);
      if (piece.role === 'king' && target?.color === piece.color) {
        out.push(makeSquare(from) + makeSquare(to > from ? from + 2 : from - 2));
      } else if (piece.role === 'pawn' && (to >> 3 === 0 || to >> 3 === 7)) {
        for (const p of 'nbrq') out.push(makeSquare(from) + makeSquare(to) + p);
      } else out.push(makeSquare(from) + makeSquare(to));
    }
  }
  return out.sort();
};

/** A policy network with seeded random weights in the trained nets' ranges. */
const randomPolicy = (game: GameKind, hidden: number, seed: number): PolicyNet => {
  const rng = seededRng(seed);
  const r = (k: number) => Math.round((rng() * 2 - 1) * k);
  const { features, keys, keysPerMove } = POLICY_INPUTS[game];
  return {
    game,
    features,
    hidden,
    keys,
    keysPerMove,
    qa: 255,
    qb: 128,
    baseWeight: 0,
    w1: new Int16Array(features * hidden).map(() => r(60)),
    b1: new Int16Array(hidden).map(() => r(100)),
    w2: new Int16Array(keys * hidden).map(() => r(200)),
    b2: new Int32Array(keys).map(() => r(30000)),
  };
};

/** Key tuples of every generated legal move, by move text. */
const keyTuples = (game: GameKind, position: string): Map<string, number[]> => {
  const out = new Map<string, number[]>();
  if (game === 'chess') {
    const b = FastChessBoard.fromFen(position).unwrap();
    const list = new Int32Array(256);
    const n = b.generateMoves(list, false, 0);
    const keys = new Int32Array(CHESS_KEYS_PER_MOVE);
    const input = new ChessPolicyInput();
    input.begin(b);
    for (let i = 0; i < n; i++) {
      input.keys(list[i]!, keys, 0);
      out.set(b.moveToUci(list[i]!, false), [...keys]);
    }
  } else {
    const b = FastShogiBoard.fromSfen(position).unwrap();
    const list = new Int32Array(600);
    const n = b.generateMoves(list, false);
    const keys = new Int32Array(SHOGI_KEYS_PER_MOVE);
    const input = new ShogiPolicyInput();
    input.begin(b);
    for (let i = 0; i < n; i++) {
      input.keys(list[i]!, keys, 0);
      out.set(b.moveToUsi(list[i]!), [...keys]);
    }
  }
  return out;
};

describe('move keys', () => {
  for (const [game, positions] of [['chess', CHESS], ['shogi', SHOGI]] as const) {
    test(`${game}: the policy gives a logit to exactly the legal moves, with keys in range that tell the moves apart`, () => {
      const net = randomPolicy(game, 8, 3);
      for (const p of positions) {
        const reference = game === 'chess' ? chessopsLegal(p) : shogiopsLegalUsi(shogiopsFromSfen(p)).sort();
        const logits = policyLogitsOf(net, p).unwrap();
        expect([...logits.keys()].sort(), p).toEqual(reference);
        for (const v of logits.values()) expect(Number.isInteger(v)).toBe(true);
        const tuples = keyTuples(game, p);
        const seen = new Set<string>();
        for (const [move, keys] of tuples) {
          for (const k of keys) expect(k >= 0 && k < POLICY_INPUTS[game].keys, `${move} key ${k}`).toBe(true);
          seen.add(keys.join(','));
        }
        expect(seen.size, p).toBe(tuples.size);
      }
    });
  }

  test('promotions, drops and castling have keys of their own', () => {
    const c = keyTuples('chess', CHESS[2]!);
    const promos = ['b7b8n', 'b7b8b', 'b7b8r', 'b7b8q'].map((m) => c.get(m)![0]);
    expect(new Set(promos).size).toBe(4);
    expect(c.get('e1g1')![1]).not.toBe(c.get('e1f1')![1]);
    // The safety buckets (0 destination not attacked, 1 attacked but the exchange does not lose, 2 it loses):
    // in the check position the queen on d2 attacks e2 (a losing square for the king) but not f1, and
    // nothing defends her, so taking her is safe.
    const check = keyTuples('chess', CHESS[4]!);
    const safety = (k: number, base: number): number => (k - base) % 3;
    expect(safety(check.get('e1f1')![1]!, 20480)).toBe(0);
    expect(check.has('e1e2')).toBe(false);
    expect(safety(check.get('e1d2')![3]!, 22400)).toBe(0);
    // Kiwipete: Qf3xf6 is answered by the g7 bishop (a queen for a knight), Ne5xg6 by the f7 pawn, Ne5xd7 by
    // the queen, Bd2-h6 by the g7 bishop with nothing to take back: all lose material (bucket 2).
    const kiwi = keyTuples('chess', CHESS[1]!);
    const bucket = (m: string): number => safety(kiwi.get(m)![1]!, 20480);
    for (const m of ['f3f6', 'e5g6', 'e5d7', 'd2h6']) expect(bucket(m), m).toBe(2);
    // Every move's bucket (piece-to and piece-victim keys) is the definition's, and all three occur.
    const board = FastChessBoard.fromFen(CHESS[1]!).unwrap();
    const list = new Int32Array(256);
    const n = board.generateMoves(list, false, 0);
    const buckets = new Set<number>();
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      const text = board.moveToUci(m, false);
      const to = (m >> 6) & 63;
      const want = !board.isSquareAttacked(to, 1) ? 0 : seeGe(board, m, 0) ? 1 : 2;
      expect(bucket(text), text).toBe(want);
      expect(safety(kiwi.get(text)![3]!, 22400), text).toBe(want);
      buckets.add(want);
    }
    expect([...buckets].sort()).toEqual([0, 1, 2]);
    // Shogi: the same buckets on the piece-to keys of board moves and drops, at every legal move.
    const shogiBuckets = new Set<number>();
    for (const p of SHOGI) {
      const sb = FastShogiBoard.fromSfen(p).unwrap();
      const tuples = keyTuples('shogi', p);
      const moves = new Int32Array(600);
      const count = sb.generateMoves(moves, false);
      for (let i = 0; i < count; i++) {
        const m = moves[i]!;
        const drop = m >>> 17 !== 0;
        const want = !sb.attacked((m >>> 8) & 0xff, sb.turn === 0 ? 32 : 16) ? 0 : shogiSeeGe(sb, m, 0) ? 1 : 2;
        const key = tuples.get(sb.moveToUsi(m))![1]!;
        expect(drop ? (key - 20493) % 3 : (key - 13689) % 3, `${p} ${sb.moveToUsi(m)}`).toBe(want);
        shogiBuckets.add(want);
      }
    }
    expect([...shogiBuckets].sort()).toEqual([0, 1, 2]);
    // Black's moves are keyed from black's side: b2b1q mirrors b7b8q, e8g8 mirrors e1g1.
    const black = keyTuples('chess', CHESS[3]!);
    expect(black.get('b2b1q')).toEqual(c.get('b7b8q'));
    expect(black.get('e8g8')).toEqual(c.get('e1g1'));
    const s = keyTuples('shogi', SHOGI[4]!);
    expect(s.get('7b7a+')).toBeDefined();
    expect(s.get('7b7a')).toBeUndefined(); // a pawn on the last rank must promote
    expect(s.get('8d7b')).toBeUndefined(); // a knight on rank b must promote
    expect(s.get('9c9b+')![0]).not.toBe(s.get('9c9b')![0]); // a lance there may
    const drops = [...s.keys()].filter((m) => m.includes('*'));
    expect(drops.length).toBeGreaterThan(0);
    expect(new Set(drops.map((m) => s.get(m)![0])).size).toBe(drops.length);
  });
});

describe('files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kishi-policy-'));

  test('the format round-trips and the integer inference is the formula of the module comment', () => {
    const net = randomPolicy('chess', 4, 5);
    const back = parsePolicy(serializePolicy(net), 'rnd').unwrap();
    expect(back).toEqual(net);
    // One move by hand: e2e4 from the start position (white, no mirroring).
    const b = FastChessBoard.fromFen(CHESS[0]!).unwrap();
    const feats: number[] = [];
    for (let sq = 0; sq < 64; sq++) {
      const p = b.squares[((sq >> 3) << 4) | (sq & 7)]!;
      if (p !== 0) feats.push(((p >> 3 === 0 ? 0 : 6) + (p & 7) - 1) * 64 + sq);
    }
    const h = [...net.b1].map((x, i) => Math.min(255, Math.max(0, feats.reduce((s, f) => s + net.w1[f * 4 + i]!, x))));
    // from-to e2e4, pawn to e4 (not attacked: bucket 0), pawn from e2 (not attacked), pawn takes nothing (bucket 0).
    const keys = [12 * 64 + 28, 20480 + (0 * 64 + 28) * 3, 21632 + (0 * 64 + 12) * 2, 22400 + 0];
    const want = keys.reduce((s, k) => s + net.b2[k]! + h.reduce((t, x, i) => t + x * net.w2[k * 4 + i]!, 0), 0);
    expect(policyLogitsOf(net, CHESS[0]!).unwrap().get('e2e4')).toBe(want);
  });

  for (const [game, file] of [
    ['chess', 'models/chess-policy.bin'],
    ['shogi', 'models/shogi-policy.bin'],
  ] as const) {
    test(`${file}: the trainer's reference logits match bit-exact`, () => {
      const loaded = loadPolicyFile(file, game);
      if (loaded.isErr) throw new Error(loaded.error.message);
      expect(loaded.value.manifest.references.length).toBeGreaterThan(0);
      // And the search's prior uses it (at the manifest's temperature).
      const ev = loadCpuEvaluator(`models/${game}-nnue.bin`, game, {}, file).unwrap();
      expect(ev.policy).toBeDefined();
      expect(ev.settings.policyTemperature).toBe(loaded.value.manifest.temperature ?? 1);
    });
  }

  test('a corrupt, truncated, mismatched or wrong-game file is refused, and the evaluator keeps the one-ply prior', () => {
    const net = randomPolicy('chess', 8, 7);
    const bytes = serializePolicy(net);
    const position = CHESS[1]!;
    const logits = Object.fromEntries(policyLogitsOf(net, position).unwrap());
    const manifest = { format: 'kishi-policy', version: 1, game: 'chess', arch: { features: 768, hidden: 8, keys: net.keys, keysPerMove: net.keysPerMove, qa: 255, qb: 128 }, references: [{ position, logits }] };
    const text = JSON.stringify(manifest);
    expect(validatePolicy(bytes, text, 'chess', 'ok.bin').isOk).toBe(true);
    const flipped = new Uint8Array(bytes);
    flipped[1000]! ^= 1;
    expect(validatePolicy(flipped, text, 'chess', 'bad.bin').isErr && 'checksum').toBeTruthy();
    const corrupt = validatePolicy(flipped, text, 'chess', 'bad.bin');
    expect(corrupt.isErr && corrupt.error.message).toMatch(/checksum mismatch/);
    const short = validatePolicy(bytes.subarray(0, bytes.length - 10), text, 'chess', 'short.bin');
    expect(short.isErr && short.error.message).toMatch(/truncated/);
    const moved = JSON.stringify({ ...manifest, references: [{ position, logits: { ...logits, e1g1: logits.e1g1! + 1 } }] });
    const mismatch = validatePolicy(bytes, moved, 'chess', 'm.bin');
    expect(mismatch.isErr && mismatch.error.message).toMatch(/e1g1 gives .* the manifest says/);
    const wrong = validatePolicy(bytes, text, 'shogi', 'ok.bin');
    expect(wrong.isErr && wrong.error.message).toMatch(/not shogi/);
    expect(validatePolicy(bytes, '{', 'chess', 'x.bin').isErr).toBe(true);

    writeFileSync(join(dir, 'chess-policy.bin'), flipped);
    writeFileSync(join(dir, 'chess-policy.manifest.json'), text);
    const ev = loadCpuEvaluator('models/chess-nnue.bin', 'chess', {}, join(dir, 'chess-policy.bin')).unwrap();
    expect(ev.policy).toBeUndefined();
    expect(ev.policyError?.code).toBe('ERR_POLICY');
    expect(ev.policyError?.message).toMatch(/checksum mismatch/);
    const check = checkCpuNetFiles('models/chess-nnue.bin', 'chess', join(dir, 'chess-policy.bin')).unwrap();
    expect(check.policy).toBe('one-ply');
    expect(check.policyError?.message).toMatch(/policy network .*checksum mismatch/);
    // The one-ply prior still works.
    const board = ev.attach(ChessMctsBoard.fromText(position, []).unwrap());
    const moves = new Int32Array(256);
    const n = board.generate(moves);
    const priors = new Float32Array(n);
    ev.evaluate(moves, n, priors);
    expect(priors.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  test("the manifest's temperature is the policy temperature unless mctsTuning sets one", () => {
    const net = randomPolicy('chess', 8, 17);
    const position = CHESS[0]!;
    const logits = Object.fromEntries(policyLogitsOf(net, position).unwrap());
    const manifest = (t: unknown) =>
      JSON.stringify({ format: 'kishi-policy', version: 1, game: 'chess', temperature: t, arch: { features: 768, hidden: 8, keys: net.keys, keysPerMove: net.keysPerMove, qa: 255, qb: 128 }, references: [{ position, logits }] });
    writeFileSync(join(dir, 't.bin'), serializePolicy(net));
    writeFileSync(join(dir, 't.manifest.json'), manifest(2.5));
    const ev = loadCpuEvaluator('models/chess-nnue.bin', 'chess', {}, join(dir, 't.bin')).unwrap();
    expect(ev.policy).toBeDefined();
    expect(ev.settings.policyTemperature).toBe(2.5);
    expect(loadCpuEvaluator('models/chess-nnue.bin', 'chess', { policyTemperature: 1.2 }, join(dir, 't.bin')).unwrap().settings.policyTemperature).toBe(1.2);
    writeFileSync(join(dir, 't.manifest.json'), manifest(-1));
    const bad = loadCpuEvaluator('models/chess-nnue.bin', 'chess', {}, join(dir, 't.bin')).unwrap();
    expect(bad.policy).toBeUndefined();
    expect(bad.policyError?.message).toMatch(/temperature -1/);
  });

  test("which policy file: the config's mctsPolicy, else <game>-policy.bin beside the value network", () => {
    expect(policyPathFor('models/chess-nnue.bin', 'chess', 'oneply')).toBeUndefined();
    expect(policyPathFor('models/chess-nnue.bin', 'chess', '/x/p.bin')).toBe('/x/p.bin');
    expect(policyPathFor(join(dir, 'shogi-nnue.bin'), 'shogi')).toBeUndefined();
    expect(policyPathFor(join(dir, 'chess-nnue.bin'), 'chess')).toBe(join(dir, 'chess-policy.bin'));
  });
});

describe('evaluator with a policy network', () => {
  for (const game of ['chess', 'shogi'] as const) {
    test(`${game}: priors are the softmax of the network's logits over the legal moves, at the policy temperature`, () => {
      const net = randomPolicy(game, 8, 11);
      const ev = loadCpuEvaluator(`models/${game}-nnue.bin`, game, { policyTemperature: 2 }).unwrap();
      const position = game === 'chess' ? CHESS[3]! : SHOGI[3]!;
      if (game === 'chess') ev.policy = new ChessPolicy(net) as never;
      else ev.policy = new ShogiPolicy(net) as never;
      const root = game === 'chess' ? ChessMctsBoard.fromText(position, []).unwrap() : ShogiMctsBoard.fromText(position, []).unwrap();
      const board = ev.attach(root);
      const moves = new Int32Array(600);
      const n = board.generate(moves);
      const priors = new Float32Array(n);
      const value = ev.evaluate(moves, n, priors);
      expect(Math.abs(value)).toBeLessThanOrEqual(1);
      const logits = policyLogitsOf(net, position).unwrap();
      const want = [];
      for (let i = 0; i < n; i++) want.push(logits.get(board.moveToText(moves[i]!))! / (255 * 128) / 2);
      const max = Math.max(...want);
      const sum = want.reduce((s, l) => s + Math.exp(l - max), 0);
      for (let i = 0; i < n; i++) expect(priors[i]).toBeCloseTo(Math.exp(want[i]! - max) / sum, 5);
      expect(board.toText()).toBe(root.toText());
    });
  }

  test('a residual network adds w times the one-ply prior\'s log probabilities to its logits', () => {
    const net = { ...randomPolicy('chess', 8, 13), baseWeight: 2.5 };
    const position = CHESS[1]!;
    const oneply = loadCpuEvaluator('models/chess-nnue.bin', 'chess').unwrap();
    const ev = loadCpuEvaluator('models/chess-nnue.bin', 'chess', { policyTemperature: 1.5 }).unwrap();
    ev.policy = new ChessPolicy(parsePolicy(serializePolicy(net), 'rnd').unwrap()) as never;
    const moves = new Int32Array(256);
    const b1 = oneply.attach(ChessMctsBoard.fromText(position, []).unwrap());
    const n = b1.generate(moves);
    const base = new Float32Array(n);
    oneply.evaluate(moves, n, base);
    const b2 = ev.attach(ChessMctsBoard.fromText(position, []).unwrap());
    const priors = new Float32Array(n);
    ev.evaluate(moves, n, priors);
    const logits = policyLogitsOf(net, position).unwrap();
    const want = [];
    for (let i = 0; i < n; i++) want.push((logits.get(b2.moveToText(moves[i]!))! / (255 * 128) + 2.5 * Math.log(base[i]!)) / 1.5);
    const max = Math.max(...want);
    const sum = want.reduce((s, l) => s + Math.exp(l - max), 0);
    for (let i = 0; i < n; i++) expect(priors[i]).toBeCloseTo(Math.exp(want[i]! - max) / sum, 4);
  });
});
