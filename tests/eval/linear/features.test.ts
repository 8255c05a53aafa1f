import { describe, expect, it } from 'vitest';
import { FastChessBoard } from '../../../src/games/chess/fast/board.js';
import { FastShogiBoard } from '../../../src/games/shogi/fast/board.js';
import { newMoveList } from '../../../src/games/shogi/fast/board.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { CHESS_FEATURES, CHESS_FEATURE_SET_VERSION } from '../../../src/eval/linear/chess-features.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { SHOGI_FEATURES, SHOGI_FEATURE_SET_VERSION } from '../../../src/eval/linear/shogi-features.js';
import { seededRng } from '../../../src/core/rng.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import { EVAL_GRAIN, setThetaGrain, toGrain } from '../../../src/eval/linear/grain.js';
import { CHESS_MATERIAL, SHOGI_MATERIAL } from '../../../src/eval/linear/material.js';

/** Deterministic pseudo-random numbers (mulberry32). */
const rng = seededRng;

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

describe('feature registry', () => {
  it('names every chess feature uniquely, about Meep-sized', () => {
    expect(CHESS_FEATURES.version).toBe(CHESS_FEATURE_SET_VERSION);
    expect(CHESS_FEATURES.size).toBe(978);
    expect(new Set(CHESS_FEATURES.names).size).toBe(CHESS_FEATURES.size);
    expect(CHESS_FEATURES.indexOf.get('material.pawn')).toBe(0);
    expect(CHESS_FEATURES.names).toContain('pst.mg.knight.e4');
    expect(CHESS_FEATURES.names).toContain('mobility.eg.queen.27');
    expect(CHESS_FEATURES.names).toContain('king.attacks.15');
  });

  it('names every shogi feature uniquely', () => {
    expect(SHOGI_FEATURES.version).toBe(SHOGI_FEATURE_SET_VERSION);
    expect(SHOGI_FEATURES.size).toBe(1322);
    expect(new Set(SHOGI_FEATURES.names).size).toBe(SHOGI_FEATURES.size);
    expect(SHOGI_FEATURES.names).toContain('pst.silver.7g');
    expect(SHOGI_FEATURES.names).toContain('hand.pawn.ge18');
    expect(SHOGI_FEATURES.names).toContain('king.near.enemy.dragon');
  });
});

