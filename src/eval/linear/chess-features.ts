/**
 * Chess features of the linear evaluation (feature set `chess-linear-1`, about 1000 features, about
 * 100-150 active per position), after Meep's five groups: material, piece-square tables, pawn
 * structure, mobility and king safety, plus a few classic terms.
 *
 * Every feature is counted from white's view: a white piece adds +v to its feature, a black piece
 * adds -v to the feature of the vertically mirrored square, so one weight serves both colours and
 * H(s) = phi(s)^T theta is white's score in centipawns.
 *
 * Game phase `g` in [0, 1] (1 = all pieces on, from knights, bishops, rooks and queens as in many
 * engines: 1, 1, 2, 4 of 24) splits the position-dependent groups: `*.mg.*` features carry the
 * factor g, `*.eg.*` features (1 - g). Material is not split.
 *
 * Groups (names `group.detail`):
 *   material.{pawn,knight,bishop,rook,queen}             count(white) - count(black)
 *   pst.{mg,eg}.{pawn..king}.{a1..h8}                     one per piece, phase-scaled
 *   pawn.{doubled,isolated}.{a..h}                        extra pawns on a file / isolated pawns
 *   pawn.passed.{mg,eg}.r{2..7}, pawn.connected.r{2..7}   by relative rank
 *   mobility.{mg,eg}.{knight,bishop,rook,queen}.{k}       one-hot number of reachable squares
 *   king.shield{1,2}.{0..3}                               own pawns 1/2 ranks in front of the king (mg)
 *   king.attackers.{0..7}, king.attacks.{0..15}           enemy pieces / attacks on the king zone (mg)
 *   king.{openfile,semiopenfile}                          no own (no enemy) pawn on the king's file (mg)
 *   bishop.pair, rook.{openfile,semiopenfile,seventh}, tempo (+1 white to move, -1 black)
 */
import * as pieceModule from '../../games/chess/fast/piece.js';
import * as tablesModule from '../../games/chess/fast/tables.js';
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import { FeatureRegistry, type FeatureSet } from './feature-registry.js';
import type { FeatureSink } from './sparse.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE } = pieceModule;
const { DIRS, KNIGHT_STEPS } = tablesModule;

export const CHESS_FEATURE_SET_VERSION = 'chess-linear-1';

const TYPE_NAMES = ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const FILES = 'abcdefgh';
const sqName = (sq: number): string => FILES[sq & 7]! + String((sq >> 3) + 1);
/** Maximum mobility per piece type (index = type). */
const MAX_MOB = [0, 0, 8, 13, 14, 27];
export const PHASE_TOTAL = 24;

const reg = new FeatureRegistry();
const F_MATERIAL = reg.group('material', 5, (i) => TYPE_NAMES[i + 1]!);
/** pst.mg.<type>.<sq> at F_PST_MG + (type-1)*64 + sq; eg likewise. */
const F_PST_MG = reg.group('pst.mg', 6 * 64, (i) => `${TYPE_NAMES[(i >> 6) + 1]}.${sqName(i & 63)}`);
const F_PST_EG = reg.group('pst.eg', 6 * 64, (i) => `${TYPE_NAMES[(i >> 6) + 1]}.${sqName(i & 63)}`);
const F_DOUBLED = reg.group('pawn.doubled', 8, (i) => FILES[i]!);
const F_ISOLATED = reg.group('pawn.isolated', 8, (i) => FILES[i]!);
const F_PASSED_MG = reg.group('pawn.passed.mg', 6, (i) => `r${i + 2}`);
const F_PASSED_EG = reg.group('pawn.passed.eg', 6, (i) => `r${i + 2}`);
const F_CONNECTED = reg.group('pawn.connected', 6, (i) => `r${i + 2}`);
/** mobility.<mg|eg>.<type>.<k>: base per type in F_MOB_MG[type] / F_MOB_EG[type]. */
const F_MOB_MG = [0, 0, 0, 0, 0, 0];
const F_MOB_EG = [0, 0, 0, 0, 0, 0];
for (const phase of ['mg', 'eg'] as const) {
  for (let t = KNIGHT; t <= QUEEN; t++) {
    const base = reg.group(`mobility.${phase}.${TYPE_NAMES[t]}`, MAX_MOB[t]! + 1);
    (phase === 'mg' ? F_MOB_MG : F_MOB_EG)[t] = base;
  }
}
const F_SHIELD1 = reg.group('king.shield1', 4);
const F_SHIELD2 = reg.group('king.shield2', 4);
const F_KING_ATTACKERS = reg.group('king.attackers', 8);
const F_KING_ATTACKS = reg.group('king.attacks', 16);
const F_KING_OPEN = reg.single('king.openfile');
const F_KING_SEMIOPEN = reg.single('king.semiopenfile');
const F_BISHOP_PAIR = reg.single('bishop.pair');
const F_ROOK_OPEN = reg.single('rook.openfile');
const F_ROOK_SEMIOPEN = reg.single('rook.semiopenfile');
const F_ROOK_SEVENTH = reg.single('rook.seventh');
const F_TEMPO = reg.single('tempo');

