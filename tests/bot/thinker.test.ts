import { describe, expect, it } from 'vitest';
import type { DrawOrResignConfig } from '../../src/config/sections/draw-or-resign.js';
import type { ThinkerPosition } from '../../src/bot/thinker/position.js';
import { Thinker } from '../../src/bot/thinker/thinker.js';
import type { Decision, Turn } from '../../src/bot/thinker/thinker.js';
import { planMove } from '../../src/bot/thinker/time-plan.js';
import type { MoveTime } from '../../src/bot/thinker/time-plan.js';
import type { ClockState, GoRequest, SearchInfo } from '../../src/player/player.js';
import { FakePlayer, firstLegal, legalMovesOf } from '../fakes/player.js';

const policy: DrawOrResignConfig = {
  resignEnabled: true,
  resignScoreCp: -500,
  resignMoves: 3,
  offerDrawEnabled: true,
  offerDrawScoreCp: 10,
  offerDrawMoves: 2,
  offerDrawPieces: 32,
  acceptDraws: true,
  resignForEgtbMinusTwo: false,
  offerDrawForEgtbZero: false,
};

function harness(opts: { graceMs?: number; drawOrResign?: DrawOrResignConfig } = {}) {
  const lines: string[] = [];
  const log = {
    debug: (m: string) => lines.push(`debug ${m}`),
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
  };
  const thinker = new Thinker({ game: 'chess', log, graceMs: opts.graceMs ?? 20, ...(opts.drawOrResign ? { drawOrResign: opts.drawOrResign } : {}) });
  return { thinker, lines };
}

type Req = Pick<GoRequest, 'game' | 'variant' | 'start' | 'moves'>;
const req = (moves: readonly string[] = []): Req => ({ game: 'chess', variant: 'standard', start: 'startpos', moves });

function positionOf(request: Req, extra: Partial<ThinkerPosition> = {}): ThinkerPosition {
  const legal = legalMovesOf(request);
  return {
    legalMoves: () => legal,
    illegalReason: (m) => (legal.includes(m) ? undefined : `illegal move ${m}`),
    pieceCount: () => 32,
    ...extra,
  };
}

const clock = (ms: number): ClockState => ({ firstMs: ms, secondMs: ms, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 });
const time = (over: Partial<MoveTime> = {}): MoveTime => ({ side: 'first', plies: 0, overheadMs: 0, ...over });
const turn = (moves: readonly string[] = [], t: Partial<MoveTime> = {}): Turn => ({ request: req(moves), position: positionOf(req(moves)), time: time(t) });
const info = (pv: string[], cp = 0): SearchInfo => ({ depth: 3, score: { cp }, nodes: 100, nps: 0, timeMs: 0, pv });

describe('the time plan', () => {
  it('plans once from the clock: a budget for the Player within the guard, the guard within the deadline', () => {
    const plan = planMove('chess', time({ clock: clock(60_000), overheadMs: 100 }));
    expect(plan.stopMs).toBe(Math.round((60_000 - 100) * 0.8));
    expect(plan.budget!.softMs).toBeLessThanOrEqual(plan.budget!.hardMs);
    expect(plan.budget!.hardMs).toBeLessThanOrEqual(plan.stopMs!);
    const capped = planMove('chess', time({ clock: clock(60_000), deadlineMs: 700 }));
    expect(capped.stopMs).toBe(700);
    expect(capped.budget!.hardMs).toBeLessThanOrEqual(700);
    // A protocol deadline holds exactly, however short; a guard of our own gets at least 20 ms.
    expect(planMove('chess', time({ clock: clock(60_000), deadlineMs: 5 })).stopMs).toBe(5);
    expect(planMove('chess', time({ clock: clock(10), overheadMs: 0 })).stopMs).toBe(20);
  });

  it('fixed limits: no budget; a move time is guarded at half as long again and a second', () => {
    expect(planMove('chess', time({ limits: { movetimeMs: 2000 } }))).toEqual({ stopMs: 4000 });
    const nodes = planMove('chess', time({ clock: clock(10_000), limits: { nodes: 500 } }));
    expect(nodes.budget).toBeUndefined();
    expect(nodes.stopMs).toBe(8000);
    expect(planMove('chess', time({ limits: { nodes: 500 } }))).toEqual({});
  });
});

