/**
 * Players that pick up new weights between games. A Player reads its weights when it is created,
 * and the dispatcher pools Players across games; with online learning the weights file changes
 * after every game. `reloadingPlayerFactory` wraps a player factory: each Player it makes remembers
 * the stamp of the weights it was made with (`weightsStamp` in online.ts), and at `newGame()` (the
 * dispatcher calls it before lending the Player to a game) replaces its engine with a fresh one
 * when the stamp changed. Between games only: a game in progress keeps its engine.
 */
import type { GameKind } from '../../core/game.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../player/player.js';

export type BasePlayerFactory = (game: GameKind, variant: string) => Promise<Player>;

class ReloadingPlayer implements Player {
  constructor(
    private inner: Player,
    private stamp: string,
    private readonly game: GameKind,
    private readonly variant: string,
    private readonly make: BasePlayerFactory,
    private readonly stampOf: (game: GameKind) => string,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  supports(game: GameKind, variant: string): boolean {
    return this.inner.supports(game, variant);
  }

  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    return this.inner.go(request, onInfo);
  }

  stop(): void {
    this.inner.stop();
  }

  ponderhit(): void {
    this.inner.ponderhit();
  }

  async newGame(): Promise<void> {
    const now = this.stampOf(this.game);
    if (now !== this.stamp) {
      // A failed reload keeps the old engine (a weights file being replaced is complete either way).
      const fresh = await this.make(this.game, this.variant).catch(() => undefined);
      if (fresh !== undefined) {
        const old = this.inner;
        this.inner = fresh;
        this.stamp = now;
        await old.close().catch(() => undefined);
      }
    }
    await this.inner.newGame();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Wraps `make` so that its Players reload when `stampOf(game)` changes (checked at `newGame`). */
export const reloadingPlayerFactory =
  (make: BasePlayerFactory, stampOf: (game: GameKind) => string): BasePlayerFactory =>
  async (game, variant) => {
    const stamp = stampOf(game);
    const inner = await make(game, variant);
    return new ReloadingPlayer(inner, stamp, game, variant, make, stampOf);
  };
