/**
 * Shogi's game-ending rules inside the alpha-beta tree (ShogiSearchBoard.ruleState): sennichite is a
 * draw, perpetual check loses for the checker, and a side to move that may declare by the entering-king
 * rule (CSA 27 points) has won. Each search is set up so that the wrong rule picks a different move or
 * score: a side down material takes a plain repetition (0) but not a perpetual check, and the
 * declaration shows as a win two plies away.
 */
import { describe, expect, it } from 'vitest';
import { RULE_DRAW, RULE_LOSS, RULE_NONE, RULE_WIN } from '../../../src/search/alphabeta/search-board.js';
import { MATE_BOUND, matePlies } from '../../../src/search/alphabeta/score.js';
import { searcher, shogiBoard } from './helpers.js';

/** Sente: rook and king; gote: king, two golds and two silvers (sente is lost on material, not mated soon). */
const DOWN = '4k4/9/gg1ss4/9/9/9/9/9/4K3R b - 1';

describe('sennichite and perpetual check in the search', () => {
  it('scores the repetition by the rule at the repeated node', () => {
    const plain = shogiBoard(DOWN, ['5i4i', '9c9d', '4i5i', '9d9c', '5i4i']);
    expect(plain.ruleState()).toBe(RULE_DRAW);
    const checked = shogiBoard(DOWN, ['1i1a', '5a5b', '1a1b', '5b5a', '1b1a']);
    // Gote to move, sente checked with every move of the cycle: gote wins, sente (the checker) loses.
    expect(checked.ruleState()).toBe(RULE_WIN);
    expect(shogiBoard(DOWN, ['1i1a', '5a5b', '1a1b', '5b5a', '1b1a', '5a5b']).ruleState()).toBe(RULE_LOSS);
    expect(shogiBoard(DOWN, ['1i1a', '5a5b', '1a1b']).ruleState()).toBe(RULE_NONE);
  });

  it('takes a plain repetition when it is down material', () => {
    const b = shogiBoard(DOWN, ['5i4i', '9c9d', '4i5i', '9d9c']);
    const r = searcher().search(b, { nodes: 50_000 });
    expect(b.moveToText(r.bestMove)).toBe('5i4i');
    expect(r.score).toBe(0);
  });

  it('never repeats by perpetual check, even down material', () => {
    const b = shogiBoard(DOWN, ['1i1a', '5a5b', '1a1b', '5b5a']);
    const r = searcher().search(b, { nodes: 50_000 });
    expect(b.moveToText(r.bestMove)).not.toBe('1b1a');
    // Worse than the draw a plain repetition would give, and no mate: the checker's repetition was
    // scored a loss, not a draw (a draw would have been the best move).
    expect(r.score).toBeLessThan(-300);
    expect(r.score).toBeGreaterThan(-MATE_BOUND);
  });
});

describe('the entering-king declaration in the search', () => {
  /** Sente: 18 pieces in the zone and a gold in hand, 27 points; the pawn on 9d stepping in makes 28. */
  const ALMOST = '+L+N+SG1G+S+N+L/1R2K2B1/1PPPPPPPP/P8/9/9/9/9/4k4 b G 1';

  it('is a win for the side to move at a node where it may declare', () => {
    expect(shogiBoard(ALMOST).ruleState()).toBe(RULE_NONE);
    expect(shogiBoard(ALMOST, ['9d9c', '5i5h']).ruleState()).toBe(RULE_WIN);
    // Gote to move cannot declare for sente.
    expect(shogiBoard(ALMOST, ['9d9c']).ruleState()).toBe(RULE_NONE);
  });

  it('plays into a declaration two plies away and scores it as a win', () => {
    const b = shogiBoard(ALMOST);
    const r = searcher().search(b, { nodes: 50_000 });
    expect(['9d9c', '9d9c+']).toContain(b.moveToText(r.bestMove));
    expect(matePlies(r.score)).toBe(2);
  });
});
