/**
 * CSA record (format V2.2) of a shogi match game: names, `$EVENT`, `$START_TIME`/`$END_TIME`,
 * `$OPENING`, the start position (`PI` for the standard one, else the full `P1`..`P9` board with
 * hands), every move with its time (`+7776FU,T3`, whole seconds as CSA servers charge them), and
 * comments:
 * - `'book` after opening moves;
 * - `'** <score> <pv>` after engine moves, as shogi-server records them: the score in centipawns
 *   from sente's (black's) view, a mate as +-(100000 - plies), the PV in CSA moves;
 * - `'* <ms>ms depth <d> nodes <n> clock <s>s` with the exact time and clock;
 * and the end as a special move (`%TORYO`, `%TSUMI`, `%TIME_UP`, `%ILLEGAL_MOVE`,
 * `%SENNICHITE`, `%OUTE_SENNICHITE`, `%KACHI`, `%MAX_MOVES`, `%HIKIWAKE`, `%CHUDAN`) followed by a
 * `'summary:` comment. Written by the records module (shogiops' CSA notation); it reads back with
 * shogiops' `parseCsaHeader`/`parseCsaMovesOrDrops`.
 */
import type { Side } from '../core/game.js';
import { KishiError } from '../core/result.js';
import { csaTime, writeCsa } from '../records/csa.js';
import type { Score } from './adjudication.js';
import type { EndReason, GameRecord } from './game-record.js';
import { formatTimeControl } from './time-control.js';

/** The CSA special move that ends a game for each reason. */
export function csaEndMove(reason: EndReason): string {
  switch (reason) {
    case 'checkmate':
      return '%TSUMI';
    case 'sennichite':
      return '%SENNICHITE';
    case 'perpetual-check':
      return '%OUTE_SENNICHITE';
    case 'entering-king':
      return '%KACHI';
    case 'max-moves':
      return '%MAX_MOVES';
    case 'adjudication-draw':
    case 'stalemate':
    case 'insufficient-material':
    case 'fifty-moves':
    case 'threefold-repetition':
      return '%HIKIWAKE';
    case 'time-forfeit':
    case 'hang':
      return '%TIME_UP';
    case 'illegal-move':
    case 'illegal-declaration':
      return '%ILLEGAL_MOVE';
    case 'crash':
      return '%CHUDAN';
    case 'resign':
    case 'adjudication-resign':
      return '%TORYO';
  }
}

const MATE_CSA = 100_000;

/** A mover's score as sente's centipawns (shogi-server's `'**` convention). */
export function senteScore(score: Score, mover: Side): number {
  const own = 'cp' in score ? score.cp : score.mate > 0 ? MATE_CSA - score.mate : -MATE_CSA - score.mate;
  return mover === 'first' ? own : -own;
}

/**
 * The record as text, LF line ends. Throws when the record holds a move that is not legal: the game
 * runner checked every move, so that is a bug.
 */
export function formatCsaRecord(r: GameRecord, event = 'kishi match'): string {
  const start = new Date(r.startedAt);
  const tcFirst = formatTimeControl(r.timeControls.first);
  const tcSecond = formatTimeControl(r.timeControls.second);
  const sideAt = (ply: number): Side => ((ply + startTurn) % 2 === 0 ? 'first' : 'second');
  const startTurn = r.opening.start !== 'startpos' && r.opening.start.split(/\s+/)[1] === 'w' ? 1 : 0;
  const book = r.opening.moves.length;
  const text = writeCsa({
    version: '2.2',
    names: { sente: r.players.first, gote: r.players.second },
    info: [
      ['EVENT', event],
      ['START_TIME', csaTime(start)],
      ['END_TIME', csaTime(new Date(start.getTime() + r.durationMs))],
      ['OPENING', r.opening.source],
    ],
    comments: [`'round ${r.round}`, tcFirst === tcSecond ? `'time control ${tcFirst}` : `'time control sente ${tcFirst}, gote ${tcSecond}`],
    start: r.opening.start,
    moves: [
      ...r.opening.moves.map((usi) => ({ usi, time: 0, comments: ["'book"] })),
      ...r.moves.map((m, i) => {
        const details = [`${m.elapsedMs}ms`];
        if (m.depth !== undefined) details.push(`depth ${m.depth}`);
        if (m.nodes !== undefined) details.push(`nodes ${m.nodes}`);
        if (m.clockMs !== undefined) details.push(`clock ${(m.clockMs / 1000).toFixed(3)}s`);
        return {
          usi: m.move,
          time: Math.floor(m.elapsedMs / 1000),
          ...(m.score !== undefined ? { search: { senteScore: senteScore(m.score, sideAt(book + i)), pv: m.pv ?? [] } } : {}),
          comments: [`'* ${details.join(' ')}`],
        };
      }),
    ],
    end: csaEndMove(r.end.reason),
    endComments: [`'summary:${r.end.reason}:${r.end.winner === undefined ? 'draw' : `${r.players[r.end.winner]} win`}:${r.end.detail}`],
  });
  if (text.isErr) throw new KishiError(text.error.code, `game ${r.id}: ${text.error.message}`);
  return text.value;
}
