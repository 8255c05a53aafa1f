/**
 * A position or a game pasted into the page for Kishi to analyse: FEN or PGN for chess (chessops),
 * SFEN, KIF or CSA for shogi (shogiops), turned into a start position (FEN/SFEN) and the moves from it
 * in UCI/USI, each checked legal. No DOM: tests/web checks it in Node.
 */
import { makeFen, parseFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { normalizedCsaLines, parseCsaHeader, parseCsaMovesOrDrops } from 'shogiops/notation/csa';
import { normalizedKifLines, parseKifHeader, parseKifMovesOrDrops } from 'shogiops/notation/kif';
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { makeUsi, parseUsi } from 'shogiops/util';
import type { GameKind } from './wording.js';

/** A game to analyse: where it starts and its moves. */
export interface ImportedGame {
  /** FEN/SFEN. */
  readonly start: string;
  /** UCI (chess) or USI (shogi), legal from `start`. */
  readonly moves: readonly string[];
}

export type Imported = { readonly ok: true; readonly value: ImportedGame } | { readonly ok: false; readonly error: string };

const ok = (start: string, moves: readonly string[]): Imported => ({ ok: true, value: { start, moves } });
const fail = (error: string): Imported => ({ ok: false, error });

/** Longest text accepted (a long game's KIF is a few tens of kilobytes). */
export const MAX_IMPORT_CHARS = 200_000;
/** Most moves analysed (the server refuses longer games). */
export const MAX_IMPORT_MOVES = 600;

/** Reads a pasted FEN or PGN (chess), or SFEN, KIF or CSA (shogi). */
export function importGame(game: GameKind, text: string): Imported {
  const t = text.trim();
  if (t === '') return fail('paste a position or a game first');
  if (t.length > MAX_IMPORT_CHARS) return fail('that text is too long');
  const got = game === 'chess' ? importChess(t) : importShogi(t);
  if (got.ok && got.value.moves.length > MAX_IMPORT_MOVES) return fail(`games of up to ${MAX_IMPORT_MOVES} moves can be analysed`);
  return got;
}

function importChess(t: string): Imported {
  const fen = parseFen(t);
  if (fen.isOk) return ok(makeFen(fen.value), []);
  const [game] = parsePgn(t);
  if (!game) return fail('not a FEN or a PGN game');
  const start = startingPosition(game.headers);
  if (start.isErr) return fail(`the PGN's start position: ${start.error.message}`);
  const pos = start.value;
  const first = makeFen(pos.toSetup());
  const moves: string[] = [];
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) return fail(`move ${moves.length + 1} (${node.san}) is not legal there`);
    moves.push(makeUci(move));
    pos.play(move);
  }
  if (moves.length === 0 && !/\[\s*FEN\s/i.test(t) && !/\d\.\s*\S/.test(t)) return fail('not a FEN or a PGN game');
  return ok(first, moves);
}

function importShogi(t: string): Imported {
  const sfen = parseSfen('standard', t, true);
  if (sfen.isOk) return ok(makeSfen(sfen.value), []);
  // CSA: move lines like +7776FU; KIF: numbered lines like "1 ７六歩(77)".
  const csaLines = normalizedCsaLines(t);
  if (csaLines.some((l) => /^[+-]\d{4}[A-Z]{2}/.test(l)) || csaLines.some((l) => /^P[I1-9]/.test(l))) {
    const header = parseCsaHeader(t);
    if (header.isErr) return fail(`the CSA start position: ${header.error.message}`);
    const pos = header.value;
    const first = makeSfen(pos);
    const lines = csaLines.filter((l) => /^[+-]\d{4}[A-Z]{2}/.test(l)).map((l) => l.slice(0, 7));
    const mds = parseCsaMovesOrDrops(pos.clone(), lines);
    return playShogi(first, mds.map(makeUsi), lines.length);
  }
  const kifLines = normalizedKifLines(t);
  const numbered = kifLines.filter((l) => /^\d+\s/.test(l)).map((l) => l.replace(/^\d+\s+/, ''));
  if (numbered.length > 0 || kifLines.some((l) => l.startsWith('手合割') || l.startsWith('|'))) {
    const header = parseKifHeader(t);
    if (header.isErr) return fail(`the KIF start position: ${header.error.message}`);
    const pos = header.value;
    if (pos.rules !== 'standard') return fail('only standard shogi is analysed');
    const first = makeSfen(pos);
    // The game's end ("投了", "中断") closes the numbered lines; it is no move.
    const moveLines = numbered.filter((l) => !/^(投了|中断|千日手|詰み|切れ負け|反則|持将棋|入玉)/.test(l));
    return playShogi(first, parseKifMovesOrDrops(moveLines).map(makeUsi), moveLines.length);
  }
  return fail('not an SFEN, a KIF or a CSA game');
}

/** Checks the moves legal from the start, in order; `lines`: the move lines read (each must give a move). */
function playShogi(first: string, usis: readonly string[], lines: number): Imported {
  const parsed = parseSfen('standard', first, false);
  if (parsed.isErr) return fail('the start position is not legal');
  const pos = parsed.value;
  if (usis.length < lines) return fail(`move ${usis.length + 1} could not be read`);
  for (const [i, usi] of usis.entries()) {
    const md = parseUsi(usi);
    if (!md || !pos.isLegal(md)) return fail(`move ${i + 1} (${usi}) is not legal there`);
    pos.play(md);
  }
  return ok(first, usis);
}
