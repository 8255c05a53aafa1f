import { describe, expect, it } from 'vitest';
import type { GameLogHeader } from '../../../src/records/game-log.js';
import { parseGameLogText } from '../../../src/records/game-log-reader.js';
import { lostToNetwork, parseDateOption, skipReason, speedOf, timeControlLabel } from '../../../src/learning/tdleaf/game-filter.js';
import { TOY_GAME, linesText, scriptLines } from './helpers.js';

const h = (clock: GameLogHeader['clock'], extra: Partial<GameLogHeader> = {}): GameLogHeader =>
  ({ ...(scriptLines(TOY_GAME)[0] as GameLogHeader), ...(clock ? { clock } : {}), ...extra });

describe('game filter', () => {
  it('labels time controls and speeds', () => {
    expect(timeControlLabel(h({ initialMs: 180000, incrementMs: 2000 }))).toBe('180+2');
    expect(timeControlLabel(h({ initialMs: 600000, incrementMs: 0, byoyomiMs: 10000 }))).toBe('600+10b');
    expect(timeControlLabel(h({ initialMs: 15000, incrementMs: 100 }))).toBe('15+0.1');
    expect(timeControlLabel(h(undefined, { daysPerTurn: 3 }))).toBe('3d');
    expect(timeControlLabel(h(undefined))).toBe('unlimited');
    expect(speedOf(h({ initialMs: 180000, incrementMs: 2000 }))).toBe('blitz');
    expect(speedOf(h({ initialMs: 600000, incrementMs: 0, byoyomiMs: 10000 }))).toBe('rapid');
    expect(speedOf(h({ initialMs: 60000, incrementMs: 0 }, { speed: 'bullet' }))).toBe('bullet');
  });

  it('tells losses on time to the network from our own flags', () => {
    const flag = (clockMs: number | undefined, lastOurs = false, status = 'outoftime', winner: 'first' | 'second' = 'second') => {
      const moves = lastOurs ? TOY_GAME.moves : [...TOY_GAME.moves, { move: 'c6b5', ...(clockMs !== undefined ? { clockMs: { first: clockMs, second: 1 } } : {}) }];
      return parseGameLogText(linesText(scriptLines({ ...TOY_GAME, moves, winner, status })), 'x.jsonl').log!;
    };
    expect(lostToNetwork(flag(30000), 2000)).toBe(true);
    expect(lostToNetwork(flag(1500), 2000)).toBe(false);
    expect(lostToNetwork(flag(undefined), 2000)).toBe(true);
    expect(lostToNetwork(flag(100, true), 2000)).toBe(true);
    expect(lostToNetwork(flag(30000, false, 'time_up'), 2000)).toBe(true);
    expect(lostToNetwork(flag(30000, false, 'outoftime', 'first'), 2000)).toBe(false);
    expect(lostToNetwork(flag(30000, false, 'resign'), 2000)).toBe(false);
    expect(skipReason(flag(30000), { game: 'chess', networkTimeLossMs: 2000 })).toBe('network-time-loss');
    expect(skipReason(flag(30000), { game: 'shogi', networkTimeLossMs: 2000 })).toBe('other-game');
  });

  it('reads date options', () => {
    expect(parseDateOption('2026-01-02', false)?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(parseDateOption('2026-01-02', true)?.toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(parseDateOption('2026-01-02T05:00:00Z', true)?.toISOString()).toBe('2026-01-02T05:00:00.000Z');
    expect(parseDateOption('soon', false)).toBeUndefined();
  });
});
