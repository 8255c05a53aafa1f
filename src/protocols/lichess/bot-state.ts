/**
 * What the bot must remember across restarts (lichess-bot keeps both on disk):
 * - the start times of our games against bots, for the bot-vs-bot daily cap (lichess allows 100 per
 *   24 h; a restart must not forget the games already played, or the bot would accept challenges lichess
 *   then refuses);
 * - the takebacks granted per game, so that a restart mid-game does not grant `maxTakebacks` again.
 * One small JSON file, rewritten through a temporary file and a rename so that a crash never leaves half
 * of it. Without a path (no records directory) the state lives in memory only.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const DAY_MS = 86_400_000;

interface StateFile {
  readonly version: 1;
  /** gameId → start time (ms since the epoch) of games against bots. */
  readonly botGames: Record<string, number>;
  /** gameId → takebacks granted. */
  readonly takebacks: Record<string, number>;
}

export class BotState {
  private state: StateFile = { version: 1, botGames: {}, takebacks: {} };

  constructor(
    private readonly path: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    if (path === undefined) return;
    try {
      const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<StateFile>;
      this.state = { version: 1, botGames: { ...(raw.botGames ?? {}) }, takebacks: { ...(raw.takebacks ?? {}) } };
    } catch {
      // No file yet, or an unreadable one: start empty.
    }
  }

  /** Records a game against a bot (once per game id). */
  addBotGame(gameId: string, startedAt: number): void {
    if (this.state.botGames[gameId] !== undefined) return;
    this.state.botGames[gameId] = startedAt;
    this.save();
  }

  /** Games against bots started in the last 24 hours. */
  botGamesToday(): number {
    const now = this.now();
    return Object.values(this.state.botGames).filter((t) => now - t < DAY_MS).length;
  }

  takebacks(gameId: string): number {
    return this.state.takebacks[gameId] ?? 0;
  }

  addTakeback(gameId: string): void {
    this.state.takebacks[gameId] = this.takebacks(gameId) + 1;
    this.save();
  }

  /** A game ended: its takeback count is no longer needed. */
  forgetGame(gameId: string): void {
    if (this.state.takebacks[gameId] === undefined) return;
    delete this.state.takebacks[gameId];
    this.save();
  }

  private save(): void {
    // Entries older than a day never count again.
    const now = this.now();
    for (const [id, t] of Object.entries(this.state.botGames)) if (now - t >= DAY_MS) delete this.state.botGames[id];
    if (this.path === undefined) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const tmp = `${this.path}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.state));
      renameSync(tmp, this.path);
    } catch {
      // Losing the file costs only the memory across a restart.
    }
  }
}
