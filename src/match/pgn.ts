/**
 * PGN of a chess match game, in cutechess-cli's style: book moves marked `{book}`, each engine move
 * commented with the mover's score in pawns (or `+M5`), its depth and the time it took
 * (`{+0.31/12 0.520s}`) and, with a clock, the time left (`[%clk 0:00:09.6]`), the last one also with
 * how the game ended; standard tags plus `FEN`/`SetUp`,
 * `Variant "Chess960"`, `TimeControl` and `Termination` (PGN standard 8.1 and 9.6-9.8).
 * Moves are rewritten in SAN with chessops, so the file reads back with `chessops/pgn`.
 */
import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';
import type { Score } from './adjudication.js';
import type { EndReason, GameRecord, MoveRecord } from './game-record.js';
import { CHESS_STARTPOS_FEN } from './game-factory.js';
import { pgnTimeControl } from './time-control.js';

/** PGN `Termination` values (standard 9.8.1) by end reason. */
export function pgnTermination(reason: EndReason): string {
  switch (reason) {
    case 'adjudication-resign':
    case 'adjudication-draw':
    case 'max-moves':
      return 'adjudication';
    case 'time-forfeit':
    case 'hang':
      return 'time forfeit';
    case 'crash':
      return 'abandoned';
    case 'illegal-move':
    case 'illegal-declaration':
      return 'rules infraction';
    default:
      return 'normal';
  }
}

/** `1-0`, `0-1` or `1/2-1/2`. */
export function pgnResult(r: GameRecord): string {
  if (r.end.winner === undefined) return '1/2-1/2';
  return r.end.winner === 'first' ? '1-0' : '0-1';
}

/** A score in pawns from the mover's view, cutechess style: `+0.31`, `-1.00`, `+M5`, `-M3`. */
export function formatScore(s: Score): string {
  if ('mate' in s) {
    const plies = Math.abs(s.mate);
    const sign = s.mate > 0 ? '+' : '-';
    return `${sign}M${plies}`;
  }
  return `${s.cp >= 0 ? '+' : ''}${(s.cp / 100).toFixed(2)}`;
}

/** `[%clk 0:01:02.3]`, the clock command lichess and chessops read (tenths of a second). */
export function clockCommand(ms: number): string {
  const tenths = Math.max(0, Math.round(ms / 100));
  const h = Math.floor(tenths / 36000);
  const m = Math.floor((tenths % 36000) / 600);
  const s = (tenths % 600) / 10;
  return `[%clk ${h}:${String(m).padStart(2, '0')}:${s.toFixed(1).padStart(4, '0')}]`;
}

/**
 * The comment of one engine move: `+0.31/12 0.520s` (score/depth, time; just the time without a
 * score), then the mover's clock after the move when there is a clock: `[%clk 0:00:09.6]`.
 */
export function moveComment(m: MoveRecord): string {
  const time = `${(m.elapsedMs / 1000).toFixed(3)}s`;
  const base = m.score !== undefined ? `${formatScore(m.score)}/${m.depth ?? 0} ${time}` : time;
  return m.clockMs !== undefined ? `${base} ${clockCommand(m.clockMs)}` : base;
}

const pgnDate = (iso: string): string => iso.slice(0, 10).replace(/-/g, '.');
const quote = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const clean = (s: string): string => s.replace(/[{}]/g, '');

/** The game as PGN text (ends with a blank line, so games can be concatenated). */
export function formatPgn(r: GameRecord, event = 'kishi match'): string {
  const startFen = r.opening.start === 'startpos' ? CHESS_STARTPOS_FEN : r.opening.start;
  const setup = parseFen(startFen).unwrap();
  const pos = Chess.fromSetup(setup).unwrap();
  const tags: [string, string][] = [
    ['Event', event],
    ['Site', '?'],
    ['Date', pgnDate(r.startedAt)],
    ['Round', r.round],
    ['White', r.players.first],
    ['Black', r.players.second],
    ['Result', pgnResult(r)],
  ];
  if (r.variant === 'chess960') tags.push(['Variant', 'Chess960']);
  if (r.opening.start !== 'startpos' || r.variant === 'chess960') {
    tags.push(['FEN', makeFen(pos.toSetup())], ['SetUp', '1']);
  }
  const tcFirst = pgnTimeControl(r.timeControls.first);
  const tcSecond = pgnTimeControl(r.timeControls.second);
  if (tcFirst === tcSecond) tags.push(['TimeControl', tcFirst]);
  else tags.push(['WhiteTimeControl', tcFirst], ['BlackTimeControl', tcSecond]);
  tags.push(['Termination', pgnTermination(r.end.reason)], ['PlyCount', String(r.opening.moves.length + r.moves.length)]);

  // Movetext tokens.
  const tokens: string[] = [];
  const all = [...r.opening.moves.map((move) => ({ move, book: true as const })), ...r.moves.map((m) => ({ move: m.move, book: false as const, rec: m }))];
  all.forEach((entry, i) => {
    const move = parseUci(entry.move);
    if (move === undefined) throw new Error(`bad UCI move ${entry.move} in game ${r.id}`);
    if (pos.turn === 'white') tokens.push(`${pos.fullmoves}.`);
    else if (i === 0) tokens.push(`${pos.fullmoves}...`);
    // ChessGame writes castling as king-to in standard chess; chessops plays king-takes-rook.
    tokens.push(makeSanAndPlay(pos, normalizeMove(pos, move)));
    const last = i === all.length - 1;
    const comment = entry.book ? 'book' : moveComment(entry.rec);
    tokens.push(`{${clean(last ? `${comment}, ${r.end.detail}` : comment)}}`);
  });
  if (all.length === 0) tokens.push(`{${clean(r.end.detail)}}`);
  tokens.push(pgnResult(r));

  const lines: string[] = tags.map(([k, v]) => `[${k} "${quote(v)}"]`);
  lines.push('');
  let line = '';
  for (const t of tokens) {
    if (line.length > 0 && line.length + 1 + t.length > 79) {
      lines.push(line);
      line = t;
    } else {
      line = line.length > 0 ? `${line} ${t}` : t;
    }
  }
  if (line.length > 0) lines.push(line);
  return `${lines.join('\n')}\n\n`;
}
