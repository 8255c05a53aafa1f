/**
 * The worker's side of remote match games (remote-games.ts): plays the games in order with one
 * fresh instance of each engine, the way one local worker of `runMatch` does.
 */
import type { GameRecord } from './game-record.js';
import { playGame } from './game-runner.js';
import { processFactory } from './match-runner.js';
import type { MatchEngine } from '../engines/match-engine.js';
import type { RemoteGameSpec, RemoteMatchSettings } from './remote-games.js';

/**
 * Plays `games` in order on this machine. An engine that dies is restarted for the next game; one
 * that cannot start at all throws (this machine cannot run the job; the queue retries it elsewhere).
 */
export async function playRemoteGames(s: RemoteMatchSettings, games: readonly RemoteGameSpec[], onWarning: (m: string) => void = () => {}): Promise<GameRecord[]> {
  const config = { game: s.game, variant: s.variant, logLines: s.logLines, startTimeoutMs: s.startTimeoutMs, graceMs: s.graceMs };
  const factories = s.engines.map((e) => processFactory(e.spec, config, onWarning));
  const mine: (MatchEngine | undefined)[] = [undefined, undefined];
  const ensure = async (k: 0 | 1): Promise<MatchEngine> => {
    const current = mine[k];
    if (current !== undefined && current.alive()) return current;
    if (current !== undefined) await current.close();
    const made = await factories[k]!();
    if (made.isErr) throw made.error;
    mine[k] = made.value;
    return made.value;
  };
  const out: GameRecord[] = [];
  try {
    for (const g of games) {
      const a = await ensure(0);
      const b = await ensure(1);
      const tcA = s.engines[0].tc;
      const tcB = s.engines[1].tc;
      out.push(
        await playGame({
          id: g.id,
          pair: g.pair,
          round: g.round,
          game: s.game,
          variant: s.variant,
          opening: g.opening,
          engines: g.aSide === 'first' ? { first: a, second: b } : { first: b, second: a },
          timeControls: g.aSide === 'first' ? { first: tcA, second: tcB } : { first: tcB, second: tcA },
          adjudication: s.adjudication,
          hangTimeoutMs: s.hangTimeoutMs,
        }),
      );
    }
  } finally {
    await Promise.all(mine.map((e) => e?.close()));
  }
  return out;
}
