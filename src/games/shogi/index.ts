/**
 * The shogi game adapter over shogiops: `ShogiGame` (a `GameState<MoveOrDrop>`), SFEN, USI and CSA
 * move text, CSA position blocks, the entering-king declaration, Zobrist keys and perft.
 * (The internal fast board for search lives in ./fast/ and is exported from there.)
 */
export { ShogiGame } from './shogi-game.js';
export type { MoveOrDrop, ShogiGameOptions } from './shogi-game.js';
export { parseCsaPosition } from './csa-position.js';
export type { CsaPosition } from './csa-position.js';
export { CSA_TO_ROLE, ROLE_TO_CSA, makeCsaMove, parseCsaMoveSyntax, resolveCsaMove } from './csa-move.js';
export type { CsaMoveSyntax } from './csa-move.js';
export { DECLARATION_MIN_PIECES, DECLARATION_THRESHOLD, canDeclare, declarationStatus } from './entering-king.js';
export type { DeclarationStatus } from './entering-king.js';
export { divide, perft } from './perft.js';
export type { DivideEntry } from './perft.js';
export { STARTPOS_SFEN, makeShogiSfen, parseSfenSetup, parseShogiSfen } from './sfen.js';
export { makeUsiMove, parseUsiMove } from './usi.js';
export { ZOBRIST_SEED, computeKey, toBigKey } from './zobrist.js';
