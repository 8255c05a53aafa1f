/**
 * Games that start from a position with moves (floodgate buoy games, `%%FORK`): the Position block's
 * moves carry the times they took, but shogi-server sets both clocks to Total_Time when it sends START
 * (`Game#start` in its game.rb). The client must count from the full clock, as the server does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planBudget } from '../../../src/protocols/csa/clock.js';
import { CsaGame } from '../../../src/protocols/csa/csa-game.js';
import { parseGameSummary } from '../../../src/protocols/csa/summary.js';
import { CsaTestServer } from '../../fakes/csa-server/server.js';
import { STANDARD_ROWS } from '../../fakes/csa-server/rules.js';
import { RandomMover } from '../../fakes/player.js';
import { startInOrder, testBot } from './harness.js';

/**
 * A buoy game's summary in shogi-server's words (`Game#propose_message`: the moves of the buoy with the
 * times of the game they were forked from).
 */
function buoySummary(yourTurn: '+' | '-', time: string[], moves: string[]): string[] {
  return [
    'BEGIN Game_Summary',
    'Protocol_Version:1.2',
    'Protocol_Mode:Server',
    'Format:Shogi 1.0',
    'Declaration:Jishogi 1.1',
    'Game_ID:wdoor+buoy_test-300-10F+alice+bob+20261126140000',
    'Name+:alice',
    'Name-:bob',
    `Your_Turn:${yourTurn}`,
    'Rematch_On_Draw:NO',
    `To_Move:${moves.length % 2 === 0 ? '+' : '-'}`,
    'Max_Moves:256',
    'BEGIN Time',
    'Time_Unit:1sec',
    ...time,
    'Least_Time_Per_Move:0',
    'END Time',
    'BEGIN Position',
    ...STANDARD_ROWS,
    '+',
    ...moves,
    'END Position',
    'END Game_Summary',
  ];
}

const FISCHER = ['Total_Time:300', 'Byoyomi:0', 'Increment:10'];
const BYOYOMI = ['Total_Time:600', 'Byoyomi:10', 'Increment:0'];
// Three moves that took 120, 200 and 150 s in the game the buoy came from.
const MOVES = ['+7776FU,T120', '-3334FU,T200', '+2726FU,T150'];

describe('buoy games: the clocks start afresh at START', () => {
  const cases: [string, string[], '+' | '-', number][] = [
    ['Fischer, we are black', FISCHER, '+', 300],
    ['Fischer, we are white (to move)', FISCHER, '-', 300],
    ['byoyomi, we are black', BYOYOMI, '+', 600],
    ['byoyomi, we are white (to move)', BYOYOMI, '-', 600],
  ];
  for (const [name, time, us, total] of cases) {
    it(name, () => {
      const s = parseGameSummary(buoySummary(us, time, MOVES)).unwrap();
      const game = CsaGame.fromSummary(s).unwrap();
      // Both clocks full, whatever the buoy's moves took.
      expect([game.clock.remaining('+'), game.clock.remaining('-')]).toEqual([total, total]);
      expect(game.plies()).toBe(3);
      expect(game.turn()).toBe('-');
      // The moves keep their times in the record and the game log.
      expect(game.recordMoves.map((m) => m.time)).toEqual([120, 200, 150]);
      expect(game.logMoves.map((m) => m.timeMs)).toEqual([120_000, 200_000, 150_000]);
      expect(game.logMoves.map((m) => m.clockMs)).toEqual(MOVES.map(() => ({ first: total * 1000, second: total * 1000 })));
      // White's budget starts from its full clock.
      const b = planBudget(game.clock, '-', 1000, 0);
      const rule = s.time.white;
      expect(b.hardMs).toBe((total + rule.byoyomi + rule.increment) * 1000 - 1000);
      // The first move after START is charged from the full clock, as the server does.
      game.applyEcho('-8384FU', 7);
      expect(game.clock.remaining('-')).toBe(total - 7 + rule.increment);
      expect(game.clock.remaining('+')).toBe(total);
    });
  }
});

describe('buoy games against the local CSA server', () => {
  let server: CsaTestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  // 20 units of 50 ms; the buoy's moves took 18 units each. Each side then thinks 10 units (500 ms):
  // on time only when the clocks were reset at START (2 units left plus 1 of byoyomi or increment
  // otherwise).
  const cases: [string, string, number][] = [
    ['byoyomi, black to move', 'csatest-20-1', 2],
    ['Fischer, white to move', 'csatest-20-1F', 3],
  ];
  for (const [name, gameName, setupMoves] of cases) {
    it(name, async () => {
      server = new CsaTestServer({ unitMs: 50, maxMoves: setupMoves + 2, offTurnDelayMs: 20, closeAfterGameMs: 100, colours: 'first-black' });
      const port = await server.start();
      const setup = [
        { csa: '+7776FU', t: 18 },
        { csa: '-3334FU', t: 18 },
        { csa: '+2726FU', t: 18 },
      ].slice(0, setupMoves);
      server.nextSetup = {
        positionLines: [
          ...STANDARD_ROWS,
          '+',
        ],
        moves: setup,
      };
      const pa = new RandomMover(1, 500);
      const pb = new RandomMover(2, 500);
      const a = testBot(port, 'alice', async () => pa, { gameName });
      const b = testBot(port, 'bob', async () => pb, { gameName });
      await startInOrder(server, { bot: a.bot, user: 'alice' }, { bot: b.bot, user: 'bob' });
      const g = server.finished[0]!;
      expect([g.reason, g.moves.length]).toEqual(['MAX_MOVES', setupMoves + 2]);
      expect(g.moves.slice(setupMoves).every((m) => m.t >= 10)).toBe(true);
      // Each Player was given its full clock (less the 100 ms safety margin) for its first move.
      const first = setupMoves % 2 === 0 ? pa : pb;
      const req = first.requests[0]!;
      const clock = req.clock!; // a CSA game always has a clock
      const mine = setupMoves % 2 === 0 ? clock.firstMs : clock.secondMs;
      // Room for the time between the turn's start and the request on a busy machine (50 ms was missed by 2);
      // a clock charged with the buoy's moves (18 units each) would be 100 ms or less.
      expect(mine).toBeGreaterThanOrEqual(20 * 50 - 100 - 400);
      // The record keeps the buoy's times.
      const record = readFileSync(join(a.dir, 'csa', `${g.id}.csa`), 'utf8').split('\n');
      expect(record.filter((l) => l === 'T18')).toHaveLength(setupMoves);
      expect(a.log.notable().filter((l) => l.startsWith('error'))).toEqual([]);
    });
  }
});
