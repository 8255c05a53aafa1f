/**
 * Self-play for the AlphaZero loop (issue 10, deliverable 1): `workers` threads, each with its own
 * net (one ORT session, one ORT thread) playing `concurrentGames` games at once so that every net
 * call is a batch of leaves from all of them; the finished games become training chunks.
 *
 * Games are numbered globally: this call plays `firstGameIndex .. firstGameIndex + games - 1`, a
 * game's seed derives from (`seed`, index), and chunk files are named by their index range
 * (selfplay-chunks.ts). Games are handed out one at a time as threads free up; finished games wait
 * until a run of `gamesPerChunk` consecutive indices is complete and are then written as one chunk,
 * atomically. After an abort (`signal`) the complete prefix is written and the rest dropped, so
 * the files on disk always hold the games `firstGameIndex .. k` for some k with no gaps: a resumed
 * loop goes on at `scanSelfplayChunks(outDir).nextGameIndex`. A call whose range overlaps games
 * already on disk is refused (`ERR_SELFPLAY`), so nothing is ever duplicated.
 *
 * Workers run compiled JavaScript from dist/ (`npx tsc -p .` first when running from sources).
 * `workers: 0`, or an `evaluatorFactory`, plays in the calling thread instead (tests, debugging).
 * `model: 'mock:uniform'` / `'mock:first-loses'` uses a scripted net (selfplay-evaluator.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { Evaluator } from '../../nn/evaluator.js';
import { encodingOf } from '../../nn/manifest.js';
import { isCpuNetPath, policyPathFor } from '../../player/mcts-cpu-nets.js';
import { resolveModelPath } from '../../core/package-path.js';
import { removeStaleChunkTemps, scanSelfplayChunks, selfplayChunkBytes, selfplayChunkName, writeBytesAtomic } from './selfplay-chunks.js';
import { MOCK_MODEL_PREFIX, openSelfplayNet, selfplayNet, type SelfplayNet, type SelfplayNetStats } from './selfplay-evaluator.js';
import { playSelfplayGame, type SelfplayGameRecord, type SelfplayGameSettings, type SelfplayGameSummary } from './selfplay-game.js';
import type { SelfplayReply, SelfplayRequest, SelfplayWorkerInit } from './selfplay-protocol.js';

export type { SelfplayGameSummary } from './selfplay-game.js';

/** The search settings of a self-play game that the AlphaZero loop's state and the queued self-play jobs carry. */
export type SelfplaySearchChoices = Pick<SelfplayOptions, 'playouts' | 'fastPlayouts' | 'fullSearchShare' | 'temperatureMoves' | 'resignValue' | 'maxPlies'>;

export interface SelfplayOptions {
  readonly game: GameKind;
  /** ONNX path (relative paths: working directory, then the package root), or `mock:<name>`. */
  readonly model: string;
  /** With the CPU networks: the policy network (the engine config's `mctsPolicy`: a path, `oneply`; absent: `<game>-policy.bin` beside the value network). */
  readonly policy?: string;
  /** Chunk files go here (created if missing). */
  readonly outDir: string;
  /** Games to play in this call. */
  readonly games: number;
  /** Global index of the first game (names chunk files, seeds), so reruns never duplicate. */
  readonly firstGameIndex: number;
  /** Worker threads (0: play in the calling thread). */
  readonly workers: number;
  /** Games each worker plays at once (their leaves share each net call). */
  readonly concurrentGames: number;
  /** Playouts of a full search. */
  readonly playouts: number;
  /** Playout-cap randomisation (KataGo): playouts of a fast search; only full-search moves become policy targets. Unset: all full. */
  readonly fastPlayouts?: number;
  /** Probability that a move gets a full search when `fastPlayouts` is set (default 0.25). */
  readonly fullSearchShare?: number;
  /** Plies at the start of each game whose move is drawn by visit count. */
  readonly temperatureMoves: number;
  /** Root Dirichlet noise concentration (default 0.3 chess, 0.15 shogi) and weight (default 0.25). */
  readonly dirichletAlpha?: number;
  readonly dirichletFrac?: number;
  /** MCTS draw score of both sides in [-1, 1] (`MctsOptions.drawScore`, default 0). */
  readonly drawScore?: number;
  /** Gumbel AlphaZero's root moves (`SelfplayGameSettings.gumbelActions`; default 0: PUCT). */
  readonly gumbelActions?: number;
  /** Resign when the side to move's root Q < -resignValue and the opponent's was > resignValue one ply before. Unset: never. */
  readonly resignValue?: number;
  /** Share of would-resign games played out as false-positive checks (default 0.1). */
  readonly resignPlayoutShare?: number;
  /** Plies after which a game is a draw (default 400 chess, 320 shogi). */
  readonly maxPlies?: number;
  /** Games per chunk file (the last chunk of a call may hold fewer). */
  readonly gamesPerChunk: number;
  readonly seed: number;
  /** Goes into the chunk meta (e.g. `selfplay`). */
  readonly phase: string;
  /** Leaves one search collects per net call (default 8). */
  readonly searchBatch?: number;
  /** NN cache entries per worker (default 200,000). */
  readonly cacheEntries?: number;
  /** Extra fields for the chunk meta (e.g. the loop's generation). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Plays in the calling thread with this net (tests). It is closed at the end. */
  readonly evaluatorFactory?: (game: GameKind, maxBatch: number) => Promise<Evaluator>;
  readonly signal?: AbortSignal;
  /** Called as each game finishes (before its chunk is written). */
  readonly onGame?: (g: SelfplayGameSummary) => void;
}

