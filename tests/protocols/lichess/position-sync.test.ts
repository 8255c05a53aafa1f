/** The lichess game's position sync (src/protocols/lichess/game/position-sync.ts) on its own. */
import { describe, expect, it } from 'vitest';
import { ChessLine } from '../../../src/protocols/lichess/chess-line.js';
import { PositionSync } from '../../../src/protocols/lichess/game/position-sync.js';
import type { GameFullEvent, GameStateEvent, VariantKey } from '../../../src/protocols/lichess/types.js';

const state = (moves: string, over: Partial<GameStateEvent> = {}): GameStateEvent => ({
  type: 'gameState',
  moves,
  wtime: 60_000,
  btime: 50_000,
  winc: 1000,
  binc: 1000,
  status: 'started',
  ...over,
});

const full = (over: Partial<GameFullEvent> = {}): GameFullEvent => ({
  type: 'gameFull',
  id: 'g1',
  variant: { key: 'standard', name: 'Standard', short: 'Std' },
  clock: { initial: 60_000, increment: 1000 },
  speed: 'bullet',
  perf: {},
  rated: false,
  createdAt: 0,
  white: { id: 'someone', name: 'Someone' },
  black: { id: 'kishibot', name: 'KishiBot' },
  initialFen: 'startpos',
  state: state(''),
  ...over,
});

const sync = (): PositionSync<ChessLine> => new PositionSync('KishiBot', (variant, fen) => ChessLine.create(variant as VariantKey, fen));

describe('position sync', () => {
  it('finds our side (ids compared without case) and refuses a game that is not ours or a bad start', () => {
    const s = sync();
    expect(s.begin(full()).unwrap()).toEqual({ first: true });
    expect([s.ourColor, s.names('KishiBot').opponent]).toEqual(['black', 'Someone']);
    // A reconnect's gameFull only replaces the snapshot.
    expect(s.begin(full({ rated: true })).unwrap()).toEqual({ first: false });
    const stranger = sync().begin(full({ black: { id: 'other', name: 'Other' } }));
    expect(stranger.isErr && stranger.error.code).toBe('ERR_NOT_OUR_GAME');
    const bad = sync().begin(full({ initialFen: 'not a fen' }));
    expect(bad.isErr && bad.error.code).toBe('ERR_FEN');
  });

  it('follows the full move list: the tail is applied, a shorter list is a takeback, an illegal one is refused', () => {
    const s = sync();
    s.begin(full());
    expect(s.apply(state('e2e4 e7e5 g1f3')).unwrap()).toEqual({ prev: 0, plies: 3 });
    expect([s.key(), s.ourTurn(), s.moverAt(2)]).toEqual(['e2e4 e7e5 g1f3', true, 'white']);
    expect(s.apply(state('e2e4')).unwrap()).toEqual({ prev: 3, plies: 1 });
    // The moves before an illegal one stay applied (the next state resyncs from the full list).
    expect(s.apply(state('e2e4 e7e5 e1e3')).isErr).toBe(true);
    expect(s.key()).toBe('e2e4 e7e5');
    expect([s.canFollow(['e2e4', 'c7c5']), s.canFollow(['e2e4', 'e2e4'])]).toEqual([true, false]);
  });

  it('reports the clocks as lichess keeps them; correspondence has none', () => {
    const s = sync();
    s.begin(full());
    s.apply(state(''));
    expect(s.clockState()).toEqual({ firstMs: 60_000, secondMs: 50_000, firstIncMs: 1000, secondIncMs: 1000, byoyomiMs: 0 });
    const c = sync();
    c.begin(full({ clock: undefined, daysPerTurn: 3 }));
    c.apply(state(''));
    expect([c.isCorrespondence(), c.clockState(), c.ourTimeMs()]).toEqual([true, undefined, Number.POSITIVE_INFINITY]);
  });
});
