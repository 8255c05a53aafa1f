/** Records read back by the libraries' own parsers, for the tests that pin what the writers write. */
import type { Position } from 'chessops/chess';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { normalizedCsaLines, parseCsaHeader, parseCsaMovesOrDrops } from 'shogiops/notation/csa';
import { makeSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';

/** The first game of a PGN text by chessops: its mainline as UCI from the tags' start, and the position after it. */
export function readPgn(pgn: string): { ucis: string[]; pos: Position } {
  const [game] = parsePgn(pgn);
  const pos = startingPosition(game!.headers).unwrap();
  const ucis: string[] = [];
  for (const node of game!.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (move === undefined) throw new Error(`chessops cannot read ${node.san}`);
    ucis.push(makeUci(move));
    pos.play(move);
  }
  return { ucis, pos };
}

/** The CSA move lines of a record (`+7776FU`), in order. */
export const csaMoveLines = (text: string): string[] => normalizedCsaLines(text).filter((l) => /^[+-]\d{4}[A-Z]{2}$/.test(l));

/** A CSA record by shogiops: its start as SFEN and its moves as USI. */
export function readCsa(text: string): { sfen: string; usis: string[] } {
  const pos = parseCsaHeader(text).unwrap();
  return { sfen: makeSfen(pos), usis: parseCsaMovesOrDrops(pos, csaMoveLines(text)).map(makeUsi) };
}
