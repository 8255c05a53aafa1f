import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/bot/dispatcher.js';
import { FirstLegalPlayer } from '../fakes/player.js';

describe('dispatcher', () => {
  it('prepares a Player per game kind and answers supports() from it', async () => {
    const made: string[] = [];
    const d = new Dispatcher(async (game, variant) => {
      made.push(`${game}/${variant}`);
      return new FirstLegalPlayer();
    });
    expect(d.supports('chess', 'standard')).toBe(false);
    (await d.prepare(['chess'])).unwrap();
    expect(made).toEqual(['chess/standard']);
    expect(d.supports('chess', 'chess960')).toBe(true);
    expect(d.supports('chess', 'atomic')).toBe(false);
    expect(d.supports('shogi', 'standard')).toBe(false);
    expect(d.engineName('chess')).toBe('first-legal test double');
  });

  it('leases one Player per game, pools released ones, and resets each for a new game', async () => {
    const players: FirstLegalPlayer[] = [];
    const d = new Dispatcher(async () => {
      const p = new FirstLegalPlayer();
      players.push(p);
      return p;
    });
    (await d.prepare(['chess'])).unwrap();
    const a = (await d.acquire('chess', 'standard')).unwrap();
    const b = (await d.acquire('chess', 'standard')).unwrap();
    expect(a.player).not.toBe(b.player);
    expect(players.length).toBe(2);
    expect(d.activeLeases()).toBe(2);
    await a.release();
    const c = (await d.acquire('chess', 'chess960')).unwrap();
    expect(c.player).toBe(a.player);
    expect((a.player as FirstLegalPlayer).newGames).toBe(2);
    await b.release(true);
    expect((b.player as FirstLegalPlayer).closed).toBe(true);
    expect((await d.acquire('chess', 'atomic')).isErr).toBe(true);
    await d.close();
    expect(players.every((p) => p.closed)).toBe(true);
    expect((await d.acquire('chess', 'standard')).isErr).toBe(true);
  });

  it('reports a factory that cannot make an engine', async () => {
    const d = new Dispatcher(async () => {
      throw new Error('weights file models/chess-linear.json not found');
    });
    const r = await d.prepare(['chess']);
    expect(r.isErr && r.error.message).toBe('no engine available for chess: weights file models/chess-linear.json not found');
  });

  it('hands finished games to onGameRecorded, and readies the next Player only after those runs', async () => {
    const events: string[] = [];
    let finish: (() => void) | undefined;
    const d = new Dispatcher(
      async () => {
        const p = new FirstLegalPlayer();
        const newGame = p.newGame.bind(p);
        p.newGame = async () => {
          events.push('newGame');
          await newGame();
        };
        return p;
      },
      {
        onGameRecorded: (file) => {
          events.push(`learn ${file}`);
          return new Promise<void>((resolve) => {
            finish = () => {
              events.push(`learnt ${file}`);
              resolve();
            };
          });
        },
      },
    );
    (await d.prepare(['chess'])).unwrap();
    const a = (await d.acquire('chess', 'standard')).unwrap();
    a.gameRecorded?.('g1.jsonl');
    await a.release();
    const next = d.acquire('chess', 'standard');
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['newGame', 'learn g1.jsonl']);
    finish!();
    (await next).unwrap();
    expect(events).toEqual(['newGame', 'learn g1.jsonl', 'learnt g1.jsonl', 'newGame']);
    // A failing hook does not stop the dispatcher; without a hook, nothing runs.
    const failing = new Dispatcher(async () => new FirstLegalPlayer(), { onGameRecorded: async () => Promise.reject(new Error('disk full')) });
    failing.gameRecorded('g2.jsonl');
    expect((await failing.acquire('chess', 'standard')).isOk).toBe(true);
    const none = new Dispatcher(async () => new FirstLegalPlayer());
    none.gameRecorded('g3.jsonl');
    await none.recorded();
    await Promise.all([d.close(), failing.close(), none.close()]);
  });
});