/** Index of feature `material.<type>` (type PAWN..QUEEN). */
export const chessMaterialFeature = (type: number): number => F_MATERIAL + type - 1;
/** Index of `pst.mg.<type>.<sq>` (white's view, sq 0..63). */
export const chessPstMgFeature = (type: number, sq: number): number => F_PST_MG + (type - 1) * 64 + sq;
/** Index of `pst.eg.<type>.<sq>`. */
export const chessPstEgFeature = (type: number, sq: number): number => F_PST_EG + (type - 1) * 64 + sq;

/** Game phase from material: PHASE_TOTAL with all pieces on, 0 with pawns and kings only. */
export const chessPhase = (board: FastChessBoard): number => {
  const c = board.pieceCounts;
  const p =
    c[KNIGHT]! + c[8 | KNIGHT]! + c[BISHOP]! + c[8 | BISHOP]! + 2 * (c[ROOK]! + c[8 | ROOK]!) + 4 * (c[QUEEN]! + c[8 | QUEEN]!);
  return p > PHASE_TOTAL ? PHASE_TOTAL : p;
};

// Scratch state of the extractor (one extraction at a time per thread).
const zoneMark = new Int32Array(128);
let zoneStamp = 0;
/** Lowest/highest rank (0..7) of a pawn per [color*8 + file]; 8 / -1 if none. */
const minRank = new Int8Array(16);
const maxRank = new Int8Array(16);
const pawnCount = new Uint8Array(16);

/**
 * Appends the features that make/unmake does not track: everything but material and the
 * piece-square tables. `phase` is `chessPhase(board)`.
 */
