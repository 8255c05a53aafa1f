/**
 * Kishi's review of a finished game (`GameAnalysis`) against a scripted Player: a score for every
 * position that has a move (not the mated one), then MultiPV lines of a position on request, one
 * search at a time, and the Player given back on close.
 */
import { describe, expect, it } from 'vitest';
import type { PlayerLease } from '../../src/bot/dispatcher.js';
import type { Player } from '../../src/player/player.js';
import { GRAPH_NODES, GameAnalysis, LINES, LINES_NODES, replayForAnalysis } from '../../src/web/game-analysis.js';
import type { AnalysisEvent } from '../../src/web/game-analysis.js';
import { FirstLegalPlayer } from '../fakes/player.js';

function setup(moves: string[]) {
  const player = new FirstLegalPlayer({ score: (i) => ({ cp: 10 * (i + 1) }) });
  const events: AnalysisEvent[] = [];
  let released = 0;
  const lease: PlayerLease = { player: player as Player, release: async () => void released++ };
  const analysis = new GameAnalysis({ game: 'chess', moves, lease, emit: (e) => events.push(e) }, replayForAnalysis('chess', undefined, moves).unwrap());
  return { analysis, player, events, get released() { return released; } };
}

describe('the review of a finished game', () => {
  it('scores every position with a move, then gives the lines asked for, and the Player back', async () => {
    // Fool's mate: the last position has no move, so it is not searched.
    const t = setup(['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    expect(t.analysis.positions).toBe(5);
    const lines = t.analysis.lines(2); // asked while the graph runs: it follows the graph
    await t.analysis.graph();
    await lines;
    expect(t.events.map((e) => (e.t === 'graph' ? `graph ${e.ply}` : e.t === 'lines' ? `lines ${e.ply}` : `done ${e.plies}`))).toEqual([
      'graph 0',
      'graph 1',
      'graph 2',
      'graph 3',
      'done 4',
      'lines 2',
    ]);
    expect(t.player.requests.slice(0, 4).map((r) => [r.moves.length, r.limits?.nodes, r.multiPv])).toEqual([
      [0, GRAPH_NODES, undefined],
      [1, GRAPH_NODES, undefined],
      [2, GRAPH_NODES, undefined],
      [3, GRAPH_NODES, undefined],
    ]);
    expect(t.player.requests[4]).toMatchObject({ moves: ['f2f3', 'e7e5'], limits: { nodes: LINES_NODES }, multiPv: LINES });
    const answer = t.events.at(-1)!;
    expect(answer).toMatchObject({ t: 'lines', ply: 2, turn: 'first', lines: [{ multipv: 1, depth: 1 }] });
    expect(t.events[1]).toMatchObject({ t: 'graph', ply: 1, turn: 'second' });
    // The mated position has no lines.
    await t.analysis.lines(4);
    expect(t.events.at(-1)).toEqual({ t: 'lines', ply: 4, turn: 'first', lines: [] });
    await t.analysis.close();
    expect(t.released).toBe(1);
    await t.analysis.lines(1);
    expect(t.events.at(-1)).toEqual({ t: 'lines', ply: 4, turn: 'first', lines: [] }); // closed: nothing more
  });

  it('drops an older request for lines when a newer one comes', async () => {
    const t = setup(['e2e4', 'e7e5']);
    await t.analysis.graph();
    const first = t.analysis.lines(0);
    const second = t.analysis.lines(1);
    await Promise.all([first, second]);
    expect(t.events.filter((e) => e.t === 'lines').map((e) => (e.t === 'lines' ? e.ply : -1))).toEqual([1]);
    await t.analysis.close();
  });
});

describe('a pasted game for the review', () => {
  it('starts from its FEN, knows who moves, and refuses a start or a move that does not replay', async () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    const replayed = replayForAnalysis('chess', fen, ['f1c4', 'g8f6']).unwrap();
    expect(replayed).toEqual({ playable: [true, true, true], turns: ['first', 'second', 'first'] });
    const player = new FirstLegalPlayer();
    const events: AnalysisEvent[] = [];
    const a = new GameAnalysis({ game: 'chess', start: fen, moves: ['f1c4', 'g8f6'], lease: { player: player as Player, release: async () => {} }, emit: (e) => events.push(e) }, replayed);
    await a.graph();
    expect(player.requests[1]).toMatchObject({ variant: 'fromPosition', start: fen, moves: ['f1c4'] });
    expect(events.filter((e) => e.t === 'graph')).toHaveLength(3);
    await a.close();
    expect(replayForAnalysis('chess', 'not a fen', []).isErr).toBe(true);
    const bad = replayForAnalysis('shogi', undefined, ['7g7f', '7g7f']);
    expect(bad.isErr && bad.error.message).toBe('move 2 (7g7f) is not legal there');
  });
});