export interface SelfplayReport {
  /** Games written to chunk files by this call. */
  readonly games: number;
  readonly positions: number;
  /** Chunk files written, in index order. */
  readonly files: string[];
  readonly seconds: number;
  readonly gamesPerHour: number;
  /** Would-resign games played out, and those where the would-be resigner did not lose. */
  readonly resignFalsePositives: { readonly checked: number; readonly wrong: number };
  /** Positions the net evaluated (cache hits excluded) and milliseconds inside the net, over all workers. */
  readonly nnEvals: number;
  readonly nnMs: number;
  /** Net calls (batches) and NN-cache hits, over all workers. */
  readonly nnCalls: number;
  readonly cacheHits: number;
  /** Worker-thread milliseconds (all workers) outside the net: tree search, move generation, encoding, idling. */
  readonly treeMs: number;
  /** Games resigned (without a check). */
  readonly resigned: number;
  /** Summaries of the games written, in index order. */
  readonly summaries: SelfplayGameSummary[];
  /** The signal stopped the call: games finished beyond the first gap were dropped (`dropped`). */
  readonly aborted: boolean;
  readonly dropped: number;
  /** One past the last game written (where the next call goes on). */
  readonly nextGameIndex: number;
}

/** The compiled worker: next to this file in dist/, or in dist/ when this file runs from sources (tests). */
export const selfplayWorkerUrl = (): URL => {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return new URL('../../../dist/src/learning/alphazero/selfplay-worker.js', here);
  return new URL('./selfplay-worker.js', here);
};

interface HostResult {
  readonly stats: SelfplayNetStats;
  readonly busyMs: number;
}

/** Where games are played: a worker thread or the calling thread. */
interface GameHost {
  play(index: number): Promise<SelfplayGameRecord | undefined>;
  abort(): void;
  close(): Promise<HostResult>;
}

const usage = (m: string): Result<never, KishiError> => Result.err(new KishiError('ERR_USAGE', `selfplay: ${m}`));