export const extractChessPositional = (board: FastChessBoard, out: FeatureSink, phase: number): void => {
  const b = board.squares;
  const plist = board.pieceList;
  const g = phase / PHASE_TOTAL;
  const ge = 1 - g;

  // Pawn files.
  for (let i = 0; i < 16; i++) {
    minRank[i] = 8;
    maxRank[i] = -1;
    pawnCount[i] = 0;
  }
  for (let color = WHITE; color <= BLACK; color++) {
    const end = (color << 4) + board.listSize[color]!;
    const pawn = (color << 3) | PAWN;
    for (let i = color << 4; i < end; i++) {
      const s = plist[i]!;
      if (b[s] !== pawn) continue;
      const f = (color << 3) | (s & 7);
      const r = s >> 4;
      pawnCount[f]!++;
      if (r < minRank[f]!) minRank[f] = r;
      if (r > maxRank[f]!) maxRank[f] = r;
    }
  }

  // King zones: the king square and its neighbours, stamped per colour (stamp, stamp + 1).
  zoneStamp += 2;
  if (zoneStamp > 0x3ffffff0) {
    for (let i = 0; i < 128; i++) zoneMark[i] = 0;
    zoneStamp = 2;
  }
  for (let color = WHITE; color <= BLACK; color++) {
    const k = plist[color << 4]!;
    const st = zoneStamp + color;
    zoneMark[k] = st;
    for (let d = 0; d < 8; d++) {
      const t = k + DIRS[d]!;
      if (!(t & 0x88)) zoneMark[t] = st;
    }
  }
  // attackers[color] / attacks[color]: enemy activity against `color`'s king zone.
  let attackersW = 0;
  let attackersB = 0;
  let attacksW = 0;
  let attacksB = 0;

  for (let color = WHITE; color <= BLACK; color++) {
    const sign = color === WHITE ? 1 : -1;
    const flip = color === WHITE ? 0 : 7;
    const end = (color << 4) + board.listSize[color]!;
    const enemyZone = zoneStamp + (color ^ 1);
    let bishops = 0;
    for (let i = (color << 4) + 1; i < end; i++) {
      const s = plist[i]!;
      const p = b[s]!;
      const t = p & 7;
      const file = s & 7;
      const rank = s >> 4;
      const rel = rank ^ flip;
      if (t === PAWN) {
        const f = (color << 3) | file;
        const ef = ((color ^ 1) << 3) | file;
        // Passed: no enemy pawn ahead on this or an adjacent file.
        let passed = true;
        for (let df = -1; df <= 1 && passed; df++) {
          const ff = file + df;
          if (ff < 0 || ff > 7) continue;
          const e = ef - file + ff;
          if (color === WHITE ? maxRank[e]! > rank : minRank[e]! < rank) passed = false;
        }
        if (passed) {
          out.add(F_PASSED_MG + rel - 1, sign * g);
          out.add(F_PASSED_EG + rel - 1, sign * ge);
        }
        const left = file > 0 ? pawnCount[f - 1]! : 0;
        const right = file < 7 ? pawnCount[f + 1]! : 0;
        if (left === 0 && right === 0) out.add(F_ISOLATED + file, sign);
        // Connected: defended by an own pawn or side by side with one.
        const own = p;
        const back = color === WHITE ? -16 : 16;
        if (
          (file > 0 && (b[s - 1] === own || b[s + back - 1] === own)) ||
          (file < 7 && (b[s + 1] === own || b[s + back + 1] === own))
        ) {
          out.add(F_CONNECTED + rel - 1, sign);
        }
        continue;
      }
      let mob = 0;
      let zoneHits = 0;
      if (t === KNIGHT) {
        for (let k = 0; k < 8; k++) {
          const to = s + KNIGHT_STEPS[k]!;
          if (to & 0x88) continue;
          const q = b[to]!;
          if (q === 0 || q >> 3 !== color) mob++;
          if (zoneMark[to] === enemyZone) zoneHits++;
        }
      } else {
        const k0 = t === ROOK ? 4 : 0;
        const k1 = t === BISHOP ? 4 : 8;
        for (let k = k0; k < k1; k++) {
          const d = DIRS[k]!;
          for (let to = s + d; !(to & 0x88); to += d) {
            const q = b[to]!;
            if (zoneMark[to] === enemyZone) zoneHits++;
            if (q === 0) {
              mob++;
              continue;
            }
            if (q >> 3 !== color) mob++;
            break;
          }
        }
        if (t === BISHOP) bishops++;
        if (t === ROOK) {
          const f = (color << 3) | file;
          const ef = ((color ^ 1) << 3) | file;
          if (pawnCount[f] === 0) out.add(pawnCount[ef] === 0 ? F_ROOK_OPEN : F_ROOK_SEMIOPEN, sign);
          if (rel === 6) out.add(F_ROOK_SEVENTH, sign);
        }
      }
      out.add(F_MOB_MG[t]! + mob, sign * g);
      out.add(F_MOB_EG[t]! + mob, sign * ge);
      if (zoneHits > 0) {
        if (color === WHITE) {
          attackersB++;
          attacksB += zoneHits;
        } else {
          attackersW++;
          attacksW += zoneHits;
        }
      }
    }
    if (bishops >= 2) out.add(F_BISHOP_PAIR, sign);
    // Doubled pawns.
    for (let file = 0; file < 8; file++) {
      const n = pawnCount[(color << 3) | file]!;
      if (n > 1) out.add(F_DOUBLED + file, sign * (n - 1));
    }
    // King safety (middlegame terms).
    if (g > 0) {
      const k = plist[color << 4]!;
      const kf = k & 7;
      const fwd = color === WHITE ? 16 : -16;
      const pawn = (color << 3) | PAWN;
      let s1 = 0;
      let s2 = 0;
      for (let df = -1; df <= 1; df++) {
        const ff = kf + df;
        if (ff < 0 || ff > 7) continue;
        const a = k + fwd + df;
        if (!(a & 0x88) && b[a] === pawn) s1++;
        const c = a + fwd;
        if (!(a & 0x88) && !(c & 0x88) && b[c] === pawn) s2++;
      }
      out.add(F_SHIELD1 + s1, sign * g);
      out.add(F_SHIELD2 + s2, sign * g);
      if (pawnCount[(color << 3) | kf] === 0) {
        out.add(pawnCount[((color ^ 1) << 3) | kf] === 0 ? F_KING_OPEN : F_KING_SEMIOPEN, sign * g);
      }
    }
  }
  if (g > 0) {
    out.add(F_KING_ATTACKERS + (attackersW > 7 ? 7 : attackersW), g);
    out.add(F_KING_ATTACKS + (attacksW > 15 ? 15 : attacksW), g);
    out.add(F_KING_ATTACKERS + (attackersB > 7 ? 7 : attackersB), -g);
    out.add(F_KING_ATTACKS + (attacksB > 15 ? 15 : attacksB), -g);
  }
  out.add(F_TEMPO, board.turn === WHITE ? 1 : -1);
};

/** Appends material and piece-square features (what make/unmake tracks incrementally). */
export const extractChessMaterialPst = (board: FastChessBoard, out: FeatureSink, phase: number): void => {
  const b = board.squares;
  const plist = board.pieceList;
  const g = phase / PHASE_TOTAL;
  const ge = 1 - g;
  const c = board.pieceCounts;
  for (let t = PAWN; t <= QUEEN; t++) out.add(F_MATERIAL + t - 1, c[t]! - c[8 | t]!);
  for (let color = WHITE; color <= BLACK; color++) {
    const sign = color === WHITE ? 1 : -1;
    const end = (color << 4) + board.listSize[color]!;
    for (let i = color << 4; i < end; i++) {
      const s = plist[i]!;
      const t = b[s]! & 7;
      let sq = (s + (s & 7)) >> 1;
      if (color === BLACK) sq ^= 56;
      const off = (t - 1) * 64 + sq;
      out.add(F_PST_MG + off, sign * g);
      out.add(F_PST_EG + off, sign * ge);
    }
  }
};

/** The chess feature set: phi(s) in full. */
export const CHESS_FEATURES: FeatureSet<FastChessBoard> = reg.build('chess', CHESS_FEATURE_SET_VERSION, (board, out) => {
  const phase = chessPhase(board);
  extractChessMaterialPst(board, out, phase);
  extractChessPositional(board, out, phase);
});
