/**
 * Plays one match game between two {@link MatchEngine}s on the match's own clocks.
 *
 * 1. Both engines get a new game; one that does not answer loses (`crash`).
 * 2. The opening's book moves are played on the adapter (engines get them in `position`).
 * 3. Each turn: the rules first (`GameState.outcome()`), then the side to move searches with a
 *    deadline of its clock allowance (remaining + byoyomi + margin), or of `hangTimeoutMs` when
 *    only nodes/depth limit it. The reply is checked in this order: crash, no reply (hang or loss
 *    on time), late reply (loss on time), `resign`, `win` (USI declaration, checked with the
 *    entering-king rule), illegal move. A legal move is played, charged to the clock and
 *    adjudicated.
 * 4. USI engines hear `gameover`. A forfeit keeps the offender's last output in the record.
 */
import { performance } from 'node:perf_hooks';
import type { GameKind, GameState, Side } from '../core/game.js';
import { SIDES, otherSide } from '../core/game.js';
import type { EngineGoRequest, EngineReply, MatchEngine } from '../engines/match-engine.js';
import type { AdjudicationRules } from './adjudication.js';
import { Adjudicator } from './adjudication.js';
import type { MatchVariant } from '../games/game-factory.js';
import { createGame } from '../games/game-factory.js';
import type { EndReason, ForfeitLog, GameEnd, GameRecord, MoveRecord } from './game-record.js';
import type { Opening } from '../books/openings.js';
import type { TimeControl } from './time-control.js';
import { SideClock, clockState, hasClock } from './time-control.js';

export interface GameSetup {
  readonly id: number;
  readonly pair: number;
  readonly round: string;
  readonly game: GameKind;
  readonly variant: MatchVariant;
  readonly opening: Opening;
  readonly engines: Readonly<Record<Side, MatchEngine>>;
  readonly timeControls: Readonly<Record<Side, TimeControl>>;
  readonly adjudication: AdjudicationRules;
  /** The deadline for a move when no clock or movetime limits it, ms. */
  readonly hangTimeoutMs: number;
  /** Called after every engine move (progress, live views). */
  readonly onMove?: (move: MoveRecord, side: Side) => void;
}

const PV_KEEP = 8;

interface DeclaringGame {
  canDeclareWin(): boolean;
}
const canDeclare = (g: GameState<unknown>): boolean =>
  typeof (g as Partial<DeclaringGame>).canDeclareWin === 'function' && (g as unknown as DeclaringGame).canDeclareWin();