/** Checks the options and fills in the defaults (the per-game settings the threads get). */
export const resolveSelfplaySettings = (o: SelfplayOptions): Result<SelfplayGameSettings, KishiError> => {
  const int = (v: number, min: number): boolean => Number.isInteger(v) && v >= min;
  if (o.game !== 'chess' && o.game !== 'shogi') return usage(`game must be chess or shogi, not ${JSON.stringify(o.game)}`);
  if (!int(o.games, 0)) return usage(`games must be a whole number >= 0, not ${o.games}`);
  if (!int(o.firstGameIndex, 0)) return usage(`firstGameIndex must be a whole number >= 0, not ${o.firstGameIndex}`);
  if (!int(o.workers, 0)) return usage(`workers must be a whole number >= 0, not ${o.workers}`);
  if (!int(o.concurrentGames, 1)) return usage(`concurrentGames must be a whole number >= 1, not ${o.concurrentGames}`);
  if (!int(o.playouts, 1)) return usage(`playouts must be a whole number >= 1, not ${o.playouts}`);
  if (o.fastPlayouts !== undefined && !int(o.fastPlayouts, 1)) return usage(`fastPlayouts must be a whole number >= 1, not ${o.fastPlayouts}`);
  const share = o.fullSearchShare ?? 0.25;
  if (!(share > 0 && share <= 1)) return usage(`fullSearchShare must be in (0, 1], not ${share}`);
  if (!int(o.temperatureMoves, 0)) return usage(`temperatureMoves must be a whole number >= 0, not ${o.temperatureMoves}`);
  const frac = o.dirichletFrac ?? 0.25;
  const alpha = o.dirichletAlpha ?? (o.game === 'chess' ? 0.3 : 0.15);
  if (!(frac >= 0 && frac <= 1)) return usage(`dirichletFrac must be in [0, 1], not ${frac}`);
  if (!(alpha > 0)) return usage(`dirichletAlpha must be > 0, not ${alpha}`);
  const drawScore = o.drawScore ?? 0;
  if (!(drawScore >= -1 && drawScore <= 1)) return usage(`drawScore must be in [-1, 1], not ${drawScore}`);
  const gumbel = o.gumbelActions ?? 0;
  if (!int(gumbel, 0)) return usage(`gumbelActions must be a whole number >= 0, not ${gumbel}`);
  if (o.resignValue !== undefined && !(o.resignValue > 0 && o.resignValue < 1)) return usage(`resignValue must be in (0, 1), not ${o.resignValue}`);
  const check = o.resignPlayoutShare ?? 0.1;
  if (!(check >= 0 && check <= 1)) return usage(`resignPlayoutShare must be in [0, 1], not ${check}`);
  const maxPlies = o.maxPlies ?? (o.game === 'chess' ? 400 : 320);
  if (!int(maxPlies, 1)) return usage(`maxPlies must be a whole number >= 1, not ${maxPlies}`);
  if (!int(o.gamesPerChunk, 1)) return usage(`gamesPerChunk must be a whole number >= 1, not ${o.gamesPerChunk}`);
  const searchBatch = o.searchBatch ?? 8;
  if (!int(searchBatch, 1)) return usage(`searchBatch must be a whole number >= 1, not ${searchBatch}`);
  if (!Number.isFinite(o.seed)) return usage(`seed must be a number, not ${o.seed}`);
  return Result.ok({
    game: o.game,
    playouts: o.playouts,
    fastPlayouts: o.fastPlayouts,
    fullSearchShare: o.fastPlayouts === undefined ? 1 : share,
    temperatureMoves: o.temperatureMoves,
    dirichletAlpha: alpha,
    dirichletFrac: frac,
    resignValue: o.resignValue,
    resignPlayoutShare: check,
    maxPlies,
    searchBatch,
    seed: o.seed >>> 0,
    ...(drawScore !== 0 ? { drawScore } : {}),
    ...(gumbel !== 0 ? { gumbelActions: gumbel } : {}),
  });
};

/** A game host in the calling thread. */
const localHost = (net: SelfplayNet, settings: SelfplayGameSettings): GameHost => {
  const abort = new AbortController();
  const started = performance.now();
  return {
    play: (index) => playSelfplayGame(index, settings, net.evaluator, abort.signal),
    abort: () => abort.abort(),
    close: async () => {
      await net.close();
      return { stats: net.stats(), busyMs: performance.now() - started };
    },
  };
};

/** With the CPU networks: the policy network the searches used, or `oneply` when there is none (the one-ply prior). */
const policyMeta = (o: SelfplayOptions, modelPath: string): Record<string, string | undefined> => {
  if (o.evaluatorFactory !== undefined || !isCpuNetPath(modelPath)) return {};
  const policy = policyPathFor(modelPath, o.game, o.policy);
  return policy === undefined ? { policy: 'oneply' } : { policy, policySha256: sha256Of(policy) };
};

