/**
 * The AlphaZero training loop (issue 10, item 3): bootstrap, then generations of
 *   self-play with the best net -> training (trainer/train.py) -> export -> gate -> promotion,
 * with all of its state in one directory (state.ts documents the layout) so that it resumes after
 * any interruption at the step it was in.
 *
 * Steps, each followed by an atomic write of state.json:
 *   bootstrap-data   (only with `bootstrapGames` > 0 and no `init`) alpha-beta games into
 *                    bootstrap/ (phase `bootstrap-alphabeta`), counted on disk, resumable;
 *   bootstrap-train  generation 0: either copies the `init` net (e.g. the shipped bootstrap net and
 *                    its .pt) or trains a new net on the bootstrap data; it becomes the first best
 *                    net (Elo 0 on the curve) without a gate;
 *   selfplay         generation g >= 1: games with the best net until the self-play directory holds
 *                    the generation's target (fixed when the generation starts); the games already
 *                    on disk are recounted from chunk headers, so an interrupted step goes on at the
 *                    next game index and never loses or duplicates a game (a half-written chunk is
 *                    a temporary file, removed);
 *   train            train.py continues the trainer's checkpoint (weights, optimizer, step) on the
 *                    sliding window over all chunk directories, exports nets/gen-g.onnx (+ INT8);
 *                    an interrupted training is rerun from the previous checkpoint;
 *   gate             candidate against the best (gate.ts); an interrupted match is replayed;
 *   promote          a passing candidate is copied (atomically) to best.onnx, the curve grows.
 * The trainer always continues its own latest checkpoint (AlphaGo Zero's arrangement): a rejected
 * candidate's training is not lost, only not used for self-play.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { referenceChunk } from './reference-inputs.js';
import { firstEntry, promotedEntry, writeCurves } from './curve.js';
import { gateDecision, type GateRunner } from './gate.js';
import { BOOTSTRAP_PHASE, type BootstrapRunner } from './loop-bootstrap.js';
import type { SelfplayOptions } from './selfplay.js';
import type { SelfplayGameSummary } from './selfplay-game.js';
import { removeStaleChunkTemps, scanSelfplayChunks } from './selfplay-chunks.js';
import { generationRecord, loadState, newState, RESUMABLE_SETTINGS, saveState, type LoopSettings, type LoopState, type NetRef } from './state.js';
import type { TrainJob, TrainRunner } from './train-process.js';

/** What the loop needs of self-play (src/learning/alphazero/selfplay.ts `runSelfplay`, or a fake). */
export type LoopSelfplayOptions = Pick<
  SelfplayOptions,
  | 'game' | 'model' | 'outDir' | 'games' | 'firstGameIndex' | 'workers' | 'concurrentGames' | 'playouts' | 'fastPlayouts'
  | 'fullSearchShare' | 'temperatureMoves' | 'resignValue' | 'maxPlies' | 'gamesPerChunk' | 'seed' | 'phase' | 'meta' | 'signal' | 'onGame'
>;
export interface LoopSelfplayReport {
  readonly games: number;
  readonly positions: number;
  readonly seconds: number;
  readonly gamesPerHour: number;
  readonly nnEvals?: number;
  readonly nnMs?: number;
  readonly resignFalsePositives?: { readonly checked: number; readonly wrong: number };
  readonly aborted?: boolean;
}
export type SelfplayRunner = (o: LoopSelfplayOptions) => Promise<Result<LoopSelfplayReport, KishiError>>;

export interface LoopDeps {
  readonly selfplay: SelfplayRunner;
  readonly bootstrap: BootstrapRunner;
  readonly train: TrainRunner;
  readonly gate: GateRunner;
  /** Progress lines. */
  readonly log: (line: string) => void;
  /** Writes the curve SVGs too (vega); default true. */
  readonly plot?: boolean;
}