export async function playGame(setup: GameSetup): Promise<GameRecord> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const players = { first: setup.engines.first.name, second: setup.engines.second.name };
  const moves: MoveRecord[] = [];
  const gameResult = createGame(setup.game, setup.variant, setup.opening.start);
  if (gameResult.isErr) throw gameResult.error; // openings are checked when loaded: a bug here
  const game = gameResult.value;
  const history: string[] = [];
  for (const text of setup.opening.moves) {
    const m = game.parseMove(text);
    if (m.isErr) throw m.error;
    history.push(game.moveToText(m.value));
    game.play(m.value);
  }

  let forfeit: ForfeitLog | undefined;
  const finish = (end: GameEnd): GameRecord => {
    for (const side of SIDES) {
      setup.engines[side].gameOver(end.winner === undefined ? 'draw' : end.winner === side ? 'win' : 'lose');
    }
    return {
      id: setup.id,
      pair: setup.pair,
      round: setup.round,
      game: setup.game,
      variant: setup.variant,
      opening: setup.opening,
      players,
      timeControls: setup.timeControls,
      moves,
      end,
      startedAt,
      durationMs: performance.now() - t0,
      finalPosition: game.toText(),
      ...(forfeit !== undefined ? { forfeit } : {}),
    };
  };
  const lose = (side: Side, reason: EndReason, detail: string): GameRecord => {
    forfeit = { side, engine: players[side], lines: setup.engines[side].lastLines() };
    return finish({ winner: otherSide(side), reason, detail: `${players[side]} ${detail}` });
  };

  // Step 1.
  for (const side of SIDES) {
    const ready = await setup.engines[side].newGame();
    if (ready.isErr) return lose(side, 'crash', `did not start the game: ${ready.error.message}`);
  }

  const clocks: Record<Side, SideClock> = { first: new SideClock(setup.timeControls.first), second: new SideClock(setup.timeControls.second) };
  const adjudicator = new Adjudicator(setup.adjudication);
  const bookPlies = setup.opening.moves.length;

  for (;;) {
    // Step 3: the rules.
    const outcome = game.outcome();
    if (outcome !== undefined) {
      const who = outcome.winner === undefined ? 'draw' : `${players[outcome.winner]} wins`;
      return finish({ winner: outcome.winner, reason: outcome.reason, detail: `${who} by ${outcome.reason}` });
    }
    const side = game.turn();
    const engine = setup.engines[side];
    const clock = clocks[side];
    const tc = clock.tc;
    const allowance = clock.deadlineMs();
    const cs = clockState(clocks, side);
    const request: EngineGoRequest = {
      start: setup.opening.start,
      moves: history.slice(),
      toMove: side,
      ...(cs !== undefined ? { clock: cs } : {}),
      ...(tc.movetimeMs !== undefined ? { movetimeMs: tc.movetimeMs } : {}),
      ...(tc.nodes !== undefined ? { nodes: tc.nodes } : {}),
      ...(tc.depth !== undefined ? { depth: tc.depth } : {}),
      deadlineMs: allowance ?? setup.hangTimeoutMs,
    };
    const reply: EngineReply = await engine.go(request);

    if (reply.kind === 'crash') return lose(side, 'crash', `crashed: ${reply.detail}`);
    if (reply.kind === 'timeout') {
      if (!reply.responsive) return lose(side, 'hang', `did not move within ${Math.round(request.deadlineMs!)} ms nor answer stop: killed`);
      if (allowance === undefined) return lose(side, 'hang', `did not move within the hang timeout of ${setup.hangTimeoutMs} ms`);
      return lose(side, 'time-forfeit', `loses on time (no move after ${Math.round(reply.elapsedMs)} ms, allowed ${Math.round(allowance)} ms)`);
    }
    const charged = clock.charge(reply.elapsedMs);
    if (!charged.ok) {
      const took = clock.chargedMs(reply.elapsedMs);
      return lose(side, 'time-forfeit', `loses on time (${Math.round(took)} ms${took !== reply.elapsedMs ? ' charged' : ''} > ${Math.round(charged.allowedMs)} ms)`);
    }

    if (reply.move === 'resign') return finish({ winner: otherSide(side), reason: 'resign', detail: `${players[side]} resigns` });
    if (reply.move === 'win') {
      if (setup.game === 'shogi' && canDeclare(game)) {
        return finish({ winner: side, reason: 'entering-king', detail: `${players[side]} wins by declaration (entering king)` });
      }
      return lose(side, 'illegal-declaration', `declared a win (entering king) that the rule does not allow in ${game.toText()}`);
    }
    const parsed = game.parseMove(reply.move);
    if (parsed.isErr) return lose(side, 'illegal-move', `played an illegal move ${JSON.stringify(reply.move)} in ${game.toText()}`);
    const text = game.moveToText(parsed.value);
    game.play(parsed.value);
    history.push(text);

    const info = reply.info;
    const record: MoveRecord = {
      move: text,
      elapsedMs: Math.round(reply.elapsedMs),
      ...(hasClock(tc) ? { clockMs: Math.round(clock.remainingMs()) } : {}),
      ...(info !== undefined ? { score: info.score, depth: info.depth, nodes: info.nodes, pv: info.pv.slice(0, PV_KEEP) } : {}),
    };
    moves.push(record);
    setup.onMove?.(record, side);

    // Adjudication (after the rules had their say on the new position).
    if (game.outcome() !== undefined) continue;
    const plies = bookPlies + moves.length;
    const verdict = adjudicator.afterMove(side, info?.score, plies, Math.floor((plies - 1) / 2) + 1);
    if (verdict !== undefined) {
      if (verdict.kind === 'resign') {
        return finish({ winner: otherSide(verdict.loser), reason: 'adjudication-resign', detail: `${players[verdict.loser]} loses by adjudication (scores agree)` });
      }
      if (verdict.kind === 'draw') return finish({ winner: undefined, reason: 'adjudication-draw', detail: 'draw by adjudication (scores near 0)' });
      return finish({ winner: undefined, reason: 'max-moves', detail: `draw: move limit (${setup.adjudication.maxMoves} moves) reached` });
    }
  }
}