describe('Thinker', () => {
  it('thinks with one request carrying the clock and the plan, and plays the answer', async () => {
    const { thinker } = harness();
    const player = new FakePlayer();
    const d = await thinker.think(player, turn([], { clock: clock(60_000) }));
    expect(d).toMatchObject({ kind: 'move', move: 'a2a3', offerDraw: false });
    expect(player.requests).toHaveLength(1);
    expect(player.requests[0]!.clock).toEqual(clock(60_000));
    expect(player.requests[0]!.budget).toEqual(planMove('chess', time({ clock: clock(60_000) })).budget);
    expect(player.requests[0]!.limits).toBeUndefined();
  });

  it('stops a slow Player at the plan and plays its answer', async () => {
    const { thinker } = harness({ graceMs: 5000 });
    const player = new FakePlayer({ think: 'until-stop', answer: firstLegal({ script: ['e2e4'] }) });
    const d = await thinker.think(player, turn([], { deadlineMs: 30 }));
    expect(player.stops).toBe(1);
    expect(d).toMatchObject({ kind: 'move', move: 'e2e4' });
    expect((d as { fallback?: string }).fallback).toBeUndefined();
  });

  it('plays a fallback move when the Player overruns: the first PV move seen, if legal', async () => {
    const { thinker, lines } = harness({ graceMs: 10 });
    const player = new FakePlayer({ think: 'hang', answer: () => ({ move: 'g1f3', info: info(['g1f3', 'g8f6']) }) });
    const d = await thinker.think(player, turn([], { deadlineMs: 10 }));
    expect(d).toMatchObject({ kind: 'move', move: 'g1f3', fallback: 'overrun' });
    expect(player.stops).toBe(1);
    expect(lines.some((l) => l.startsWith('error the player did not answer within'))).toBe(true);
  });

  it('a failing Player hands back the fallback (the first legal move without a PV)', async () => {
    const { thinker } = harness();
    const d = await thinker.think(new FakePlayer({ fail: 'boom' }), turn());
    expect(d.kind).toBe('failed');
    const f = d as Extract<Decision, { kind: 'failed' }>;
    expect(f.error.message).toBe('boom');
    expect(f.fallback).toMatchObject({ kind: 'move', move: 'a2a3', fallback: 'failed' });
  });

  it('replaces an illegal answer and an impossible win declaration; a legal declaration is declared', async () => {
    const { thinker, lines } = harness();
    const illegal = await thinker.think(new FakePlayer({ answer: () => ({ move: 'e2e5' }) }), turn());
    expect(illegal).toMatchObject({ kind: 'move', move: 'a2a3', fallback: 'illegal' });
    const win = await thinker.think(new FakePlayer({ answer: () => ({ move: 'win' }) }), turn());
    expect(win).toMatchObject({ kind: 'move', fallback: 'illegal' });
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([
      'error the player chose e2e5: illegal move e2e5; playing a fallback move',
      'error the player declared a win, but the declaration is not legal here: playing a fallback move',
    ]);
    const declarable: Turn = { ...turn(), position: positionOf(req(), { canDeclareWin: () => true }) };
    expect((await thinker.think(new FakePlayer({ answer: () => ({ move: 'win' }) }), declarable)).kind).toBe('declare');
  });

  it('resigns without asking the Player when there is no legal move', async () => {
    const { thinker } = harness();
    const player = new FakePlayer();
    const mated = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
    expect(await thinker.think(player, turn(mated))).toEqual({ kind: 'resign', why: 'no legal move' });
    expect(player.requests).toEqual([]);
  });

  it('ponder hit: the ponder search goes on as ours, no second search', async () => {
    const { thinker } = harness();
    const player = new FakePlayer({ answer: firstLegal({ script: ['g1f3'] }) });
    thinker.ponder(player, { request: req(['e2e4', 'e7e5']), time: time({ clock: clock(60_000) }) });
    expect(thinker.current()).toEqual({ moves: ['e2e4', 'e7e5'], pondering: true });
    await Promise.resolve();
    const d = await thinker.think(player, turn(['e2e4', 'e7e5'], { clock: clock(60_000), plies: 2 }));
    expect(d).toMatchObject({ kind: 'move', move: 'g1f3' });
    expect([player.requests.length, player.ponderhits, player.ponderStops]).toEqual([1, 1, 0]);
    expect(player.requests[0]!.ponder).toBe(true);
  });

  it('ponder miss: the ponder search is stopped, and the new one starts only after it settled', async () => {
    const { thinker } = harness();
    const player = new FakePlayer();
    thinker.ponder(player, { request: req(['e2e4', 'e7e5']), time: time() });
    await new Promise((r) => setTimeout(r, 0));
    const d = await thinker.think(player, turn(['e2e4', 'c7c5'], { plies: 2 }));
    expect(d.kind).toBe('move');
    expect([player.requests.length, player.ponderhits, player.ponderStops]).toEqual([2, 0, 1]);
    expect(player.requests[1]!.moves).toEqual(['e2e4', 'c7c5']);
  });

  it('cancel: the search is stopped and its think resolves cancelled', async () => {
    const { thinker } = harness();
    const player = new FakePlayer({ think: 'until-stop' });
    const pending = thinker.think(player, turn());
    thinker.cancel();
    expect(await pending).toEqual({ kind: 'cancelled' });
    expect(thinker.current()).toBeUndefined();
  });

  it('resigns after resignMoves low scores, offers draws after level ones, and a takeback forgets scores', async () => {
    const { thinker } = harness({ drawOrResign: policy });
    const pos = positionOf(req());
    const scored = (cp: number) => ({ move: 'a2a3', info: info(['a2a3'], cp) });
    expect(thinker.decide(0, pos, scored(-600)).kind).toBe('move');
    expect(thinker.decide(2, pos, scored(-600)).kind).toBe('move');
    expect(thinker.decide(4, pos, scored(-600))).toMatchObject({ kind: 'resign', why: 'scores -600, -600, -600' });
    thinker.takeback(4);
    expect(thinker.scoreHistory()).toEqual([-600, -600]);
    expect(thinker.decide(4, pos, scored(5))).toMatchObject({ kind: 'move', offerDraw: false });
    expect(thinker.acceptsDraw(32)).toBe(false);
    expect(thinker.decide(6, pos, scored(-5))).toMatchObject({ kind: 'move', offerDraw: true });
    expect([thinker.acceptsDraw(32), thinker.acceptsDraw(33)]).toEqual([true, false]);
    // Without a policy (the CSA client) scores never resign.
    const plain = harness().thinker;
    for (const ply of [0, 2, 4, 6]) expect(plain.decide(ply, pos, scored(-9000)).kind).toBe('move');
  });
});
