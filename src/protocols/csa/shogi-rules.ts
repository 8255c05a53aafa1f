/**
 * The few shogi rules the CSA client needs, as small functions over the shared shogi adapter
 * (src/games/shogi: CSA positions, strict CSA move text, the 27-point declaration) and shogiops
 * (legality): positions from CSA `P` lines, CSA <-> USI moves with legality checks, legal move lists,
 * and whether the entering-king declaration (`Declaration:Jishogi 1.1`) is legal now.
 *
 * Pure: no I/O, no logger.
 */
import type { MoveOrDrop, Role } from 'shogiops/types';
import type { Shogi } from 'shogiops/variant/shogi';
import { makeCsaMove, parseCsaMoveSyntax, resolveCsaMove } from '../../games/shogi/csa-move.js';
import { parseCsaPosition } from '../../games/shogi/csa-position.js';
import { canDeclare } from '../../games/shogi/entering-king.js';
import { STARTPOS_SFEN as ADAPTER_STARTPOS, makeShogiSfen, parseShogiSfen } from '../../games/shogi/sfen.js';
import { makeUsiMove, parseUsiMove as parseUsiSyntax } from '../../games/shogi/usi.js';
import { KishiError, Result } from '../../core/result.js';

/** A mutable shogi position (shogiops). */
export type ShogiPosition = Shogi;

export const STARTPOS_SFEN: string = ADAPTER_STARTPOS;

const err = (code: string, message: string): Result<never, KishiError> => Result.err(new KishiError(code, message));

/** A position from an SFEN string or `startpos` (standard shogi only). */
export function positionFromSfen(sfen: string): Result<ShogiPosition, KishiError> {
  return parseShogiSfen(sfen === 'startpos' ? STARTPOS_SFEN : sfen);
}

/** The SFEN of a position. */
export function toSfen(pos: ShogiPosition): string {
  return makeShogiSfen(pos);
}

/** A CSA position block parsed: its start position and the moves already played, with their times. */
export interface CsaPositionBlock {
  readonly startSfen: string;
  readonly moves: readonly MoveOrDrop[];
  /** `T` of each move, in the block's units; undefined where absent. */
  readonly times: readonly (number | undefined)[];
}

/** Parses a CSA position block (`PI…` or `P1`..`P9`, `P+`/`P-`, `+`/`-`, moves with `,T`). */
export function parseCsaPositionBlock(lines: readonly string[]): Result<CsaPositionBlock, KishiError> {
  const r = parseCsaPosition(lines);
  if (r.isErr) return Result.err(r.error);
  return Result.ok({ startSfen: r.value.startSfen, moves: r.value.moves, times: r.value.times });
}

/** The SFEN of a CSA position given by its lines (moves, if any, are checked but not played). */
export function csaPositionToSfen(lines: readonly string[]): Result<string, KishiError> {
  return parseCsaPositionBlock(lines).map((p) => p.startSfen);
}

/** `+` when black (sente) is to move, `-` for white (gote). */
export const turnSign = (pos: ShogiPosition): '+' | '-' => (pos.turn === 'sente' ? '+' : '-');

/** A parsed, legal move: its USI text, its CSA text with the sign, and the shogiops move. */
export interface CheckedMove {
  readonly usi: string;
  readonly csa: string;
  readonly md: MoveOrDrop;
}

/**
 * Parses a CSA move such as `+7776FU` or `-0034KA` (without `,T`) and checks it is legal for the side to
 * move; CSA names the piece after the move, so a promotion shows as a promoted name on an unpromoted piece.
 */
export function parseCsaMove(pos: ShogiPosition, text: string): Result<CheckedMove, KishiError> {
  const syn = parseCsaMoveSyntax(text);
  if (typeof syn === 'string' || syn.time !== undefined) return err('ERR_CSA_MOVE', `not a CSA move: ${JSON.stringify(text)}`);
  const md = resolveCsaMove(pos, syn);
  if (typeof md === 'string') return err('ERR_CSA_MOVE', `${text}: ${md}`);
  if (!pos.isLegal(md)) return err('ERR_ILLEGAL_MOVE', `illegal move ${text}`);
  return Result.ok({ usi: makeUsiMove(md), csa: text, md });
}

/** Converts a legal USI move (`7g7f`, `B*3d`, `8h2b+`) to CSA with its sign. */
export function parseUsiMove(pos: ShogiPosition, usi: string): Result<CheckedMove, KishiError> {
  const md = parseUsiSyntax(usi);
  if (md === undefined) return err('ERR_USI_MOVE', `not a USI move: ${JSON.stringify(usi)}`);
  if (!pos.isLegal(md)) return err('ERR_ILLEGAL_MOVE', `illegal move ${usi}`);
  return Result.ok({ usi: makeUsiMove(md), csa: makeCsaMove(pos, md), md });
}

/** Every legal move in USI (drops included); empty when the side to move is mated. */
export function legalUsiMoves(pos: ShogiPosition): string[] {
  const out: string[] = [];
  for (const [from, dests] of pos.allMoveDests()) {
    for (const to of dests) {
      for (const promotion of [false, true]) {
        const md = { from, to, promotion };
        if (pos.isLegal(md)) out.push(makeUsiMove(md));
      }
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    const role = name.split(' ')[1] as Role;
    for (const to of dests) out.push(makeUsiMove({ role, to }));
  }
  return out;
}

/** Plays a checked move. */
export function playMove(pos: ShogiPosition, move: CheckedMove): void {
  pos.play(move.md);
}

/**
 * Whether the side to move may declare a win now (CSA `Declaration:Jishogi 1.1`, the 27-point rule):
 * its king is in the enemy camp and not in check, at least 10 other own pieces are there, and those
 * pieces plus the hand count at least 28 points for black, 27 for white (rook and bishop 5, others 1).
 */
export function canDeclareWin(pos: ShogiPosition): boolean {
  return canDeclare(pos);
}

/** Plays USI moves from a position, returning the CSA moves; stops at the first illegal one. */
export function usiLineToCsa(pos: ShogiPosition, usis: readonly string[]): string[] {
  const p = pos.clone();
  const out: string[] = [];
  for (const u of usis) {
    const m = parseUsiMove(p, u);
    if (m.isErr) break;
    out.push(m.value.csa);
    p.play(m.value.md);
  }
  return out;
}
