/** The FEN of the a <-> h mirror image (no castling rights or en passant: they are not network inputs). */
export const mirrorFen = (fen: string): string => {
  const [board, turn] = fen.split(' ');
  const rows = board!.split('/').map((row) => [...row.replace(/[1-8]/g, (d) => '.'.repeat(Number(d)))].reverse().join('').replace(/\.+/g, (e) => String(e.length)));
  return `${rows.join('/')} ${turn} - - 0 1`;
};
