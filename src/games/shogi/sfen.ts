/**
 * SFEN reading and writing for standard shogi, with the validation the adapter relies on.
 *
 * shogiops' own `parseSfen` is lenient in ways we cannot accept (it reads `55` as an empty rank,
 * throws a TypeError on a hand like `2`, and accepts nifu or a missing king), so the text is parsed
 * here and only the validated result is handed to `Shogi.from`.
 */
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';
import { Board } from 'shogiops/board';
import { Hands } from 'shogiops/hands';
import { makeBoardSfen, makeHandsSfen } from 'shogiops/sfen';
import type { Color, Role } from 'shogiops/types';
import { Shogi } from 'shogiops/variant/shogi';
import {
  HAND_ROLES,
  PIECE_SET,
  fileOf,
  isDeadSquare,
  opposite,
  rankOf,
  squareAt,
  unpromoteRole,
} from './pieces.js';
import type { HandRole } from './pieces.js';

export const STARTPOS_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

const LETTER_ROLE: Readonly<Record<string, Role>> = {
  p: 'pawn',
  l: 'lance',
  n: 'knight',
  s: 'silver',
  g: 'gold',
  b: 'bishop',
  r: 'rook',
  k: 'king',
};
const PROMOTED_LETTER_ROLE: Readonly<Record<string, Role>> = {
  p: 'tokin',
  l: 'promotedlance',
  n: 'promotedknight',
  s: 'promotedsilver',
  b: 'horse',
  r: 'dragon',
};

const sfenError = (text: string, reason: string): Result<never, KishiError> =>
  Result.err(new KishiError('ERR_SFEN', `invalid SFEN "${text}": ${reason}`));

/** A not necessarily legal position: what the parsers produce before validation. */
export interface ShogiSetup {
  readonly board: Board;
  readonly hands: Hands;
  readonly turn: Color;
  readonly moveNumber: number;
}

function parseBoard(part: string): Board | string {
  const ranks = part.split('/');
  if (ranks.length !== 9) return `the board has ${ranks.length} ranks, expected 9`;
  const board = Board.empty();
  for (let r = 0; r < 9; r++) {
    const rank = ranks[r]!;
    let file = 9;
    let lastWasDigit = false;
    for (let i = 0; i < rank.length; i++) {
      const c = rank[i]!;
      if (c >= '1' && c <= '9') {
        if (lastWasDigit) return `rank ${r + 1} ("${rank}") has two digits in a row`;
        file -= Number(c);
        lastWasDigit = true;
        if (file < 0) return `rank ${r + 1} ("${rank}") is longer than 9 squares`;
        continue;
      }
      lastWasDigit = false;
      let role: Role | undefined;
      let letter = c;
      if (c === '+') {
        letter = rank[++i] ?? '';
        role = PROMOTED_LETTER_ROLE[letter.toLowerCase()];
      } else role = LETTER_ROLE[c.toLowerCase()];
      if (role === undefined) return `rank ${r + 1} ("${rank}") has an unknown piece "${c === '+' ? '+' + letter : c}"`;
      if (file < 1) return `rank ${r + 1} ("${rank}") is longer than 9 squares`;
      const color: Color = letter === letter.toUpperCase() ? 'sente' : 'gote';
      board.set(squareAt(file, r + 1), { role, color });
      file--;
    }
    if (file !== 0) return `rank ${r + 1} ("${rank}") has ${9 - file} squares, expected 9`;
  }
  return board;
}

function parseHands(part: string): Hands | string {
  const hands = Hands.empty();
  if (part === '-') return hands;
  const re = /(\d{0,2})([A-Za-z])/y;
  let pos = 0;
  while (pos < part.length) {
    re.lastIndex = pos;
    const m = re.exec(part);
    if (!m) return `bad hands "${part}" at "${part.slice(pos)}"`;
    pos = re.lastIndex;
    const count = m[1] === '' ? 1 : Number(m[1]);
    const letter = m[2]!;
    const role = LETTER_ROLE[letter.toLowerCase()];
    if (role === undefined || role === 'king') return `bad hands "${part}": "${letter}" cannot be in hand`;
    if (count < 1) return `bad hands "${part}": count ${m[1]} of "${letter}"`;
    const hand = hands.color(letter === letter.toUpperCase() ? 'sente' : 'gote');
    hand.set(role, hand.get(role) + count);
  }
  return hands;
}

