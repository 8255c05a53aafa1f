/**
 * Moves as the pages write them: SAN for chess (chessops), and for shogi western (lishogi's:
 * `P-76`, `Bx22+`) or Japanese (`☗７六歩`, `☖同　銀`) notation (shogiops). Replays a game's UCI/USI moves from a
 * position and keeps each position, so the move list can show earlier ones. No DOM: tests/web
 * checks it in Node.
 */
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { makeJapaneseMoveOrDrop } from 'shogiops/notation/japanese';
import { makeWesternMoveOrDrop } from 'shogiops/notation/western';
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';
import type { GameKind } from './wording.js';

/** Shogi's two notations; chess always uses SAN. */
export type ShogiNotation = 'western' | 'japanese';

export const CHESS_START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
export const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** One position of a replayed game: its text, and how the move that led to it is written. */
export interface Ply {
  /** FEN/SFEN after the move. */
  readonly position: string;
  /** The move in the page's notation. */
  readonly text: string;
  /** The move as played (UCI/USI). */
  readonly move: string;
  readonly capture: boolean;
  readonly check: boolean;
}

/** The start position of a game for a position text of the game logs (`startpos` or FEN/SFEN). */
export const startText = (game: GameKind, text: string): string => (text === 'startpos' ? (game === 'chess' ? CHESS_START : SHOGI_START) : text);

/**
 * The game's moves from `start`, each with the position after it. Stops at the first move that does
 * not parse or is illegal there (a stale or foreign line), so the caller shows only what is sound.
 */
export function replay(game: GameKind, start: string, moves: readonly string[], style: ShogiNotation = 'western'): Ply[] {
  const out: Ply[] = [];
  if (game === 'chess') {
    const setup = parseFen(start);
    if (setup.isErr) return out;
    const made = Chess.fromSetup(setup.value);
    if (made.isErr) return out;
    const pos = made.value;
    for (const m of moves) {
      const move = parseUci(m);
      if (!move || !pos.isLegal(move)) break;
      const capture = 'from' in move && (pos.board.get(move.to) !== undefined || (pos.board.get(move.from)?.role === 'pawn' && move.to === pos.epSquare));
      const text = makeSanAndPlay(pos, move);
      out.push({ position: makeFen(pos.toSetup()), text, move: m, capture, check: pos.isCheck() });
    }
    return out;
  }
  const parsed = parseSfen('standard', start, false);
  if (parsed.isErr) return out;
  const pos = parsed.value;
  for (const m of moves) {
    const md = parseUsi(m);
    if (!md || !pos.isLegal(md)) break;
    const capture = !('role' in md) && pos.board.get(md.to) !== undefined;
    const mark = pos.turn === 'sente' ? '☗' : '☖';
    const text = style === 'japanese' ? `${mark}${makeJapaneseMoveOrDrop(pos, md) ?? m}` : (makeWesternMoveOrDrop(pos, md) ?? m);
    pos.play(md);
    out.push({ position: makeSfen(pos), text, move: m, capture, check: pos.isCheck() });
  }
  return out;
}

/** A line (an engine's PV) from `start` in the page's notation; the part that does not replay is dropped. */
export function lineText(game: GameKind, start: string, moves: readonly string[], style: ShogiNotation = 'western'): string {
  return replay(game, start, moves, style)
    .map((p) => p.text)
    .join(' ');
}
