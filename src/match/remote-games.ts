/**
 * Match games played away from the match runner (by a queue worker, src/queue/): what the runner
 * hands out (`RemoteGameSpec`: the game's number, pair, opening and which side engine A takes), the
 * settings a worker needs to start the engines itself (`RemoteMatchSettings`, plain JSON), and the
 * runner's port (`RemoteGames`). The worker's side is remote-play.ts.
 */
import type { GameKind, Side } from '../core/game.js';
import type { AdjudicationRules } from './adjudication.js';
import type { MatchVariant } from '../games/game-factory.js';
import type { GameRecord } from './game-record.js';
import type { EngineSpec } from '../engines/engine-spec.js';
import type { Opening } from '../books/openings.js';
import type { TimeControl } from './time-control.js';

/** One game as the runner schedules it. */
export interface RemoteGameSpec {
  /** 1-based game number. */
  readonly id: number;
  readonly pair: number;
  readonly round: string;
  readonly opening: Opening;
  /** The side engine A (engines[0]) plays. */
  readonly aSide: Side;
}

/** Everything but the games: JSON, so that it travels in a job. */
export interface RemoteMatchSettings {
  readonly game: GameKind;
  readonly variant: MatchVariant;
  /** Engines A and B with their final names (`spec.name`) and time controls. */
  readonly engines: readonly [{ readonly spec: EngineSpec; readonly tc: TimeControl }, { readonly spec: EngineSpec; readonly tc: TimeControl }];
  readonly adjudication: AdjudicationRules;
  readonly hangTimeoutMs: number;
  readonly graceMs: number;
  readonly startTimeoutMs: number;
  readonly logLines: number;
}

/** The runner's port to remote games: `play` resolves with one record per spec, in order. */
export interface RemoteGames {
  /** Game lists in flight at once. */
  readonly parallel: number;
  play(games: readonly RemoteGameSpec[]): Promise<GameRecord[]>;
}