/** Starts a worker thread; resolves once its net is loaded. */
const workerHost = (init: SelfplayWorkerInit): Promise<Result<GameHost, KishiError>> =>
  new Promise((resolveStart) => {
    let worker: Worker;
    try {
      worker = new Worker(selfplayWorkerUrl(), { workerData: init });
    } catch (e) {
      resolveStart(Result.err(new KishiError('ERR_SELFPLAY', `cannot start a self-play worker (${(e as Error).message}); run \`npx tsc -p .\``)));
      return;
    }
    let started = false;
    let failure: KishiError | undefined;
    const pending = new Map<number, { resolve: (r: SelfplayGameRecord | undefined) => void; reject: (e: unknown) => void }>();
    let closing: ((r: HostResult) => void) | undefined;
    let last: HostResult = { stats: { nnCalls: 0, nnEvals: 0, nnMs: 0, cacheHits: 0 }, busyMs: 0 };
    const fail = (e: KishiError): void => {
      failure ??= e;
      if (!started) {
        started = true;
        resolveStart(Result.err(e));
      }
      for (const p of pending.values()) p.reject(e);
      pending.clear();
      closing?.(last);
    };
    const host: GameHost = {
      play: (index) =>
        new Promise((resolve, reject) => {
          if (failure !== undefined) return reject(failure);
          pending.set(index, { resolve, reject });
          worker.postMessage({ type: 'play', index } satisfies SelfplayRequest);
        }),
      abort: () => worker.postMessage({ type: 'abort' } satisfies SelfplayRequest),
      close: () =>
        new Promise<HostResult>((resolve) => {
          if (failure !== undefined) {
            void worker.terminate();
            return resolve(last);
          }
          closing = (r) => {
            void worker.terminate();
            resolve(r);
          };
          worker.postMessage({ type: 'close' } satisfies SelfplayRequest);
        }),
    };
    worker.on('message', (msg: SelfplayReply) => {
      switch (msg.type) {
        case 'ready':
          started = true;
          resolveStart(Result.ok(host));
          break;
        case 'error':
          fail(new KishiError(msg.code, msg.message));
          break;
        case 'game': {
          last = { stats: msg.stats, busyMs: msg.busyMs };
          const p = pending.get(msg.index);
          pending.delete(msg.index);
          p?.resolve(msg.record);
          break;
        }
        case 'closed':
          last = { stats: msg.stats, busyMs: msg.busyMs };
          closing?.(last);
          break;
      }
    });
    worker.on('error', (e) => fail(new KishiError('ERR_SELFPLAY', `self-play worker failed: ${e.stack ?? e.message}`)));
    worker.on('exit', (code) => {
      if (closing === undefined || pending.size > 0) fail(new KishiError('ERR_SELFPLAY', `self-play worker exited (code ${code})`));
    });
  });

const sha256Of = (file: string): string | undefined => {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
};

