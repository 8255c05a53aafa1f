/**
 * The downloadable records of a game played on the local page: PGN for chess, CSA (V3.0) and KIF for
 * shogi, written by the records module (src/records/: chessops' PGN writer, shogiops' CSA and KIF
 * notation). This file only says what the page's games put in them: tags, times, end words. Games
 * start from the initial position.
 */
import type { GameKind, Side } from '../core/game.js';
import type { KishiError, Result } from '../core/result.js';
import { csaTime, writeCsa } from '../records/csa.js';
import { kifTime, writeKif } from '../records/kif.js';
import { sanMoves, writePgn } from '../records/pgn.js';
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
export function pgnOf(data: RecordData): Result<string, KishiError> {
  const tags: [string, string][] = [
    ['Event', 'Kishi local game'],
    ['Site', 'localhost'],
    ['Date', pgnDate(data.startedAt)],
    ['Round', '?'],
    ['White', data.names.first],
    ['Black', data.names.second],
    ['Result', pgnResult(data.result)],
    ['TimeControl', `${Math.round(data.control.initialMs / 1000)}+${Math.round(data.control.incrementMs / 1000)}`],
  ];
  if (data.result) tags.push(['Termination', PGN_TERMINATION[data.result.reason] ?? 'Normal']);
  return sanMoves('startpos', data.moves).map((sans) => writePgn({ tags, moves: sans.map((san) => ({ san })) }));
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
export function csaOf(data: RecordData): Result<string, KishiError> {
  return writeCsa({
    version: '3.0',
    names: { sente: data.names.first, gote: data.names.second },
    info: [
      ['EVENT', 'Kishi local game'],
      ['START_TIME', csaTime(data.startedAt)],
      ['TIME', `${data.control.initialMs / 1000}+${data.control.byoyomiMs / 1000}+${data.control.incrementMs / 1000}`],
    ],
    start: 'startpos',
    moves: data.moves.map((usi, i) => {
      const ms = data.moveMs?.[i];
      return { usi, ...(ms !== undefined ? { time: Math.floor(ms / 1000) } : {}) };
    }),
    ...(data.result ? { end: CSA_END[data.result.reason] ?? '%CHUDAN' } : {}),
  });
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

/** The game as a KIF record (shogi). */
export function kifOf(data: RecordData): Result<string, KishiError> {
  return writeKif({
    headers: [
      ['開始日時', kifTime(data.startedAt)],
      ['棋戦', 'Kishi local game'],
      ['持ち時間', `${data.control.initialMs / 1000}秒+${data.control.byoyomiMs / 1000}秒`],
      ['先手', data.names.first],
      ['後手', data.names.second],
    ],
    start: 'startpos',
    moves: data.moves.map((usi, i) => ({ usi, ms: data.moveMs?.[i] ?? 0 })),
    ...(data.result ? { end: KIF_END[data.result.reason] ?? '中断' } : {}),
  });
}
