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
 * `'summary:` comment. It reads back with shogiops' `parseCsaHeader`/`parseCsaMovesOrDrops`.
 */
import { makeCsaHeader } from 'shogiops/notation/csa';
import type { Side } from '../core/game.js';
import { parseShogiSfen } from '../games/shogi/sfen.js';
import { ShogiGame } from '../games/shogi/shogi-game.js';
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

const pad = (n: number): string => String(n).padStart(2, '0');
/** `YYYY/MM/DD hh:mm:ss` in UTC. */
const stamp = (d: Date): string =>
  `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The record as text, LF line ends. */
export function formatCsaRecord(r: GameRecord, event = 'kishi match'): string {
  const game = ShogiGame.fromSfen(r.opening.start).unwrap();
  const out: string[] = ['V2.2', `N+${r.players.first}`, `N-${r.players.second}`, `$EVENT:${event}`];
  const start = new Date(r.startedAt);
  out.push(`$START_TIME:${stamp(start)}`, `$END_TIME:${stamp(new Date(start.getTime() + r.durationMs))}`);
  out.push(`$OPENING:${r.opening.source}`);
  out.push(`'round ${r.round}`);
  const tcFirst = formatTimeControl(r.timeControls.first);
  const tcSecond = formatTimeControl(r.timeControls.second);
  out.push(tcFirst === tcSecond ? `'time control ${tcFirst}` : `'time control sente ${tcFirst}, gote ${tcSecond}`);
  if (r.opening.start === 'startpos') {
    out.push('PI', '+');
  } else {
    out.push(...makeCsaHeader(parseShogiSfen(r.opening.start).unwrap()).split('\n'));
  }

  for (const usi of r.opening.moves) {
    const md = game.parseMove(usi).unwrap();
    out.push(`${game.moveToCsa(md)},T0`, `'book`);
    game.play(md);
  }
  for (const m of r.moves) {
    const mover: Side = game.turn();
    const md = game.parseMove(m.move).unwrap();
    out.push(`${game.moveToCsa(md)},T${Math.floor(m.elapsedMs / 1000)}`);
    if (m.score !== undefined) {
      // The PV in CSA, as far as it is legal from the position before the move.
      const pvGame = game.clone() as ShogiGame;
      const pv: string[] = [];
      for (const usi of m.pv ?? []) {
        const p = pvGame.parseMove(usi);
        if (p.isErr) break;
        pv.push(pvGame.moveToCsa(p.value));
        pvGame.play(p.value);
      }
      out.push(`'** ${senteScore(m.score, mover)}${pv.length > 0 ? ` ${pv.join(' ')}` : ''}`);
    }
    const details = [`${m.elapsedMs}ms`];
    if (m.depth !== undefined) details.push(`depth ${m.depth}`);
    if (m.nodes !== undefined) details.push(`nodes ${m.nodes}`);
    if (m.clockMs !== undefined) details.push(`clock ${(m.clockMs / 1000).toFixed(3)}s`);
    out.push(`'* ${details.join(' ')}`);
    game.play(md);
  }
  out.push(csaEndMove(r.end.reason));
  const result = r.end.winner === undefined ? 'draw' : `${r.players[r.end.winner]} win`;
  out.push(`'summary:${r.end.reason}:${result}:${r.end.detail.replace(/\n/g, ' ')}`);
  return `${out.join('\n')}\n`;
}