/** Plays `o.games` self-play games and writes them as chunks; see the module comment. */
export async function runSelfplay(o: SelfplayOptions): Promise<Result<SelfplayReport, KishiError>> {
  const resolved = resolveSelfplaySettings(o);
  if (resolved.isErr) return Result.err(resolved.error);
  const settings = resolved.value;
  const start = performance.now();
  const first = o.firstGameIndex;
  const end = first + o.games;

  // The output directory: no overlap with games already there.
  try {
    mkdirSync(o.outDir, { recursive: true });
  } catch (e) {
    return Result.err(new KishiError('ERR_IO', `selfplay: cannot create ${o.outDir} (${(e as Error).message})`));
  }
  removeStaleChunkTemps(o.outDir);
  const onDisk = scanSelfplayChunks(o.outDir);
  const clash = onDisk.chunks.find((c) => c.first < end && c.last >= first);
  if (clash !== undefined && o.games > 0) {
    return Result.err(
      new KishiError('ERR_SELFPLAY', `selfplay: games ${first}..${end - 1} overlap ${clash.file} (games ${clash.first}..${clash.last}); go on at ${onDisk.nextGameIndex}`),
    );
  }

  // The hosts.
  const mock = o.model.startsWith(MOCK_MODEL_PREFIX);
  const modelPath = mock || o.evaluatorFactory !== undefined ? o.model : resolveModelPath(o.model);
  const maxBatch = o.concurrentGames * settings.searchBatch;
  const cacheEntries = o.cacheEntries ?? 200_000;
  const hosts: GameHost[] = [];
  if (o.evaluatorFactory !== undefined || o.workers === 0) {
    let net: SelfplayNet;
    if (o.evaluatorFactory !== undefined) net = selfplayNet(await o.evaluatorFactory(o.game, maxBatch), cacheEntries);
    else {
      const r = await openSelfplayNet(modelPath, o.game, maxBatch, cacheEntries, o.policy);
      if (r.isErr) return Result.err(r.error);
      net = r.value;
    }
    hosts.push(localHost(net, settings));
  } else {
    const init: SelfplayWorkerInit = { game: o.game, model: modelPath, settings, maxBatch, cacheEntries, ...(o.policy !== undefined ? { policy: o.policy } : {}) };
    const started = await Promise.all(Array.from({ length: o.workers }, () => workerHost(init)));
    for (const s of started) if (s.isOk) hosts.push(s.value);
    const bad = started.find((s) => s.isErr);
    if (bad !== undefined && bad.isErr) {
      await Promise.all(hosts.map((h) => h.close()));
      return Result.err(bad.error);
    }
  }

  // Chunk writing: runs of consecutive finished games.
  const spec = encodingOf(o.game);
  const meta: Record<string, unknown> = {
    phase: o.phase,
    generator: 'kishi selfplay',
    model: o.model,
    ...(mock || o.evaluatorFactory !== undefined ? {} : { modelSha256: sha256Of(modelPath) }),
    ...policyMeta(o, modelPath),
    playouts: settings.playouts,
    fastPlayouts: settings.fastPlayouts ?? null,
    fullSearchShare: settings.fullSearchShare,
    temperatureMoves: settings.temperatureMoves,
    dirichletAlpha: settings.dirichletAlpha,
    dirichletFrac: settings.dirichletFrac,
    resignValue: settings.resignValue ?? null,
    resignPlayoutShare: settings.resignPlayoutShare,
    maxPlies: settings.maxPlies,
    searchBatch: settings.searchBatch,
    seed: settings.seed,
    ...(settings.drawScore !== undefined ? { drawScore: settings.drawScore } : {}),
    ...(settings.gumbelActions !== undefined ? { gumbelActions: settings.gumbelActions } : {}),
    ...(o.meta ?? {}),
  };
  const done = new Map<number, SelfplayGameRecord>();
  const files: string[] = [];
  const summaries: SelfplayGameSummary[] = [];
  let nextWrite = first;
  let writeError: KishiError | undefined;
  const flush = (final: boolean): void => {
    while (writeError === undefined) {
      let run = 0;
      while (run < o.gamesPerChunk && done.has(nextWrite + run)) run++;
      if (run === 0 || (run < o.gamesPerChunk && !final && nextWrite + run < end)) return;
      const games = Array.from({ length: run }, (_, k) => done.get(nextWrite + k)!);
      const file = join(o.outDir, selfplayChunkName(nextWrite, nextWrite + run - 1));
      try {
        writeBytesAtomic(file, selfplayChunkBytes(spec, games, { ...meta, createdAt: new Date().toISOString() }));
      } catch (e) {
        writeError = new KishiError('ERR_IO', `selfplay: cannot write ${file} (${(e as Error).message})`);
        return;
      }
      files.push(file);
      for (const g of games) {
        summaries.push(g.summary);
        done.delete(g.summary.index);
      }
      nextWrite += run;
    }
  };

  // The games.
  let next = first;
  let stopped = false;
  let failure: KishiError | undefined;
  const stopAll = (): void => {
    if (stopped) return;
    stopped = true;
    for (const h of hosts) h.abort();
  };
  const onAbort = (): void => stopAll();
  o.signal?.addEventListener('abort', onAbort);
  if (o.signal?.aborted === true) stopAll();
  const loop = async (host: GameHost): Promise<void> => {
    while (!stopped && next < end) {
      const index = next++;
      let record: SelfplayGameRecord | undefined;
      try {
        record = await host.play(index);
      } catch (e) {
        failure ??= e instanceof KishiError ? e : new KishiError('ERR_SELFPLAY', (e as Error).stack ?? String(e));
        stopAll();
        return;
      }
      if (record === undefined) return;
      done.set(index, record);
      o.onGame?.(record.summary);
      flush(false);
      if (writeError !== undefined) stopAll();
    }
  };
  // Round-robin start, so that a short run spreads over all workers.
  await Promise.all(Array.from({ length: o.concurrentGames }, () => hosts.map((h) => loop(h))).flat());
  o.signal?.removeEventListener('abort', onAbort);
  flush(true);
  const dropped = done.size;
  const closed = await Promise.all(hosts.map((h) => h.close()));
  if (writeError !== undefined) return Result.err(writeError);
  if (failure !== undefined && !(o.signal?.aborted === true)) return Result.err(failure);

  const seconds = (performance.now() - start) / 1000;
  const sum = (f: (r: HostResult) => number): number => closed.reduce((a, r) => a + f(r), 0);
  const nnMs = sum((r) => r.stats.nnMs);
  const checks = summaries.filter((g) => g.falsePositiveCheck === true);
  return Result.ok({
    games: summaries.length,
    positions: summaries.reduce((a, g) => a + g.positions, 0),
    files,
    seconds,
    gamesPerHour: seconds > 0 ? (summaries.length / seconds) * 3600 : 0,
    resignFalsePositives: { checked: checks.length, wrong: checks.filter((g) => g.falsePositive === true).length },
    nnEvals: sum((r) => r.stats.nnEvals),
    nnMs,
    nnCalls: sum((r) => r.stats.nnCalls),
    cacheHits: sum((r) => r.stats.cacheHits),
    treeMs: Math.max(0, sum((r) => r.busyMs) - nnMs),
    resigned: summaries.filter((g) => g.resigned).length,
    summaries,
    aborted: o.signal?.aborted === true,
    dropped,
    nextGameIndex: nextWrite,
  });
}