/** Parses SFEN text (or `startpos`) into an unvalidated setup. */
export function parseSfenSetup(text: string): Result<ShogiSetup, KishiError> {
  const trimmed = text.trim();
  if (trimmed === 'startpos') return parseSfenSetup(STARTPOS_SFEN);
  const fields = trimmed.split(/\s+/);
  if (trimmed === '' || fields.length < 3 || fields.length > 4)
    return sfenError(text, `expected 3 or 4 space-separated fields (board, turn, hands[, move number]), got ${trimmed === '' ? 0 : fields.length}`);
  const [boardPart, turnPart, handsPart, numberPart] = fields as [string, string, string, string | undefined];
  const board = parseBoard(boardPart);
  if (typeof board === 'string') return sfenError(text, board);
  if (turnPart !== 'b' && turnPart !== 'w') return sfenError(text, `turn must be "b" or "w", got "${turnPart}"`);
  const hands = parseHands(handsPart);
  if (typeof hands === 'string') return sfenError(text, hands);
  let moveNumber = 1;
  if (numberPart !== undefined) {
    if (!/^\d{1,6}$/.test(numberPart) || Number(numberPart) < 1)
      return sfenError(text, `move number must be a positive integer, got "${numberPart}"`);
    moveNumber = Number(numberPart);
  }
  return Result.ok({ board, hands, turn: turnPart === 'b' ? 'sente' : 'gote', moveNumber });
}

/**
 * Why a setup is not a legal standard-shogi position, or undefined when it is.
 * Checks: one king for the side not to move and at most one for the side to move (a tsume problem
 * may leave out the attacker's king), no more pieces than a standard set, no piece that could never move,
 * no two unpromoted pawns of one side on a file (nifu), and the side not to move not in check.
 */
export function setupProblem(setup: ShogiSetup): string | undefined {
  const { board, hands, turn } = setup;
  const counts = new Map<Role, number>();
  const pawnFiles = new Set<string>();
  for (const [sq, piece] of board) {
    const base = unpromoteRole(piece.role);
    counts.set(base, (counts.get(base) ?? 0) + 1);
    if (isDeadSquare(piece.role, piece.color, sq))
      return `${piece.color} ${piece.role} on ${fileOf(sq)}${String.fromCharCode(96 + rankOf(sq))} can never move`;
    if (piece.role === 'pawn') {
      const key = `${piece.color}${fileOf(sq)}`;
      if (pawnFiles.has(key)) return `two ${piece.color} pawns on file ${fileOf(sq)} (nifu)`;
      pawnFiles.add(key);
    }
  }
  for (const color of ['sente', 'gote'] as const) {
    const kings = board.pieces(color, 'king').size();
    // Tsume problems (and shogi engines reading them: YaneuraOu, Apery, the USI `go mate` convention)
    // leave out the attacker's king. The attacker is the side to move in the problem's SFEN, so only
    // the side to move may lack its king; the side not to move is the one to be mated and must have
    // one, or there is nothing to mate and the position is no shogi position at all.
    const missingAllowed = kings === 0 && color === turn;
    if (kings !== 1 && !missingAllowed) return `${color} has ${kings} kings, expected ${color === turn ? '0 or 1' : '1'}`;
    for (const role of HAND_ROLES) counts.set(role, (counts.get(role) ?? 0) + hands.color(color).get(role));
  }
  for (const [role, max] of Object.entries(PIECE_SET) as [HandRole | 'king', number][]) {
    const n = counts.get(role) ?? 0;
    if (n > max) return `${n} ${role}s on board and in hand, a set has ${max}`;
  }
  // shogiops' non-strict validation reports the side not to move in check as ERR_OPPOSITE_CHECK
  const pos = Shogi.from({ board, hands, turn, moveNumber: setup.moveNumber }, false);
  if (pos.isErr) {
    if (pos.error.message === 'ERR_OPPOSITE_CHECK') return `the side not to move (${opposite(turn)}) is in check`;
    return `rejected by shogiops (${pos.error.message})`;
  }
  return undefined;
}

/** Validates a setup into a shogiops position. */
export function positionFromSetup(setup: ShogiSetup, text: string): Result<Shogi, KishiError> {
  const problem = setupProblem(setup);
  if (problem !== undefined) return sfenError(text, problem);
  const pos = Shogi.from(
    { board: setup.board.clone(), hands: setup.hands.clone(), turn: setup.turn, moveNumber: setup.moveNumber },
    true,
  );
  if (pos.isErr) return sfenError(text, pos.error.message);
  return Result.ok(pos.value);
}

/** Parses and validates SFEN text (or `startpos`). */
export function parseShogiSfen(text: string): Result<Shogi, KishiError> {
  return parseSfenSetup(text).chain((setup) => positionFromSetup(setup, text));
}

/**
 * The SFEN of a position: shogiops' board and hand writers (canonical hand order R B G S N L P,
 * sente first), and the move number unclamped (shogiops' `makeSfen` caps it at 9999).
 */
export const makeShogiSfen = (pos: Shogi): string =>
  `${makeBoardSfen('standard', pos.board)} ${pos.turn === 'sente' ? 'b' : 'w'} ${makeHandsSfen('standard', pos.hands)} ${pos.moveNumber}`;
