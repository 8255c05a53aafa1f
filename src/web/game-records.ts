/**
 * The downloadable records of a game played on the local page: PGN for chess (written by chessops'
 * PGN writer, SAN by chessops), CSA (shogiops' CSA move writer; the CSA standard file format 3.0)
 * and KIF (shogiops' KIF move writer; the Kakinoki KIF format) for shogi. Pure: the game's data in,
 * text out. Games start from the initial position.
 */
import { Chess } from 'chessops/chess';
import { ChildNode, defaultGame, makePgn } from 'chessops/pgn';
import type { PgnNodeData } from 'chessops/pgn';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { makeCsaMoveOrDrop } from 'shogiops/notation/csa';
import { makeKifMoveOrDrop } from 'shogiops/notation/kif';
import { parseUsi } from 'shogiops/util';
import { Shogi } from 'shogiops/variant/shogi';
import type { GameKind, Side } from '../core/game.js';
import type { TimeControl } from './game-clock.js';

/** How a game on the page ended. */
export interface WebResult {
  /** undefined: a draw. */
  readonly winner: Side | undefined;
  /** checkmate, stalemate, timeout, resign, draw-agreed, threefold-repetition, sennichite, ... */
  readonly reason: string;
}

/** What a record is written from. */
export interface RecordData {
  readonly game: GameKind;
  readonly names: { readonly first: string; readonly second: string };
  readonly control: TimeControl;
  /** UCI (chess) or USI (shogi), from the initial position. */
  readonly moves: readonly string[];
  /** Milliseconds each move took, when known (same length as `moves`). */
  readonly moveMs?: readonly number[];
  readonly result?: WebResult;
  readonly startedAt: Date;
}

const pgnDate = (d: Date): string => d.toISOString().slice(0, 10).replace(/-/g, '.');

const pgnResult = (r: WebResult | undefined): string =>
  r === undefined ? '*' : r.winner === undefined ? '1/2-1/2' : r.winner === 'first' ? '1-0' : '0-1';

const PGN_TERMINATION: Record<string, string> = { timeout: 'Time forfeit', abandoned: 'Abandoned' };

/** The game as PGN (chess). */
export function pgnOf(data: RecordData): string {
  const game = defaultGame<PgnNodeData>();
  game.headers.set('Event', 'Kishi local game');
  game.headers.set('Site', 'localhost');
  game.headers.set('Date', pgnDate(data.startedAt));
  game.headers.set('White', data.names.first);
  game.headers.set('Black', data.names.second);
  game.headers.set('Result', pgnResult(data.result));
  game.headers.set('TimeControl', `${Math.round(data.control.initialMs / 1000)}+${Math.round(data.control.incrementMs / 1000)}`);
  if (data.result) game.headers.set('Termination', PGN_TERMINATION[data.result.reason] ?? 'Normal');
  const pos = Chess.default();
  let node = game.moves;
  for (const uci of data.moves) {
    const move = parseUci(uci);
    if (move === undefined || !pos.isLegal(move)) break;
    const child = new ChildNode<PgnNodeData>({ san: makeSanAndPlay(pos, move) });
    node.children.push(child);
    node = child;
  }
  return makePgn(game);
}

/** CSA's end-of-game special moves (CSA standard file format 3.0), by our reasons. */
const CSA_END: Record<string, string> = {
  resign: '%TORYO',
  checkmate: '%TSUMI',
  timeout: '%TIME_UP',
  sennichite: '%SENNICHITE',
  'perpetual-check': '%ILLEGAL_MOVE',
  'entering-king': '%KACHI',
  'draw-agreed': '%HIKIWAKE',
  'max-moves': '%JISHOGI',
  abandoned: '%CHUDAN',
};

/** The game as a CSA record (shogi). */
export function csaOf(data: RecordData): string {
  const lines = [
    "'CSA encoding=UTF-8",
    'V3.0',
    `N+${data.names.first}`,
    `N-${data.names.second}`,
    `$EVENT:Kishi local game`,
    `$START_TIME:${data.startedAt.toISOString().replace('T', ' ').slice(0, 19).replace(/-/g, '/')}`,
    `$TIME:${data.control.initialMs / 1000}+${data.control.byoyomiMs / 1000}+${data.control.incrementMs / 1000}`,
    'PI',
    '+',
  ];
  const pos = Shogi.default();
  data.moves.forEach((usi, i) => {
    const md = parseUsi(usi);
    if (md === undefined || !pos.isLegal(md)) return;
    const text = makeCsaMoveOrDrop(pos, md);
    if (text === undefined) return;
    lines.push(`${pos.turn === 'sente' ? '+' : '-'}${text}`);
    const ms = data.moveMs?.[i];
    if (ms !== undefined) lines.push(`T${Math.floor(ms / 1000)}`);
    pos.play(md);
  });
  if (data.result) lines.push(CSA_END[data.result.reason] ?? '%CHUDAN');
  return lines.join('\n') + '\n';
}

/** KIF's end words (Kakinoki's format), by our reasons. */
const KIF_END: Record<string, string> = {
  resign: '投了',
  checkmate: '詰み',
  timeout: '切れ負け',
  sennichite: '千日手',
  'perpetual-check': '反則負け',
  'entering-king': '入玉勝ち',
  'draw-agreed': '持将棋',
  'max-moves': '持将棋',
  abandoned: '中断',
};

const kifTime = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `(${String(Math.floor(s / 60)).padStart(2, ' ')}:${String(s % 60).padStart(2, '0')}/)`;
};

/** The game as a KIF record (shogi). */
export function kifOf(data: RecordData): string {
  const d = data.startedAt;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const lines = [
    '# KIF形式棋譜ファイル Generated by Kishi',
    `開始日時：${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    '棋戦：Kishi local game',
    `持ち時間：${data.control.initialMs / 1000}秒+${data.control.byoyomiMs / 1000}秒`,
    '手合割：平手',
    `先手：${data.names.first}`,
    `後手：${data.names.second}`,
    '手数----指手---------消費時間--',
  ];
  const pos = Shogi.default();
  let n = 0;
  let lastDest: number | undefined;
  for (const [i, usi] of data.moves.entries()) {
    const md = parseUsi(usi);
    if (md === undefined || !pos.isLegal(md)) break;
    const text = makeKifMoveOrDrop(pos, md, lastDest);
    if (text === undefined) break;
    n = i + 1;
    lines.push(`${String(n).padStart(4, ' ')} ${text}   ${kifTime(data.moveMs?.[i] ?? 0)}`);
    lastDest = md.to;
    pos.play(md);
  }
  if (data.result) lines.push(`${String(n + 1).padStart(4, ' ')} ${KIF_END[data.result.reason] ?? '中断'}`);
  return lines.join('\n') + '\n';
}