export interface LoopOptions {
  readonly dir: string;
  /** Settings of a new run; for an existing run only `RESUMABLE_SETTINGS` are taken from here. */
  readonly settings: LoopSettings;
  /** Run until this many self-play generations are complete (a total, so the same command resumes to the same end). */
  readonly generations: number;
  readonly signal?: AbortSignal;
  /** The command line, recorded in the state's events at every start (provenance). */
  readonly command?: string;
  /** MCTS draw score of self-play (default 0: draws worth 0; the gates' own is `settings.gate.drawScore`). */
  readonly selfplayDrawScore?: number;
  /** Gumbel AlphaZero's root moves in self-play (`SelfplayGameSettings.gumbelActions`; default 0: PUCT). */
  readonly selfplayGumbel?: number;
}

export interface LoopResult {
  readonly state: LoopState;
  readonly stopped: 'done' | 'aborted';
}

const SELFPLAY_DIR = 'selfplay';
const BOOTSTRAP_DIR = 'bootstrap';

const aborted = (e: KishiError): boolean => e.code === 'ERR_ABORTED';
/** Read through a function: TypeScript would otherwise keep a narrowing across awaits. */
const signalled = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** Copies `src` to `dst` through a temporary file and a rename (readers see the old or the new file). */
export function copyFileAtomic(src: string, dst: string): void {
  const tmp = `${dst}.tmp-${process.pid}`;
  copyFileSync(src, tmp);
  renameSync(tmp, dst);
}

const base = (onnx: string): string => onnx.replace(/\.onnx$/, '');

/** Copies a net and its manifest (`x.onnx` + `x.manifest.json`); the manifest goes last. */
function copyNet(src: string, dst: string): void {
  copyFileAtomic(src, dst);
  if (existsSync(`${base(src)}.manifest.json`)) copyFileAtomic(`${base(src)}.manifest.json`, `${base(dst)}.manifest.json`);
}

/** The net self-play and gates use: the INT8 variant when the run uses INT8 and it exists. */
const playingNet = (dir: string, net: { model: string; int8?: string }, int8: boolean): string =>
  resolve(dir, int8 && net.int8 !== undefined && existsSync(resolve(dir, net.int8)) ? net.int8 : net.model);

function mergeSettings(old: LoopSettings, now: LoopSettings): LoopSettings {
  const out: Record<string, unknown> = { ...old };
  for (const k of RESUMABLE_SETTINGS) out[k] = now[k];
  return out as unknown as LoopSettings;
}

