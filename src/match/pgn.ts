/**
 * PGN of a chess match game, in cutechess-cli's style: book moves marked `{ book }`, each engine move
 * commented with the mover's score in pawns (or `+M5`), its depth and the time it took
 * (`{ +0.31/12 0.520s }`) and, with a clock, the time left (`[%clk 0:00:09.6]`), the last one also with
 * how the game ended; standard tags plus `FEN`/`SetUp`, `Variant "Chess960"`, `TimeControl` and
 * `Termination` (PGN standard 8.1 and 9.6-9.8). Written by the records module (chessops' PGN writer,
 * SAN by chessops), so the file reads back with `chessops/pgn`.
 */
import { KishiError } from '../core/result.js';
import { sanMoves, startFen, writePgn } from '../records/pgn.js';
import type { Score } from './adjudication.js';
import type { EndReason, GameRecord, MoveRecord } from './game-record.js';
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

/**
 * The game as PGN text (ends with a blank line, so games can be concatenated). Throws when the record
 * holds a move that is not legal: the game runner checked every move, so that is a bug.
 */
export function formatPgn(r: GameRecord, event = 'kishi match'): string {
  const fen = startFen(r.opening.start);
  if (fen.isErr) throw fen.error;
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
  if (r.opening.start !== 'startpos' || r.variant === 'chess960') tags.push(['FEN', fen.value], ['SetUp', '1']);
  const tcFirst = pgnTimeControl(r.timeControls.first);
  const tcSecond = pgnTimeControl(r.timeControls.second);
  if (tcFirst === tcSecond) tags.push(['TimeControl', tcFirst]);
  else tags.push(['WhiteTimeControl', tcFirst], ['BlackTimeControl', tcSecond]);
  tags.push(['Termination', pgnTermination(r.end.reason)], ['PlyCount', String(r.opening.moves.length + r.moves.length)]);

  const sans = sanMoves(r.opening.start, [...r.opening.moves, ...r.moves.map((m) => m.move)]);
  if (sans.isErr) throw new KishiError(sans.error.code, `game ${r.id}: ${sans.error.message}`);
  const comments = [...r.opening.moves.map(() => 'book'), ...r.moves.map(moveComment)];
  const last = comments.length - 1;
  const moves = sans.value.map((san, i) => ({ san, comment: i === last ? `${comments[i]}, ${r.end.detail}` : comments[i]! }));
  return `${writePgn({ tags, moves, ...(moves.length === 0 ? { startComment: r.end.detail } : {}) })}\n`;
}
