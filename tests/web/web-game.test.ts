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
import { FirstLegalPlayer } from '../fakes/player.js';
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

  it('plays the first legal move when the engine answers an illegal one, and logs the game', async () => {
    const t = setup({ script: ['e7e5'] }, {}, true);
    // The test double plays its script only when legal; force an illegal answer through `go`.
    const go = t.player.go.bind(t.player);
    t.player.go = async (req, onInfo) => ({ ...(await go(req, onInfo)), move: 'a1a8' });
    t.game.start();
    t.game.humanMove(0, 'e2e4');
    await t.until(() => t.game.snapshot().moves.length === 2);
    expect(t.notices()).toEqual(['Kishi answered an illegal move (a1a8); it plays its first legal move']);
    t.game.resign();
    const log = readFileSync(t.file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(log.map((l) => l.type)).toEqual(['header', 'move', 'move', 'result']);
    expect(log[2]).toMatchObject({ ply: 1, ours: true, search: { depth: 1 } });
    expect(log[3]).toMatchObject({ winner: 'second', status: 'resign', plies: 2 });
    expect(t.recorded).toEqual([t.file]);
    expect(t.game.resign().isErr).toBe(true);
  });
});
