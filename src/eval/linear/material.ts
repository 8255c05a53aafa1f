/**
 * Material-only weights, the default evaluation until TreeStrap learns better ones.
 *
 * Chess: pawn 100, knight 300, bishop 300, rook 500, queen 900 (the classic 1/3/3/5/9).
 * Shogi: the piece values YaneuraOu uses (Apery WCSC26 material, `PawnValue` etc.: pawn 90, lance 315, knight 405,
 * silver 495, gold 540, bishop 855, rook 990, promoted pawn/lance/knight/silver 540, horse 945,
 * dragon 1395; a piece in hand counts as the unpromoted piece), rescaled by 10/9 so that a pawn
 * is 100: pawn 100, lance 350, knight 450, silver 550, gold 600, bishop 950, rook 1100, tokin,
 * promoted lance, knight and silver 600, horse 1050, dragon 1550.
 */
import { BISHOP as C_BISHOP, KNIGHT as C_KNIGHT, PAWN as C_PAWN, QUEEN as C_QUEEN, ROOK as C_ROOK } from '../../games/chess/fast/piece.js';
import {
  BISHOP,
  DRAGON,
  GOLD,
  HORSE,
  KNIGHT,
  LANCE,
  PAWN,
  PRO_KNIGHT,
  PRO_LANCE,
  PRO_PAWN,
  PRO_SILVER,
  ROOK,
  SILVER,
} from '../../games/shogi/fast/pieces.js';
import { CHESS_FEATURES, chessMaterialFeature } from './chess-features.js';
import { SHOGI_FEATURES, shogiHandFeature, shogiMaterialFeature } from './shogi-features.js';

/** Chess piece values by type (PAWN..QUEEN), centipawns. */
export const CHESS_MATERIAL: Readonly<Record<number, number>> = {
  [C_PAWN]: 100,
  [C_KNIGHT]: 300,
  [C_BISHOP]: 300,
  [C_ROOK]: 500,
  [C_QUEEN]: 900,
};

/** Shogi piece values by board type (1..14 without the king), centipawns (pawn = 100). */
export const SHOGI_MATERIAL: Readonly<Record<number, number>> = {
  [PAWN]: 100,
  [LANCE]: 350,
  [KNIGHT]: 450,
  [SILVER]: 550,
  [GOLD]: 600,
  [BISHOP]: 950,
  [ROOK]: 1100,
  [PRO_PAWN]: 600,
  [PRO_LANCE]: 600,
  [PRO_KNIGHT]: 600,
  [PRO_SILVER]: 600,
  [HORSE]: 1050,
  [DRAGON]: 1550,
};

/** Chess theta with only the material weights set. */
export const chessMaterialTheta = (): Float64Array => {
  const theta = new Float64Array(CHESS_FEATURES.size);
  for (const [type, value] of Object.entries(CHESS_MATERIAL)) theta[chessMaterialFeature(Number(type))] = value;
  return theta;
};

/** Shogi theta with only the material weights (board and hand) set. */
export const shogiMaterialTheta = (): Float64Array => {
  const theta = new Float64Array(SHOGI_FEATURES.size);
  for (const [type, value] of Object.entries(SHOGI_MATERIAL)) {
    const t = Number(type);
    theta[shogiMaterialFeature(t)] = value;
    if (t <= GOLD) theta[shogiHandFeature(t)] = value;
  }
  return theta;
};