describe('chess features', () => {
  it('counts material and is sparse', () => {
    const b = FastChessBoard.fromFen(KIWIPETE).unwrap();
    const phi = new SparseVector();
    CHESS_FEATURES.extract(b, phi);
    const m = phi.toMap();
    for (let t = 0; t < 5; t++) expect(m.get(t) ?? 0).toBe(0);
    expect(phi.count).toBeGreaterThan(60);
    expect(phi.count).toBeLessThan(200);
  });

  it('gives the colour-mirrored position the negated vector', () => {
    // Mirror ranks and swap colours: every feature flips sign.
    const fen = 'r1bqk2r/pp3ppp/2n1pn2/2bp4/3P4/2NBPN2/PPQ2PPP/R1B2RK1 w kq - 0 9';
    const mirrored = 'r1b2rk1/ppq2ppp/2nbpn2/3p4/2BP4/2N1PN2/PP3PPP/R1BQK2R b KQ - 0 9';
    const a = new SparseVector();
    const b = new SparseVector();
    CHESS_FEATURES.extract(FastChessBoard.fromFen(fen).unwrap(), a);
    CHESS_FEATURES.extract(FastChessBoard.fromFen(mirrored).unwrap(), b);
    const ma = a.toMap();
    const mb = b.toMap();
    expect(ma.size).toBe(mb.size);
    for (const [i, v] of ma) expect(mb.get(i)).toBeCloseTo(-v, 12);
  });

  it('evaluates phi . theta (incremental tables included) along random games', () => {
    const rand = rng(7);
    const theta = new Float64Array(CHESS_FEATURES.size).map(() => Math.round((rand() - 0.5) * 200) / 4);
    const ev = new ChessLinearEval(theta);
    expect(ev.grain).toBe(1);
    // The same weights with a grain (tables equal to ev's, so the board's incremental sums serve both).
    const coarseTheta = theta.slice();
    setThetaGrain(coarseTheta, EVAL_GRAIN);
    const coarse = new ChessLinearEval(coarseTheta);
    expect(coarse.grain).toBe(EVAL_GRAIN);
    const b = FastChessBoard.fromFen(KIWIPETE).unwrap();
    ev.attach(b);
    const list = new Int32Array(256);
    const phi = new SparseVector();
    let checked = 0;
    for (let game = 0; game < 20; game++) {
      let made = 0;
      for (let ply = 0; ply < 60; ply++) {
        const n = b.generateMoves(list);
        if (n === 0) break;
        b.makeMove(list[Math.floor(rand() * n)]!);
        made++;
        phi.clear();
        CHESS_FEATURES.extract(b, phi);
        expect(Math.abs(ev.evaluateWhite(b) - phi.dot(theta))).toBeLessThan(0.5);
        // The default evaluation is the same value rounded to the grain.
        const g = coarse.evaluateWhite(b);
        expect(g % EVAL_GRAIN === 0).toBe(true);
        expect(Math.abs(g - phi.dot(theta))).toBeLessThanOrEqual(EVAL_GRAIN / 2 + 0.5);
        checked++;
      }
      for (let i = 0; i < made; i++) b.unmakeMove();
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('skips the positional features only while theta weighs none of them (refresh notices a change)', () => {
    // Material and piece-square weights only: the incremental tables carry the whole evaluation.
    const theta = chessMaterialTheta();
    const names = CHESS_FEATURES.names;
    const pst = names.findIndex((n) => n.startsWith('pst.mg.'));
    theta[pst + 20] = 15;
    const ev = new ChessLinearEval(theta);
    const b = FastChessBoard.fromFen(KIWIPETE).unwrap();
    ev.attach(b);
    const phi = new SparseVector();
    const exact = (): number => {
      phi.clear();
      CHESS_FEATURES.extract(b, phi);
      return phi.dot(theta);
    };
    expect(Math.abs(ev.evaluateWhite(b) - exact())).toBeLessThan(0.5);
    // A positional weight counts once the tables are refreshed.
    theta[names.indexOf('tempo')] = 37;
    ev.refresh();
    ev.attach(b);
    expect(Math.abs(ev.evaluateWhite(b) - exact())).toBeLessThan(0.5);
    const onlyTempo = new Float64Array(CHESS_FEATURES.size);
    onlyTempo[names.indexOf('tempo')] = 1;
    expect(phi.dot(onlyTempo)).not.toBe(0);
  });

  it('scores material with the default weights', () => {
    const ev = new ChessLinearEval(chessMaterialTheta());
    const b = FastChessBoard.fromFen('4k3/8/8/8/8/8/PPP5/RN2K3 w - - 0 1').unwrap();
    ev.attach(b);
    expect(ev.evaluateWhite(b)).toBeCloseTo(300 + 300 + 500, 6);
  });
});

describe('shogi features', () => {
  it('gives the rotated, colour-swapped position the negated vector', () => {
    // A middlegame from a random game, then the same position seen from the other side.
    const rand = rng(3);
    const board = FastShogiBoard.fromSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1').unwrap();
    const list = newMoveList();
    for (let ply = 0; ply < 80; ply++) board.makeMove(list[Math.floor(rand() * board.generateMoves(list))]!);
    const [placement, turn, hands] = board.toSfen().split(' ') as [string, string, string];
    const swap = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
    const cells = placement.split('/').map((row) => {
      const out: string[] = [];
      let promoted = false;
      for (const c of row) {
        if (c === '+') promoted = true;
        else if (/\d/.test(c)) for (let k = 0; k < Number(c); k++) out.push('.');
        else {
          out.push(promoted ? `+${swap(c)}` : swap(c));
          promoted = false;
        }
      }
      return out;
    });
    const rotated = cells
      .reverse()
      .map((r) => r.reverse().join('').replace(/\.+/g, (m) => String(m.length)))
      .join('/');
    const mirrored = `${rotated} ${turn === 'b' ? 'w' : 'b'} ${hands === '-' ? '-' : [...hands].map((c) => (/\d/.test(c) ? c : swap(c))).join('')} 1`;
    const a = new SparseVector();
    const b = new SparseVector();
    SHOGI_FEATURES.extract(board, a);
    SHOGI_FEATURES.extract(FastShogiBoard.fromSfen(mirrored).unwrap(), b);
    const ma = a.toMap();
    const mb = b.toMap();
    expect(ma.size).toBeGreaterThan(50);
    expect(ma.size).toBe(mb.size);
    for (const [i, v] of ma) expect(mb.get(i)).toBeCloseTo(-v, 12);
  });

  it('evaluates phi . theta along random games and counts material', () => {
    const rand = rng(11);
    const theta = new Float64Array(SHOGI_FEATURES.size).map(() => (rand() - 0.5) * 50);
    const ev = new ShogiLinearEval(theta);
    const coarse = new ShogiLinearEval(theta.slice());
    coarse.grain = EVAL_GRAIN;
    const b = FastShogiBoard.fromSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1').unwrap();
    const list = newMoveList();
    const phi = new SparseVector();
    for (let ply = 0; ply < 150; ply++) {
      const n = b.generateMoves(list);
      if (n === 0) break;
      b.makeMove(list[Math.floor(rand() * n)]!);
      phi.clear();
      SHOGI_FEATURES.extract(b, phi);
      expect(ev.evaluateBlack(b)).toBeCloseTo(phi.dot(theta), 6);
      expect(coarse.evaluateBlack(b)).toBe(toGrain(phi.dot(theta), EVAL_GRAIN));
    }
    const material = new ShogiLinearEval(shogiMaterialTheta());
    const start = FastShogiBoard.fromSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1').unwrap();
    expect(material.evaluateBlack(start)).toBe(0);
    // Black has taken the bishop: 950 in hand, white lost 950 on the board.
    const up = FastShogiBoard.fromSfen('lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b B 1').unwrap();
    expect(material.evaluateBlack(up)).toBe(1900);
  });
});

describe('evaluation grain', () => {
  it('rounds to the nearest multiple, and leaves material-only scores exact', () => {
    expect(EVAL_GRAIN).toBe(10);
    expect([toGrain(14.9, 10), toGrain(15, 10), toGrain(-15.1, 10), toGrain(7.3, 1)]).toEqual([10, 20, -20, 7.3]);
    for (const v of [...Object.values(CHESS_MATERIAL), ...Object.values(SHOGI_MATERIAL)]) expect(v % EVAL_GRAIN).toBe(0);
  });
});
