/**
 * Drives `node bin/kishi.js uci|usi` as a child process over the real protocol, through the match
 * runner (src/match/game-runner.ts with src/engines/engine-client.ts): complete games against
 * Debian's engines, and the stop-latency probe. The compiled CLI in dist/ is needed (the tests'
 * global setup builds it, tests/setup/build.ts).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GameKind, Side } from '../../../src/core/game.js';
import { EngineClient } from '../../../src/engines/engine-client.js';
import { EngineProcess } from '../../../src/engines/engine-process.js';
import type { EngineSpec } from '../../../src/engines/engine-spec.js';
import type { MatchVariant } from '../../../src/games/game-factory.js';
import { createGame } from '../../../src/games/game-factory.js';
import type { GameRecord } from '../../../src/match/game-record.js';
import { playGame } from '../../../src/match/game-runner.js';
import type { Opening } from '../../../src/books/openings.js';
import type { TimeControl } from '../../../src/match/time-control.js';

export const STOCKFISH = '/usr/games/stockfish';
export const FAIRY = '/usr/games/fairy-stockfish';
export const LAUNCHER = resolve('bin/kishi.js');
export const haveEngine = (path: string): boolean => existsSync(path);
export const kishiBuilt = (): boolean => existsSync(resolve('dist/src/cli/uci.js')) && existsSync(resolve('dist/src/cli/usi.js'));

export const kishiSpec = (protocol: 'uci' | 'usi', options: Record<string, string>): EngineSpec => ({
  name: 'kishi',
  command: process.execPath,
  args: [LAUNCHER, protocol],
  options,
  time: {},
  kishi: false,
});

export const externalSpec = (name: string, command: string, options: Record<string, string>): EngineSpec => ({
  name,
  command,
  args: [],
  options,
  time: {},
  kishi: false,
});

export const tc = (over: Partial<TimeControl>): TimeControl => ({ incMs: 0, byoyomiMs: 0, movesPerSession: 0, marginMs: 0, ...over });

export interface EngineGame {
  readonly game: GameKind;
  readonly variant: MatchVariant;
  readonly opening: Opening;
  readonly kishiSide: Side;
  readonly kishi: EngineSpec;
  readonly kishiTc: TimeControl;
  readonly opponent: EngineSpec;
  readonly opponentTc: TimeControl;
  /** Full moves before a draw by adjudication (the game length cap). */
  readonly maxMoves: number;
}

/** Plays one game; both engines are started for it and quit after it. */
export async function playEngineGame(g: EngineGame): Promise<{ record: GameRecord; warnings: string[] }> {
  const warnings: string[] = [];
  const start = (spec: EngineSpec) =>
    EngineClient.start({ spec, game: g.game, variant: g.variant, startTimeoutMs: 20_000, graceMs: 1000, logLines: 40, onWarning: (w) => warnings.push(w) });
  const kishi = (await start(g.kishi)).unwrap();
  const opponent = (await start(g.opponent)).unwrap();
  try {
    const other: Side = g.kishiSide === 'first' ? 'second' : 'first';
    const record = await playGame({
      id: 1,
      pair: 1,
      round: '1',
      game: g.game,
      variant: g.variant,
      opening: g.opening,
      engines: { [g.kishiSide]: kishi, [other]: opponent } as Record<Side, EngineClient>,
      timeControls: { [g.kishiSide]: g.kishiTc, [other]: g.opponentTc } as Record<Side, TimeControl>,
      adjudication: { maxMoves: g.maxMoves },
      hangTimeoutMs: 10_000,
    });
    return { record, warnings };
  } finally {
    await kishi.close();
    await opponent.close();
  }
}

/** Replays a record on the rules adapter: every move legal, and the final position as recorded. */
export function replay(record: GameRecord): { legal: boolean; final: string } {
  const game = createGame(record.game, record.variant, record.opening.start).unwrap();
  for (const text of [...record.opening.moves, ...record.moves.map((m) => m.move)]) {
    const m = game.parseMove(text);
    if (m.isErr) return { legal: false, final: game.toText() };
    game.play(m.value);
  }
  return { legal: true, final: game.toText() };
}

/**
 * Starts `kishi uci|usi` and, `trials` times: begins a `go infinite` from `position`, waits until
 * the search reports `minDepth` (or `maxWaitMs`), checks that `isready` is answered mid-search,
 * sends `stop` and measures the time to `bestmove`. Returns the latencies in ms (in trial order).
 */
export async function stopLatency(
  protocol: 'uci' | 'usi',
  position: string,
  minDepth: number,
  maxWaitMs: number,
  trials = 3,
): Promise<{ latenciesMs: number[]; bestmoves: string[]; depths: number[]; readyDuringSearch: boolean[] }> {
  const proc = (await EngineProcess.spawn({ command: process.execPath, args: [LAUNCHER, protocol] })).unwrap();
  const out = { latenciesMs: [] as number[], bestmoves: [] as string[], depths: [] as number[], readyDuringSearch: [] as boolean[] };
  try {
    proc.send(protocol);
    const ok = await proc.waitFor((l) => l === `${protocol}ok`, 20_000);
    if (!('line' in ok)) throw new Error(`no ${protocol}ok: ${proc.lastLines().join('\n')}`);
    proc.send(`setoption name ${protocol === 'uci' ? 'Hash' : 'USI_Hash'} value 16`);
    proc.send('isready');
    const ready = await proc.waitFor((l) => l === 'readyok', 20_000);
    if (!('line' in ready)) throw new Error(`no readyok: ${proc.lastLines().join('\n')}`);
    for (let t = 0; t < trials; t++) {
      proc.send(protocol === 'uci' ? 'ucinewgame' : 'usinewgame');
      proc.send(position);
      proc.send('go infinite');
      let depth = 0;
      const deep = await proc.waitFor((l) => {
        const m = /^info depth (\d+)/.exec(l);
        if (m) depth = Number(m[1]);
        return depth >= minDepth || l.startsWith('bestmove');
      }, maxWaitMs);
      if ('exit' in deep) throw new Error(`kishi ended: ${proc.lastLines().join('\n')}`);
      // isready mid-search: readyok must come back while no bestmove has been sent.
      proc.send('isready');
      const mid = await proc.waitFor((l) => l === 'readyok' || l.startsWith('bestmove'), 5000);
      out.readyDuringSearch.push('line' in mid && mid.line === 'readyok');
      const t0 = performance.now();
      proc.send('stop');
      const best = await proc.waitFor((l) => l.startsWith('bestmove'), 5000);
      if (!('line' in best)) throw new Error(`no bestmove after stop: ${proc.lastLines().join('\n')}`);
      out.latenciesMs.push(best.atMs - t0);
      out.bestmoves.push(best.line);
      out.depths.push(depth);
    }
    proc.send('quit');
    await proc.waitExitOrKill(2000);
    return out;
  } finally {
    await proc.kill();
  }
}

/** The middle value. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
