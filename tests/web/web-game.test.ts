/**
 * One game on the page (`WebGame`) against a scripted Player: Kishi's answers, the bot's draw and
 * resignation policy, takeback while Kishi thinks, an illegal engine answer, the game log, and a
 * game refused once over. Transport-free: events are collected from `emit`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlayerLease } from '../../src/bot/dispatcher.js';
import { parseConfig } from '../../src/config/load.js';
import type { DrawOrResignConfig } from '../../src/config/sections/draw-or-resign.js';
import type { Player } from '../../src/player/player.js';
import { GameLogWriter } from '../../src/records/game-log.js';
import { WebGame } from '../../src/web/web-game.js';
import type { GameSnapshot, WebEvent } from '../../src/web/web-game.js';
import { FakePlayer, FirstLegalPlayer } from '../fakes/player.js';
import type { FirstLegalPlayerOptions } from '../fakes/player.js';

const POLICY = parseConfig('').unwrap().lichess.drawOrResign;

function setup(opts: FirstLegalPlayerOptions, policy: Partial<DrawOrResignConfig> = {}, log = false) {
  const player = new FirstLegalPlayer(opts);
  const events: WebEvent[] = [];
  const recorded: string[] = [];
  let released = 0;
  const lease: PlayerLease = { player: player as Player, release: async () => void released++, gameRecorded: (f) => void recorded.push(f) };
  const file = join(mkdtempSync(join(tmpdir(), 'kishi-webgame-')), 'g.jsonl');
  const writer = log
    ? GameLogWriter.open(file, { type: 'header', version: 1, game: 'chess', variant: 'standard', server: 'web', gameId: 'g', start: 'startpos', ourSide: 'second', players: { first: { name: 'Ann' }, second: { name: 'Kishi' } }, startedAt: 'x' })
    : undefined;
  let ended = 0;
  const game = new WebGame({
    id: 'g',
    game: 'chess',
    humanSide: 'first',
    humanName: 'Ann',
    control: { initialMs: 60_000, incrementMs: 0, byoyomiMs: 0 },
    limits: { nodes: 100 },
    lease,
    policy: { ...POLICY, ...policy },
    maxTakebacks: 1,
    ...(writer ? { log: writer } : {}),
    emit: (e) => events.push(e),
    onEnd: () => void ended++,
  });
  const states = (): GameSnapshot[] => events.flatMap((e) => (e.t === 'state' ? [e.state] : []));
  const notices = (): string[] => events.flatMap((e) => (e.t === 'notice' ? [e.text] : []));
  const until = async (test: () => boolean): Promise<void> => {
    const end = Date.now() + 5_000;
    while (!test()) {
      if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(events.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { game, player, states, notices, until, file, recorded, get released() { return released; }, get ended() { return ended; } };
}

describe('a game on the page', () => {
  it('plays Kishi\'s answer after the person\'s move, with the clock and the strength limits', async () => {
    const t = setup({ script: ['e7e5'] });
    t.game.start();
    expect(t.game.humanMove(0, 'e2e4').isOk).toBe(true);
    await t.until(() => t.game.snapshot().moves.length === 2);
    expect(t.game.snapshot().moves).toEqual(['e2e4', 'e7e5']);
    const req = t.player.requests[0]!;
    expect(req.moves).toEqual(['e2e4']);
    expect(req.limits?.nodes).toBe(100);
    expect(req.limits?.movetimeMs).toBeGreaterThan(0);
    expect(req.clock?.firstMs).toBeLessThanOrEqual(60_000);
    const illegal = t.game.humanMove(2, 'e1e3');
    expect(illegal.isErr && illegal.error.code).toBe('ERR_ILLEGAL_MOVE');
    expect(t.game.snapshot().moves).toHaveLength(2);
  });

  it('accepts a draw only when the policy holds, and resigns by it', async () => {
    const flat = setup({ score: () => ({ cp: 0 }) }, { offerDrawEnabled: true, offerDrawMoves: 1, offerDrawScoreCp: 10, offerDrawPieces: 32, acceptDraws: true });
    flat.game.start();
    expect(flat.game.offerDraw().unwrap()).toBe(false); // no score yet
    expect(flat.notices()).toEqual(['Kishi declines the draw offer']);
    flat.game.humanMove(0, 'e2e4');
    await flat.until(() => flat.game.snapshot().moves.length === 2);
    expect(flat.game.offerDraw().unwrap()).toBe(true);
    expect(flat.game.snapshot().result).toEqual({ winner: undefined, reason: 'draw-agreed' });
    expect(flat.ended).toBe(1);

    const lost = setup({ score: () => ({ cp: -900 }) }, { resignEnabled: true, resignMoves: 1, resignScoreCp: -500 });
    lost.game.start();
    lost.game.humanMove(0, 'e2e4');
    await lost.until(() => lost.game.over());
    expect(lost.game.snapshot().result).toEqual({ winner: 'first', reason: 'resign' });
    expect(lost.game.snapshot().moves).toEqual(['e2e4']);
  });

  it('offers a draw with its move when the policy\'s draw condition holds; the person accepts or plays on', async () => {
    const policy = { offerDrawEnabled: true, offerDrawMoves: 1, offerDrawScoreCp: 10, offerDrawPieces: 32, acceptDraws: false };
    const t = setup({ score: () => ({ cp: 0 }) }, policy);
    t.game.start();
    t.game.humanMove(0, 'e2e4');
    await t.until(() => t.game.snapshot().moves.length === 2);
    expect(t.game.snapshot().drawOffered).toBe(true);
    expect(t.notices()).toEqual(['Kishi offers a draw']);
    // Playing on declines it; Kishi offers again with its next move.
    t.game.humanMove(2, 'd2d4');
    expect(t.game.snapshot().drawOffered).toBe(false);
    await t.until(() => t.game.snapshot().moves.length === 4);
    expect(t.game.offerDraw().unwrap()).toBe(true);
    expect(t.game.snapshot().result).toEqual({ winner: undefined, reason: 'draw-agreed' });
    // Without the condition (a winning score), no offer.
    const winning = setup({ score: () => ({ cp: 300 }) }, policy);
    winning.game.start();
    winning.game.humanMove(0, 'e2e4');
    await winning.until(() => winning.game.snapshot().moves.length === 2);
    expect(winning.game.snapshot().drawOffered).toBe(false);
    expect(winning.game.offerDraw().unwrap()).toBe(false);
  });

  it('takes back while Kishi thinks, ignores the stopped search, and counts takebacks', async () => {
    const t = setup({ thinkMs: 10_000 });
    t.game.start();
    t.game.humanMove(0, 'e2e4');
    await t.until(() => t.player.requests.length === 1);
    expect((await t.game.takeback()).isOk).toBe(true);
    expect(t.game.snapshot().moves).toEqual([]);
    expect(t.game.snapshot().turn).toBe('first');
    expect(t.notices()).toEqual(['took back 1 move']);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.game.snapshot().moves).toEqual([]); // the stopped search's move was not played
    t.game.humanMove(0, 'd2d4');
    await t.until(() => t.player.requests.length === 2);
    const no = await t.game.takeback();
    expect(no.isErr && no.error.message).toBe('no takebacks left in this game');
    expect(t.game.resign().isOk).toBe(true);
  });

  it('plays the Thinker\'s fallback move when the engine answers an illegal one, and logs the game', async () => {
    const t = setup({ script: ['e7e5'] }, {}, true);
    // The test double plays its script only when legal; force an illegal answer through `go`.
    const go = t.player.go.bind(t.player);
    t.player.go = async (req, onInfo) => ({ ...(await go(req, onInfo)), move: 'a1a8' });
    t.game.start();
    t.game.humanMove(0, 'e2e4');
    await t.until(() => t.game.snapshot().moves.length === 2);
    // The fallback: the first move of the search's PV when legal (the script's e7e5), else the first legal move.
    expect(t.game.snapshot().moves).toEqual(['e2e4', 'e7e5']);
    expect(t.notices()).toEqual(['Kishi answered an illegal move; it plays e7e5 instead']);
    t.game.resign();
    const log = readFileSync(t.file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(log.map((l) => l.type)).toEqual(['header', 'move', 'move', 'result']);
    // The search behind the illegal answer is not the fallback move's: it is not logged with it.
    expect(log[2]).toMatchObject({ ply: 1, ours: true, move: 'e7e5' });
    expect(log[2].search).toBeUndefined();
    expect(log[3]).toMatchObject({ winner: 'second', status: 'resign', plies: 2 });
    expect(t.recorded).toEqual([t.file]);
    expect(t.game.resign().isErr).toBe(true);
  });

  it('plays the Thinker\'s fallback move when the engine does not answer before its flag', async () => {
    // A hung engine (it ignores stop) with one second on its clock: the Thinker stops it 300 ms before
    // the flag and, after its grace, plays the first legal move instead of letting the game hang.
    const player = new FakePlayer({ games: ['chess'], think: 'hang' });
    const notices: string[] = [];
    const game = new WebGame({
      id: 'h',
      game: 'chess',
      humanSide: 'first',
      humanName: 'Ann',
      control: { initialMs: 1_000, incrementMs: 0, byoyomiMs: 0 },
      limits: {},
      lease: { player: player as Player, release: async () => {} },
      policy: POLICY,
      maxTakebacks: 0,
      emit: (e) => void (e.t === 'notice' && notices.push(e.text)),
    });
    game.start();
    game.humanMove(0, 'e2e4');
    const until = Date.now() + 10_000;
    while (game.snapshot().moves.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(game.snapshot().moves).toHaveLength(2);
    expect(game.over()).toBe(false);
    expect(player.stops).toBeGreaterThanOrEqual(1);
    expect(notices).toEqual([`Kishi did not answer in time; it plays ${game.snapshot().moves[1]}`]);
    await game.abandon();
  });

  it('forgets the scores of the plies taken back: they no longer count for resignation', async () => {
    const t = setup({ score: () => ({ cp: -900 }), thinkMs: 0 }, { resignEnabled: true, resignMoves: 2, resignScoreCp: -500 });
    t.game.start();
    t.game.humanMove(0, 'e2e4');
    await t.until(() => t.game.snapshot().moves.length === 2);
    expect((await t.game.takeback()).isOk).toBe(true);
    // One lost score again after the takeback: the taken-back one does not make it two.
    t.game.humanMove(0, 'd2d4');
    await t.until(() => t.game.snapshot().moves.length === 2);
    expect(t.game.over()).toBe(false);
    // The next lost score is the second in a row: Kishi resigns.
    t.game.humanMove(2, 'c2c4');
    await t.until(() => t.game.over());
    expect(t.game.snapshot().result).toEqual({ winner: 'first', reason: 'resign' });
  });

  it('drops the taken-back ply\'s search from the engine panel', async () => {
    const t = setup({ script: ['e7e5', 'd7d5'] });
    t.game.start();
    t.game.humanMove(0, 'e2e4');
    await t.until(() => t.game.snapshot().moves.length === 2);
    expect(t.game.snapshot().lastInfo?.pv[0]).toBe('e7e5');
    expect(t.game.snapshot().evals).toEqual([null, t.game.infoAt(1)!.score]);
    expect((await t.game.takeback()).isOk).toBe(true);
    // Back at the start: no search of Kishi's is behind the position, so none is shown.
    expect(t.game.snapshot().moves).toEqual([]);
    expect(t.game.snapshot().lastInfo).toBeUndefined();
    expect(t.game.infoAt(1)).toBeUndefined();
    expect(t.states().at(-1)!.lastInfo).toBeUndefined();
    expect(t.game.snapshot().evals).toEqual([]);
  });

  it('runs no clock during the first moves, as lichess; from the second ply on the side to move\'s clock runs', async () => {
    let now = 1_000_000;
    const player = new FirstLegalPlayer({ script: ['e7e5'] });
    const game = new WebGame({
      id: 'c',
      game: 'chess',
      humanSide: 'first',
      humanName: 'Ann',
      control: { initialMs: 60_000, incrementMs: 0, byoyomiMs: 0 },
      limits: { nodes: 100 },
      lease: { player: player as Player, release: async () => {} },
      policy: POLICY,
      maxTakebacks: 1,
      emit: () => {},
      now: () => now,
    });
    game.start();
    now += 20_000; // the person looks at the board a long time before the first move
    expect(game.snapshot().clock).toEqual({ firstMs: 60_000, secondMs: 60_000 });
    expect(game.humanMove(0, 'e2e4').isOk).toBe(true);
    expect(game.snapshot().clock.running).toBeUndefined();
    const until = Date.now() + 5_000;
    while (game.snapshot().moves.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(game.snapshot().moves).toEqual(['e2e4', 'e7e5']);
    // Kishi's first move was untimed too, but bounded by its main time.
    expect(player.requests[0]!.clock?.secondMs).toBe(60_000);
    expect(game.snapshot().clock).toEqual({ firstMs: 60_000, secondMs: 60_000, running: 'first' });
    now += 3_000;
    expect(game.snapshot().clock).toEqual({ firstMs: 57_000, secondMs: 60_000, running: 'first' });
    await game.abandon();
  });
});
