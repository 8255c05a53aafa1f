/** Shared set-up for the match tests: fake engines, Debian engines, temporary output folders. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EngineSpec } from '../../src/engines/engine-spec.js';
import type { MatchConfig, MatchEngineEntry } from '../../src/match/match-runner.js';
import type { TimeControl } from '../../src/match/time-control.js';
import { NO_TIME_CONTROL } from '../../src/match/time-control.js';

export const FAKE_ENGINE = resolve('tests/fixtures/engines/fake-engine.mjs');
export const STOCKFISH = '/usr/games/stockfish';
export const FAIRY = '/usr/games/fairy-stockfish';
export const GPSUSI = '/usr/games/gpsusi';
export const haveEngine = (path: string): boolean => existsSync(path);

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `kishi-${prefix}-`));

/** A fake engine spec (see tests/fixtures/engines/fake-engine.mjs for the flags). */
export function fakeSpec(name: string, flags: readonly string[] = []): EngineSpec {
  return { name, command: process.execPath, args: [FAKE_ENGINE, '--name', name, ...flags], options: {}, time: {}, kishi: false };
}

export const nodesTc = (nodes: number): TimeControl => ({ ...NO_TIME_CONTROL, nodes });
export const clockTc = (baseMs: number, incMs = 0): TimeControl => ({ ...NO_TIME_CONTROL, baseMs, incMs });

export const entry = (spec: EngineSpec, tc: TimeControl): MatchEngineEntry => ({ spec, tc });

/** A match config with test-friendly defaults. */
export function matchConfig(over: Partial<MatchConfig> & Pick<MatchConfig, 'engines'>): MatchConfig {
  return {
    game: 'chess',
    variant: 'standard',
    games: 2,
    openings: [{ start: 'startpos', moves: [], source: 'startpos' }],
    openingOrder: 'sequential',
    seed: 1,
    concurrency: 1,
    adjudication: { maxMoves: 20 },
    hangTimeoutMs: 5000,
    graceMs: 300,
    startTimeoutMs: 10_000,
    logLines: 30,
    ...over,
  };
}
