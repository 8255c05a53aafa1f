/**
 * CSA position text, as in the `BEGIN Position` ... `END Position` block of a Game_Summary or the
 * header of a .csa game record:
 *
 * - `PI` (the even start position), optionally followed by `<square><piece>` pairs removed for a
 *   handicap, e.g. `PI82HI22KA`;
 * - or nine rows `P1`..`P9`, each nine 3-character cells ` * ` / `+FU` / `-KY` (file 9 first);
 *   trailing blanks that a transport trimmed off are tolerated;
 * - `P+` / `P-` lines of 4-character items: `00FU` puts a piece in that side's hand, `55KI` puts a
 *   piece on the board, `00AL` gives that side every piece not yet placed (kings excepted);
 * - the side to move, `+` or `-`;
 * - moves already played, `+7776FU` or `+7776FU,T3` (a record's separate `T3` lines work too).
 *
 * Comment lines (`'...`), blank lines, `BEGIN/END Position` and record header lines (`V2.2`,
 * `N+name`, `N-name`, `$KEY:value`) are skipped. Shogi-server's own parser is the reference for
 * what a server sends; shogiops' `parseCsaHeader` was not used because it silently skips unknown
 * cells and validates the board before the `P+`/`P-` pieces are added.
 */
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';
import { Board } from 'shogiops/board';
import { Hands } from 'shogiops/hands';
import type { Color, MoveOrDrop, Role } from 'shogiops/types';
import { standardBoard } from 'shogiops/variant/shogi';
import { CSA_TO_ROLE, csaSquare } from './csa-move.js';
import { HAND_ROLES, PIECE_SET, isHandRole, squareAt, unpromoteRole } from './pieces.js';
import { ShogiGame } from './shogi-game.js';
import type { ShogiGameOptions } from './shogi-game.js';
import { makeShogiSfen, positionFromSetup, setupProblem } from './sfen.js';

/** A parsed CSA position: the game after the listed moves, plus what it started from. */
export interface CsaPosition {
  /** The game with the block's moves played (so repetition history includes them). */
  readonly game: ShogiGame;
  /** SFEN of the position before the block's moves (move number 1). */
  readonly startSfen: string;
  /** The block's moves, in order. */
  readonly moves: readonly MoveOrDrop[];
  /** Seconds from each move's `T` field, undefined where absent. */
  readonly times: readonly (number | undefined)[];
}

const csaError = (reason: string): Result<never, KishiError> =>
  Result.err(new KishiError('ERR_CSA_POSITION', `invalid CSA position: ${reason}`));