/** Runs (or resumes) the loop in `o.dir`. */
export async function runLoop(o: LoopOptions, deps: LoopDeps): Promise<Result<LoopResult, KishiError>> {
  const dir = o.dir;
  mkdirSync(dir, { recursive: true });
  const loaded = loadState(dir);
  if (loaded.isErr) return Result.err(loaded.error);
  let state: LoopState;
  if (loaded.value === undefined) {
    state = newState(o.settings);
    if (o.settings.init === undefined && o.settings.bootstrapGames <= 0 && o.settings.extraData.length === 0) {
      return Result.err(new KishiError('ERR_USAGE', 'alphazero: give --init (a net and its .pt), or --bootstrap-games N, or --bootstrap-data DIR'));
    }
    saveState(dir, state);
    deps.log(`new run in ${dir}: ${o.settings.game}, first step ${state.step}`);
  } else {
    state = loaded.value;
    if (state.settings.game !== o.settings.game) return Result.err(new KishiError('ERR_USAGE', `${dir} holds a ${state.settings.game} run, not ${o.settings.game}`));
    state.settings = mergeSettings(state.settings, o.settings);
    deps.log(`resuming ${dir}: generation ${state.generation}, step ${state.step}, ${state.games.selfplay} self-play games on disk`);
  }
  const s = (): LoopSettings => state.settings;
  const save = (): void => saveState(dir, state);
  const event = (what: string): void => {
    state.events.push({ at: new Date().toISOString(), what });
  };
  if (o.command !== undefined) {
    event(`${loaded.value === undefined ? 'started' : 'resumed'}: ${o.command}`);
    save();
  }
  const selfplayDir = join(dir, SELFPLAY_DIR);
  const bootstrapDir = join(dir, BOOTSTRAP_DIR);
  for (const d of ['nets', 'trainer', 'gate']) mkdirSync(join(dir, d), { recursive: true });
  const reference = join(dir, `reference-${s().game}.knr`);
  if (!existsSync(reference)) writeFileSync(reference, referenceChunk(s().game));
  const rel = (p: string): string => relative(dir, p);
  const stop = (): Result<LoopResult, KishiError> => {
    event(`interrupted at generation ${state.generation}, step ${state.step}`);
    save();
    deps.log(`interrupted: generation ${state.generation}, step ${state.step}; run the same command to resume`);
    return Result.ok({ state, stopped: 'aborted' });
  };

  /** Plays games with `play` until `outDir` holds `target` games. */
  const fillGames = async (
    outDir: string,
    target: number,
    play: (games: number, first: number, onGame: (g: SelfplayGameSummary) => void) => Promise<Result<LoopSelfplayReport, KishiError>>,
    label: string,
  ): Promise<Result<'done' | 'aborted', KishiError>> => {
    for (;;) {
      mkdirSync(outDir, { recursive: true });
      removeStaleChunkTemps(outDir);
      const disk = scanSelfplayChunks(outDir);
      if (disk.problems.length > 0) return Result.err(new KishiError('ERR_STATE', `${outDir}: ${disk.problems.join('; ')}`));
      if (disk.games !== disk.nextGameIndex) {
        return Result.err(new KishiError('ERR_STATE', `${outDir}: ${disk.games} games but indices up to ${disk.nextGameIndex - 1} (a gap or an overlap)`));
      }
      if (label === 'selfplay') state.games.selfplay = disk.games;
      else state.games.bootstrap = disk.games;
      if (disk.games >= target) return Result.ok('done');
      if (signalled(o.signal)) return Result.ok('aborted');
      const want = target - disk.games;
      deps.log(`${label}: ${want} games from index ${disk.nextGameIndex} (${disk.games}/${target} on disk)`);
      const started = Date.now();
      let done = 0;
      let positions = 0;
      const every = Math.max(1, Math.round(want / 20));
      const onGame = (g: SelfplayGameSummary): void => {
        done++;
        positions += g.positions;
        if (done % every === 0 || done === want) {
          const h = (Date.now() - started) / 3_600_000;
          deps.log(`  ${label} gen ${state.generation}: ${done}/${want} games, ${positions} positions, ${h > 0 ? (done / h).toFixed(0) : '?'} games/h`);
        }
      };
      const r = await play(want, disk.nextGameIndex, onGame);
      if (r.isErr) return aborted(r.error) ? Result.ok('aborted') : Result.err(r.error);
      const after = scanSelfplayChunks(outDir);
      const rec = generationRecord(state, state.generation);
      rec.selfplay.push({
        games: after.games - disk.games,
        positions: after.positions - disk.positions,
        firstGameIndex: disk.nextGameIndex,
        lastGameIndex: after.nextGameIndex - 1,
        seconds: r.value.seconds,
        gamesPerHour: r.value.gamesPerHour,
        ...(r.value.nnEvals !== undefined ? { nnEvals: r.value.nnEvals, nnMs: r.value.nnMs ?? 0 } : {}),
        ...(r.value.resignFalsePositives !== undefined ? { resignFalsePositives: r.value.resignFalsePositives } : {}),
      });
      if (label === 'selfplay') state.games.selfplay = after.games;
      else state.games.bootstrap = after.games;
      save();
      if (r.value.aborted === true || signalled(o.signal)) return Result.ok('aborted');
      if (after.games === disk.games) return Result.err(new KishiError('ERR_SELFPLAY', `${label} wrote no games`));
    }
  };

  const dataDirs = (): string[] => {
    const dirs = [...s().extraData.map((d) => resolve(d))];
    if (scanSelfplayChunks(bootstrapDir).games > 0) dirs.push(resolve(bootstrapDir));
    if (scanSelfplayChunks(selfplayDir).games > 0) dirs.push(resolve(selfplayDir));
    return dirs;
  };

  const trainJob = (g: number, steps: number, from: { init?: string; resume?: string }, method: string): TrainJob => ({
    data: dataDirs(),
    windowGames: s().windowGames,
    phaseWeights: s().phaseWeights,
    ...from,
    steps,
    batch: s().batch,
    lr: s().lr,
    ...(s().lrFinal !== undefined ? { lrFinal: s().lrFinal } : {}),
    weightDecay: s().weightDecay,
    valueLoss: s().valueLoss,
    valueMix: s().valueMix,
    mirror: s().mirror,
    threads: s().threads,
    seed: s().seed + g,
    blocks: s().blocks,
    filters: s().filters,
    checkpoint: resolve(dir, 'trainer', `gen-${g}.pt`),
    out: resolve(dir, 'nets', `gen-${g}.onnx`),
    ...(s().int8 ? { int8: resolve(dir, 'nets', `gen-${g}-int8.onnx`) } : {}),
    reference: resolve(reference),
    report: resolve(dir, 'nets', `gen-${g}.train.json`),
    method,
    notes: `kishi train alphazero, ${dir}, generation ${g}`,
  });

  const train = async (g: number, job: TrainJob): Promise<Result<'done' | 'aborted', KishiError>> => {
    deps.log(`train gen ${g}: ${job.steps} steps on ${job.data.map((d) => rel(d)).join(', ')} (window ${job.windowGames} games)`);
    const r = await deps.train(job, { ...(o.signal !== undefined ? { signal: o.signal } : {}), onLine: (l) => deps.log(`  train.py: ${l}`) });
    if (r.isErr) return aborted(r.error) ? Result.ok('aborted') : Result.err(r.error);
    const rec = generationRecord(state, g);
    rec.train = {
      steps: r.value.steps,
      stepsThisRun: r.value.stepsThisRun,
      samplesPerSecond: r.value.samplesPerSecond,
      seconds: r.value.secondsTrain,
      games: r.value.games,
      positions: r.value.positions,
      ...(r.value.holdoutBefore !== undefined ? { holdoutBefore: r.value.holdoutBefore } : {}),
      ...(r.value.holdoutAfter !== undefined ? { holdoutAfter: r.value.holdoutAfter } : {}),
      report: rel(job.report),
    };
    rec.candidate = rel(job.out);
    state.trainer = { checkpoint: rel(job.checkpoint), steps: r.value.steps };
    deps.log(`train gen ${g}: done, ${r.value.steps} steps in all, ${r.value.samplesPerSecond} samples/s`);
    return Result.ok('done');
  };

  const netRef = (g: number, elo: number, half: number): NetRef => ({
    model: 'best.onnx',
    ...(existsSync(join(dir, 'best-int8.onnx')) ? { int8: 'best-int8.onnx' } : {}),
    generation: g,
    games: state.games.selfplay,
    steps: state.trainer?.steps ?? 0,
    elo,
    eloHalfWidth: half,
  });

  const promote = (g: number): void => {
    const cand = join(dir, 'nets', `gen-${g}.onnx`);
    const int8 = join(dir, 'nets', `gen-${g}-int8.onnx`);
    // The INT8 file first: self-play prefers it, and a crash in between leaves the old pair or a newer INT8 with the old fp32.
    if (existsSync(int8)) copyNet(int8, join(dir, 'best-int8.onnx'));
    copyNet(cand, join(dir, 'best.onnx'));
  };

  while (true) {
    if (signalled(o.signal)) return stop();
    const g = state.generation;
    switch (state.step) {
      case 'bootstrap-data': {
        const target = s().bootstrapGames;
        const r = await fillGames(
          bootstrapDir,
          target,
          (games, first, onGame) =>
            deps.bootstrap({
              game: s().game,
              outDir: bootstrapDir,
              games,
              firstGameIndex: first,
              nodes: s().bootstrapNodes,
              gamesPerChunk: s().gamesPerChunk,
              seed: s().seed,
              ...(s().maxPlies !== undefined ? { maxPlies: s().maxPlies! } : {}),
              ...(o.signal !== undefined ? { signal: o.signal } : {}),
              onGame,
            }),
          'bootstrap',
        );
        if (r.isErr) return Result.err(r.error);
        if (r.value === 'aborted') return stop();
        state.step = 'bootstrap-train';
        save();
        break;
      }
      case 'bootstrap-train': {
        const rec = generationRecord(state, 0);
        const init = s().init;
        if (init !== undefined) {
          const model = resolve(init.model);
          if (!existsSync(model) || !existsSync(init.checkpoint)) return Result.err(new KishiError('ERR_USAGE', `--init needs ${init.model} and its checkpoint ${init.checkpoint}`));
          copyNet(model, join(dir, 'nets', 'gen-0.onnx'));
          const int8 = `${base(model)}-int8.onnx`;
          if (existsSync(int8)) copyNet(int8, join(dir, 'nets', 'gen-0-int8.onnx'));
          copyFileAtomic(init.checkpoint, join(dir, 'trainer', 'gen-0.pt'));
          // The trainer's step count restarts at 0 for this run (the .pt of a supervised net carries none).
          state.trainer = { checkpoint: join('trainer', 'gen-0.pt'), steps: 0 };
          rec.candidate = join('nets', 'gen-0.onnx');
          (rec as { source?: string }).source = `init: ${init.model} (checkpoint ${init.checkpoint})`;
          event(`bootstrap: started from ${init.model}`);
        } else {
          const job = trainJob(0, s().bootstrapSteps, {}, 'supervised bootstrap (alpha-beta data)');
          const r = await train(0, job);
          if (r.isErr) return Result.err(r.error);
          if (r.value === 'aborted') return stop();
          (rec as { source?: string }).source = `trained ${s().bootstrapSteps} steps on ${BOOTSTRAP_PHASE} data (${state.games.bootstrap} games${s().extraData.length > 0 ? ` + ${s().extraData.join(', ')}` : ''})`;
        }
        promote(0);
        rec.promoted = true;
        state.best = netRef(0, 0, 0);
        state.curve = [firstEntry({ generation: 0, label: 'gen-0 (bootstrap)', games: 0, steps: state.trainer?.steps ?? 0 })];
        state.generation = 1;
        state.step = 'selfplay';
        save();
        deps.log(`bootstrap done: best net is generation 0 (${rec.source ?? ''})`);
        if (deps.plot !== false) await writeCurves(dir, state.curve, s().game);
        break;
      }
      case 'selfplay': {
        if (g > o.generations) {
          save();
          deps.log(`done: ${o.generations} generations; best net generation ${state.best?.generation ?? '?'}`);
          return Result.ok({ state, stopped: 'done' });
        }
        const rec = generationRecord(state, g);
        if (rec.targetGames === undefined) {
          rec.targetGames = scanSelfplayChunks(selfplayDir).games + s().gamesPerGeneration;
          save();
        }
        const best = state.best!;
        const model = playingNet(dir, best, s().int8);
        const r = await fillGames(
          selfplayDir,
          rec.targetGames,
          (games, first, onGame) =>
            deps.selfplay({
              game: s().game,
              model,
              outDir: selfplayDir,
              games,
              firstGameIndex: first,
              workers: s().workers,
              concurrentGames: s().concurrentGames,
              playouts: s().playouts,
              ...(s().fastPlayouts !== undefined ? { fastPlayouts: s().fastPlayouts!, fullSearchShare: s().fullSearchShare ?? 0.25 } : {}),
              temperatureMoves: s().temperatureMoves,
              ...(s().resignValue !== undefined ? { resignValue: s().resignValue! } : {}),
              ...(s().maxPlies !== undefined ? { maxPlies: s().maxPlies! } : {}),
              gamesPerChunk: s().gamesPerChunk,
              seed: s().seed,
              ...(o.selfplayDrawScore !== undefined && o.selfplayDrawScore !== 0 ? { drawScore: o.selfplayDrawScore } : {}),
              ...(o.selfplayGumbel !== undefined && o.selfplayGumbel !== 0 ? { gumbelActions: o.selfplayGumbel } : {}),
              phase: 'selfplay',
              meta: { generation: g, bestGeneration: best.generation, loop: 'kishi train alphazero' },
              ...(o.signal !== undefined ? { signal: o.signal } : {}),
              onGame,
            }),
          'selfplay',
        );
        if (r.isErr) return Result.err(r.error);
        if (r.value === 'aborted') return stop();
        state.step = 'train';
        save();
        break;
      }
      case 'train': {
        const from = state.trainer !== undefined ? { resume: resolve(dir, state.trainer.checkpoint) } : {};
        const r = await train(g, trainJob(g, s().stepsPerGeneration, from, 'alphazero'));
        if (r.isErr) return Result.err(r.error);
        if (r.value === 'aborted') return stop();
        state.step = 'gate';
        save();
        break;
      }
      case 'gate': {
        const rec = generationRecord(state, g);
        const cand = join(dir, 'nets', `gen-${g}.onnx`);
        const candPlaying = playingNet(dir, { model: rel(cand), int8: join('nets', `gen-${g}-int8.onnx`) }, s().int8);
        const bestPlaying = playingNet(dir, state.best!, s().int8);
        const cfg = s().gate;
        deps.log(`gate gen ${g}: ${rel(candPlaying)} vs ${rel(bestPlaying)} (best: generation ${state.best!.generation}), ${cfg.mode} up to ${cfg.games} games at ${cfg.playouts} playouts`);
        const r = await deps.gate({
          game: s().game,
          candidate: candPlaying,
          best: bestPlaying,
          outDir: join(dir, 'gate', `gen-${g}`),
          config: cfg,
          seed: s().seed + g,
          ...(o.signal !== undefined ? { signal: o.signal } : {}),
        });
        if (r.isErr) {
          if (aborted(r.error)) return stop();
          return Result.err(r.error);
        }
        const d = gateDecision(cfg, r.value);
        rec.gate = { passed: d.passed, reason: d.reason, result: r.value, config: cfg };
        if (r.value.command !== undefined) event(`gate gen ${g}: ${r.value.command}`);
        deps.log(`gate gen ${g}: ${d.passed ? 'PASSED' : 'failed'}: ${d.reason}`);
        state.step = 'promote';
        save();
        break;
      }
      case 'promote': {
        const rec = generationRecord(state, g);
        if (rec.gate?.passed === true) {
          promote(g);
          const prev = state.curve[state.curve.length - 1]!;
          const entry = promotedEntry(prev, rec.gate.result, { generation: g, label: `gen-${g}`, games: state.games.selfplay, steps: state.trainer?.steps ?? 0 });
          state.curve.push(entry);
          state.best = netRef(g, entry.elo, (entry.high - entry.low) / 2);
          rec.promoted = true;
          deps.log(`promoted generation ${g}: Elo ${entry.elo.toFixed(0)} [${entry.low.toFixed(0)}, ${entry.high.toFixed(0)}] against generation 0`);
          if (deps.plot !== false) {
            const notes = await writeCurves(dir, state.curve, s().game);
            if (notes.isOk) for (const n of notes.value) deps.log(`note: ${n}`);
          }
        } else {
          rec.promoted = false;
          deps.log(`generation ${g} not promoted; the best stays generation ${state.best?.generation ?? '?'}`);
        }
        state.generation = g + 1;
        state.step = 'selfplay';
        save();
        break;
      }
    }
  }
}