const SKIPPED = /^(?:'|V\d|N[+-]|\$|BEGIN Position$|END Position$)/;

/**
 * Parses a CSA position block (lines, or one string with line breaks) into a game; the moves in the
 * block are checked for legality and played. `options` are passed to the game (e.g. `maxMoves`).
 */
export function parseCsaPosition(
  input: string | readonly string[],
  options: ShogiGameOptions = {},
): Result<CsaPosition, KishiError> {
  const lines = typeof input === 'string' ? input.split(/\r?\n/) : input;
  let board: Board | undefined;
  let boardFrom: 'PI' | 'rows' | undefined;
  const rows: (string | undefined)[] = new Array(9).fill(undefined);
  const hands = Hands.empty();
  const alSeen = new Set<Color>();
  let turn: Color | undefined;
  const moveTexts: string[] = [];
  const times: (number | undefined)[] = [];

  const ensureBoard = (): Board => {
    if (board === undefined) {
      if (boardFrom === 'rows') board = buildRows(rows);
      else board = Board.empty();
    }
    return board;
  };

  for (let ln = 0; ln < lines.length; ln++) {
    const raw = lines[ln]!.replace(/\r$/, '');
    const line = raw.trimStart();
    const where = `line ${ln + 1} "${raw}"`;
    if (line.trim() === '' || SKIPPED.test(line)) continue;

    if (/^P[1-9]/.test(line)) {
      if (turn !== undefined) return csaError(`${where}: board row after the side to move`);
      if (boardFrom === 'PI') return csaError(`${where}: both PI and board rows`);
      if (board !== undefined) return csaError(`${where}: board row after P+/P- lines`);
      const r = Number(line[1]) - 1;
      if (rows[r] !== undefined) return csaError(`${where}: row P${r + 1} given twice`);
      const cells = line.slice(2).replace(/\s+$/, '').padEnd(27, ' ');
      if (cells.length !== 27) return csaError(`${where}: a row has nine 3-character cells`);
      for (let f = 0; f < 9; f++) {
        const cell = cells.slice(3 * f, 3 * f + 3);
        if (cell === ' * ') continue;
        if (!/^[+-][A-Z]{2}$/.test(cell) || !CSA_TO_ROLE.has(cell.slice(1)))
          return csaError(`${where}: bad cell "${cell}" for square ${9 - f}${r + 1}`);
      }
      rows[r] = cells;
      boardFrom = 'rows';
      continue;
    }
    if (line.startsWith('PI')) {
      if (turn !== undefined) return csaError(`${where}: PI after the side to move`);
      if (boardFrom !== undefined) return csaError(`${where}: PI together with board rows or another PI`);
      boardFrom = 'PI';
      board = standardBoard();
      const items = line.slice(2).trimEnd();
      if (items.length % 4 !== 0) return csaError(`${where}: PI items are 4 characters (square + piece)`);
      for (let i = 0; i < items.length; i += 4) {
        const item = items.slice(i, i + 4);
        const m = /^([1-9])([1-9])([A-Z]{2})$/.exec(item);
        const sq = m ? squareAt(Number(m[1]), Number(m[2])) : -1;
        const role = m ? CSA_TO_ROLE.get(m[3]!) : undefined;
        if (!m || role === undefined || board.getRole(sq) !== role)
          return csaError(`${where}: cannot remove "${item}" from the start position`);
        board.take(sq);
      }
      continue;
    }
    if (line.startsWith('P+') || line.startsWith('P-')) {
      if (turn !== undefined) return csaError(`${where}: P+/P- after the side to move`);
      if (boardFrom === 'rows' && rows.some((r) => r === undefined)) return csaError(`${where}: board rows P1..P9 incomplete`);
      const color: Color = line[1] === '+' ? 'sente' : 'gote';
      const b = ensureBoard();
      const items = line.slice(2).trimEnd();
      if (items.length % 4 !== 0) return csaError(`${where}: items are 4 characters (square + piece)`);
      for (let i = 0; i < items.length; i += 4) {
        const item = items.slice(i, i + 4);
        if (alSeen.size > 0) return csaError(`${where}: "${item}" after 00AL`);
        if (item === '00AL') {
          const rest = remainingPieces(b, hands);
          for (const role of HAND_ROLES) hands.color(color).set(role, hands.color(color).get(role) + (rest.get(role) ?? 0));
          alSeen.add(color);
          continue;
        }
        const m = /^([0-9])([0-9])([A-Z]{2})$/.exec(item);
        const role = m ? CSA_TO_ROLE.get(m[3]!) : undefined;
        if (!m || role === undefined) return csaError(`${where}: bad item "${item}"`);
        if (m[1] === '0' && m[2] === '0') {
          if (!isHandRole(role)) return csaError(`${where}: "${item}" cannot be in hand`);
          hands.color(color).set(role, hands.color(color).get(role) + 1);
        } else {
          if (m[1] === '0' || m[2] === '0') return csaError(`${where}: bad square in "${item}"`);
          const sq = squareAt(Number(m[1]), Number(m[2]));
          if (b.has(sq)) return csaError(`${where}: square ${csaSquare(sq)} is already occupied`);
          b.set(sq, { role, color });
        }
      }
      continue;
    }
    if (line.trimEnd() === '+' || line.trimEnd() === '-') {
      if (turn !== undefined) return csaError(`${where}: side to move given twice`);
      turn = line.trimEnd() === '+' ? 'sente' : 'gote';
      continue;
    }
    if (/^T\d+\s*$/.test(line)) {
      if (moveTexts.length === 0 || times[times.length - 1] !== undefined)
        return csaError(`${where}: time without a move`);
      times[times.length - 1] = Number(line.trim().slice(1));
      continue;
    }
    if (/^[+-]\d/.test(line)) {
      if (turn === undefined) return csaError(`${where}: move before the side to move`);
      const parts = line.trimEnd().split(',');
      let time: number | undefined;
      for (const extra of parts.slice(1)) {
        if (/^T\d+$/.test(extra)) time = Number(extra.slice(1));
        else if (!extra.startsWith("'")) return csaError(`${where}: unexpected "${extra}" after the move`);
      }
      moveTexts.push(parts[0]!);
      times.push(time);
      continue;
    }
    return csaError(`${where}: not a position line`);
  }

  if (boardFrom === 'rows' && rows.some((r) => r === undefined)) {
    const missing = rows.flatMap((r, i) => (r === undefined ? [`P${i + 1}`] : []));
    return csaError(`board rows ${missing.join(', ')} missing`);
  }
  if (turn === undefined) return csaError('no side-to-move line ("+" or "-")');
  const finalBoard = ensureBoard();
  const setup = { board: finalBoard, hands, turn, moveNumber: 1 };
  const problem = setupProblem(setup);
  if (problem !== undefined) return csaError(problem);
  const posResult = positionFromSetup(setup, 'CSA position');
  if (posResult.isErr) return csaError(posResult.error.message);
  const startSfen = makeShogiSfen(posResult.value);
  const game = ShogiGame.fromSfen(startSfen, options);
  if (game.isErr) return csaError(game.error.message);
  const g = game.value;
  const moves: MoveOrDrop[] = [];
  for (let i = 0; i < moveTexts.length; i++) {
    const md = g.parseCsaMove(moveTexts[i]!);
    if (md.isErr) return csaError(`move ${i + 1}: ${md.error.message}`);
    g.play(md.value);
    moves.push(md.value);
  }
  return Result.ok({ game: g, startSfen, moves, times });
}

function buildRows(rows: readonly (string | undefined)[]): Board {
  const board = Board.empty();
  rows.forEach((cells, r) => {
    if (cells === undefined) return;
    for (let f = 0; f < 9; f++) {
      const cell = cells.slice(3 * f, 3 * f + 3);
      if (cell === ' * ') continue;
      const role = CSA_TO_ROLE.get(cell.slice(1))!;
      board.set(squareAt(9 - f, r + 1), { role, color: cell[0] === '+' ? 'sente' : 'gote' });
    }
  });
  return board;
}

/** Pieces of a standard set (kings excepted) not on the board or in either hand, as hand roles. */
function remainingPieces(board: Board, hands: Hands): Map<Role, number> {
  const rest = new Map<Role, number>();
  for (const role of HAND_ROLES) {
    rest.set(role, PIECE_SET[role] - hands.color('sente').get(role) - hands.color('gote').get(role));
  }
  for (const [, piece] of board) {
    const base = unpromoteRole(piece.role);
    if (rest.has(base)) rest.set(base, rest.get(base)! - 1);
  }
  for (const [role, n] of rest) if (n < 0) rest.set(role, 0);
  return rest;
}
