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

/** The loop's step outcome: go on with the next step, or stop because the run was interrupted. */
type StepOutcome = 'next' | 'aborted';

/** Loads the run's state, or starts a new one; Err when the settings cannot start or resume it. */
function openState(o: LoopOptions, deps: LoopDeps): Result<{ state: LoopState; resumed: boolean }, KishiError> {
  const dir = o.dir;
  mkdirSync(dir, { recursive: true });
  const loaded = loadState(dir);
  if (loaded.isErr) return Result.err(loaded.error);
  if (loaded.value === undefined) {
    const state = newState(o.settings);
    if (o.settings.init === undefined && o.settings.bootstrapGames <= 0 && o.settings.extraData.length === 0) {
      return Result.err(new KishiError('ERR_USAGE', 'alphazero: give --init (a net and its .pt), or --bootstrap-games N, or --bootstrap-data DIR'));
    }
    saveState(dir, state);
    deps.log(`new run in ${dir}: ${o.settings.game}, first step ${state.step}`);
    return Result.ok({ state, resumed: false });
  }
  const state = loaded.value;
  if (state.settings.game !== o.settings.game) return Result.err(new KishiError('ERR_USAGE', `${dir} holds a ${state.settings.game} run, not ${o.settings.game}`));
  state.settings = mergeSettings(state.settings, o.settings);
  deps.log(`resuming ${dir}: generation ${state.generation}, step ${state.step}, ${state.games.selfplay} self-play games on disk`);
  return Result.ok({ state, resumed: true });
}

/** Plays one batch of games from game index `first` (the bootstrap's alpha-beta games or self-play). */
type PlayGames = (games: number, first: number, onGame: (g: SelfplayGameSummary) => void) => Promise<Result<LoopSelfplayReport, KishiError>>;

/** One run of the loop in its directory: the state and the steps that advance it (one method per step). */
class LoopRun {
  private readonly dir: string;
  private readonly selfplayDir: string;
  private readonly bootstrapDir: string;
  private readonly reference: string;

  constructor(
    private readonly o: LoopOptions,
    private readonly deps: LoopDeps,
    private readonly state: LoopState,
  ) {
    this.dir = o.dir;
    this.selfplayDir = join(this.dir, SELFPLAY_DIR);
    this.bootstrapDir = join(this.dir, BOOTSTRAP_DIR);
    this.reference = join(this.dir, `reference-${state.settings.game}.knr`);
  }

  /** The run's settings (the state's: merged with the command line's resumable ones). */
  private get s(): LoopSettings {
    return this.state.settings;
  }

  /** Writes state.json atomically. */
  save(): void {
    saveState(this.dir, this.state);
  }

  /** Records an event (start, resume, interruption, gate command) in the state; saved with the next `save`. */
  event(what: string): void {
    this.state.events.push({ at: new Date().toISOString(), what });
  }

  /** A path relative to the run's directory, as the state records paths. */
  private rel(p: string): string {
    return relative(this.dir, p);
  }

  /** The run's directories and the reference chunk train.py reports its values on. */
  prepareDirs(): void {
    for (const d of ['nets', 'trainer', 'gate']) mkdirSync(join(this.dir, d), { recursive: true });
    if (!existsSync(this.reference)) writeFileSync(this.reference, referenceChunk(this.s.game));
  }

  /** The interruption recorded; the result of an interrupted run. */
  stop(): Result<LoopResult, KishiError> {
    const state = this.state;
    this.event(`interrupted at generation ${state.generation}, step ${state.step}`);
    this.save();
    this.deps.log(`interrupted: generation ${state.generation}, step ${state.step}; run the same command to resume`);
    return Result.ok({ state, stopped: 'aborted' });
  }

  /** Runs the step the state is in; `done` once the last generation's self-play would start. */
  async step(): Promise<Result<StepOutcome | 'done', KishiError>> {
    switch (this.state.step) {
      case 'bootstrap-data':
        return this.bootstrapData();
      case 'bootstrap-train':
        return this.bootstrapTrain();
      case 'selfplay':
        return this.selfplay();
      case 'train':
        return this.trainStep();
      case 'gate':
        return this.gate();
      case 'promote':
        return this.promoteStep();
    }
  }

  /** Moves the state to `step` and saves it. */
  private advance(step: LoopState['step']): Result<StepOutcome, KishiError> {
    this.state.step = step;
    this.save();
    return Result.ok('next');
  }

  /** Records the games on disk of the directory `label` names. */
  private setGames(label: string, games: number): void {
    if (label === 'selfplay') this.state.games.selfplay = games;
    else this.state.games.bootstrap = games;
  }

  /** Plays games with `play` until `outDir` holds `target` games. */
  private async fillGames(outDir: string, target: number, play: PlayGames, label: string): Promise<Result<'done' | 'aborted', KishiError>> {
    const state = this.state;
    for (;;) {
      mkdirSync(outDir, { recursive: true });
      removeStaleChunkTemps(outDir);
      const disk = scanSelfplayChunks(outDir);
      if (disk.problems.length > 0) return Result.err(new KishiError('ERR_STATE', `${outDir}: ${disk.problems.join('; ')}`));
      if (disk.games !== disk.nextGameIndex) {
        return Result.err(new KishiError('ERR_STATE', `${outDir}: ${disk.games} games but indices up to ${disk.nextGameIndex - 1} (a gap or an overlap)`));
      }
      this.setGames(label, disk.games);
      if (disk.games >= target) return Result.ok('done');
      if (signalled(this.o.signal)) return Result.ok('aborted');
      const want = target - disk.games;
      this.deps.log(`${label}: ${want} games from index ${disk.nextGameIndex} (${disk.games}/${target} on disk)`);
      const r = await play(want, disk.nextGameIndex, this.gameLogger(label, want));
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
      this.setGames(label, after.games);
      this.save();
      if (r.value.aborted === true || signalled(this.o.signal)) return Result.ok('aborted');
      if (after.games === disk.games) return Result.err(new KishiError('ERR_SELFPLAY', `${label} wrote no games`));
    }
  }

  /** A progress line every twentieth of the `want` games of a batch. */
  private gameLogger(label: string, want: number): (g: SelfplayGameSummary) => void {
    const started = Date.now();
    let done = 0;
    let positions = 0;
    const every = Math.max(1, Math.round(want / 20));
    return (g) => {
      done++;
      positions += g.positions;
      if (done % every === 0 || done === want) {
        const h = (Date.now() - started) / 3_600_000;
        this.deps.log(`  ${label} gen ${this.state.generation}: ${done}/${want} games, ${positions} positions, ${h > 0 ? (done / h).toFixed(0) : '?'} games/h`);
      }
    };
  }

  /** The training data: the extra directories, then bootstrap and self-play when they hold games. */
  private dataDirs(): string[] {
    const dirs = [...this.s.extraData.map((d) => resolve(d))];
    if (scanSelfplayChunks(this.bootstrapDir).games > 0) dirs.push(resolve(this.bootstrapDir));
    if (scanSelfplayChunks(this.selfplayDir).games > 0) dirs.push(resolve(this.selfplayDir));
    return dirs;
  }

  /** The train.py job of generation `g`. */
  private trainJob(g: number, steps: number, from: { init?: string; resume?: string }, method: string): TrainJob {
    const s = this.s;
    const dir = this.dir;
    return {
      data: this.dataDirs(),
      windowGames: s.windowGames,
      phaseWeights: s.phaseWeights,
      ...from,
      steps,
      batch: s.batch,
      lr: s.lr,
      ...(s.lrFinal !== undefined ? { lrFinal: s.lrFinal } : {}),
      weightDecay: s.weightDecay,
      valueLoss: s.valueLoss,
      valueMix: s.valueMix,
      mirror: s.mirror,
      threads: s.threads,
      seed: s.seed + g,
      blocks: s.blocks,
      filters: s.filters,
      checkpoint: resolve(dir, 'trainer', `gen-${g}.pt`),
      out: resolve(dir, 'nets', `gen-${g}.onnx`),
      ...(s.int8 ? { int8: resolve(dir, 'nets', `gen-${g}-int8.onnx`) } : {}),
      reference: resolve(this.reference),
      report: resolve(dir, 'nets', `gen-${g}.train.json`),
      method,
      notes: `kishi train alphazero, ${dir}, generation ${g}`,
    };
  }

  /** Runs a training job and records it in generation `g`. */
  private async train(g: number, job: TrainJob): Promise<Result<'done' | 'aborted', KishiError>> {
    const { deps, o, state } = this;
    deps.log(`train gen ${g}: ${job.steps} steps on ${job.data.map((d) => this.rel(d)).join(', ')} (window ${job.windowGames} games)`);
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
      report: this.rel(job.report),
    };
    rec.candidate = this.rel(job.out);
    state.trainer = { checkpoint: this.rel(job.checkpoint), steps: r.value.steps };
    deps.log(`train gen ${g}: done, ${r.value.steps} steps in all, ${r.value.samplesPerSecond} samples/s`);
    return Result.ok('done');
  }

  /** The state's reference to the best net after generation `g` became it. */
  private netRef(g: number, elo: number, half: number): NetRef {
    return {
      model: 'best.onnx',
      ...(existsSync(join(this.dir, 'best-int8.onnx')) ? { int8: 'best-int8.onnx' } : {}),
      generation: g,
      games: this.state.games.selfplay,
      steps: this.state.trainer?.steps ?? 0,
      elo,
      eloHalfWidth: half,
    };
  }

  /** Copies generation `g`'s nets to best.onnx (and best-int8.onnx). */
  private promote(g: number): void {
    const cand = join(this.dir, 'nets', `gen-${g}.onnx`);
    const int8 = join(this.dir, 'nets', `gen-${g}-int8.onnx`);
    // The INT8 file first: self-play prefers it, and a crash in between leaves the old pair or a newer INT8 with the old fp32.
    if (existsSync(int8)) copyNet(int8, join(this.dir, 'best-int8.onnx'));
    copyNet(cand, join(this.dir, 'best.onnx'));
  }

  /** Step bootstrap-data: alpha-beta games until the bootstrap directory holds `bootstrapGames`. */
  private async bootstrapData(): Promise<Result<StepOutcome, KishiError>> {
    const { o, deps } = this;
    const s = this.s;
    const r = await this.fillGames(
      this.bootstrapDir,
      s.bootstrapGames,
      (games, first, onGame) =>
        deps.bootstrap({
          game: s.game,
          outDir: this.bootstrapDir,
          games,
          firstGameIndex: first,
          nodes: s.bootstrapNodes,
          gamesPerChunk: s.gamesPerChunk,
          seed: s.seed,
          ...(s.maxPlies !== undefined ? { maxPlies: s.maxPlies } : {}),
          ...(o.signal !== undefined ? { signal: o.signal } : {}),
          onGame,
        }),
      'bootstrap',
    );
    if (r.isErr) return Result.err(r.error);
    if (r.value === 'aborted') return Result.ok('aborted');
    return this.advance('bootstrap-train');
  }

  /** Step bootstrap-train: generation 0, copied from `init` or trained on the bootstrap data, becomes the best net without a gate. */
  private async bootstrapTrain(): Promise<Result<StepOutcome, KishiError>> {
    const { dir, state } = this;
    const s = this.s;
    const rec = generationRecord(state, 0);
    const init = s.init;
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
      this.event(`bootstrap: started from ${init.model}`);
    } else {
      const job = this.trainJob(0, s.bootstrapSteps, {}, 'supervised bootstrap (alpha-beta data)');
      const r = await this.train(0, job);
      if (r.isErr) return Result.err(r.error);
      if (r.value === 'aborted') return Result.ok('aborted');
      (rec as { source?: string }).source = `trained ${s.bootstrapSteps} steps on ${BOOTSTRAP_PHASE} data (${state.games.bootstrap} games${s.extraData.length > 0 ? ` + ${s.extraData.join(', ')}` : ''})`;
    }
    this.promote(0);
    rec.promoted = true;
    state.best = this.netRef(0, 0, 0);
    state.curve = [firstEntry({ generation: 0, label: 'gen-0 (bootstrap)', games: 0, steps: state.trainer?.steps ?? 0 })];
    state.generation = 1;
    state.step = 'selfplay';
    this.save();
    this.deps.log(`bootstrap done: best net is generation 0 (${rec.source ?? ''})`);
    if (this.deps.plot !== false) await writeCurves(dir, state.curve, s.game);
    return Result.ok('next');
  }

  /** Step selfplay: games with the best net until the directory holds the generation's target; `done` past the last generation. */
  private async selfplay(): Promise<Result<StepOutcome | 'done', KishiError>> {
    const { o, deps, state } = this;
    const s = this.s;
    const g = state.generation;
    if (g > o.generations) {
      this.save();
      deps.log(`done: ${o.generations} generations; best net generation ${state.best?.generation ?? '?'}`);
      return Result.ok('done');
    }
    const rec = generationRecord(state, g);
    if (rec.targetGames === undefined) {
      rec.targetGames = scanSelfplayChunks(this.selfplayDir).games + s.gamesPerGeneration;
      this.save();
    }
    const best = state.best!;
    const model = playingNet(this.dir, best, s.int8);
    const r = await this.fillGames(
      this.selfplayDir,
      rec.targetGames,
      (games, first, onGame) =>
        deps.selfplay({
          game: s.game,
          model,
          outDir: this.selfplayDir,
          games,
          firstGameIndex: first,
          workers: s.workers,
          concurrentGames: s.concurrentGames,
          playouts: s.playouts,
          ...(s.fastPlayouts !== undefined ? { fastPlayouts: s.fastPlayouts, fullSearchShare: s.fullSearchShare ?? 0.25 } : {}),
          temperatureMoves: s.temperatureMoves,
          ...(s.resignValue !== undefined ? { resignValue: s.resignValue } : {}),
          ...(s.maxPlies !== undefined ? { maxPlies: s.maxPlies } : {}),
          gamesPerChunk: s.gamesPerChunk,
          seed: s.seed,
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
    if (r.value === 'aborted') return Result.ok('aborted');
    return this.advance('train');
  }

  /** Step train: train.py continues the trainer's checkpoint and exports the generation's candidate. */
  private async trainStep(): Promise<Result<StepOutcome, KishiError>> {
    const g = this.state.generation;
    const from = this.state.trainer !== undefined ? { resume: resolve(this.dir, this.state.trainer.checkpoint) } : {};
    const r = await this.train(g, this.trainJob(g, this.s.stepsPerGeneration, from, 'alphazero'));
    if (r.isErr) return Result.err(r.error);
    if (r.value === 'aborted') return Result.ok('aborted');
    return this.advance('gate');
  }

  /** Step gate: the candidate against the best (gate.ts), its decision recorded. */
  private async gate(): Promise<Result<StepOutcome, KishiError>> {
    const { dir, o, deps, state } = this;
    const s = this.s;
    const g = state.generation;
    const rec = generationRecord(state, g);
    const cand = join(dir, 'nets', `gen-${g}.onnx`);
    const candPlaying = playingNet(dir, { model: this.rel(cand), int8: join('nets', `gen-${g}-int8.onnx`) }, s.int8);
    const bestPlaying = playingNet(dir, state.best!, s.int8);
    const cfg = s.gate;
    deps.log(`gate gen ${g}: ${this.rel(candPlaying)} vs ${this.rel(bestPlaying)} (best: generation ${state.best!.generation}), ${cfg.mode} up to ${cfg.games} games at ${cfg.playouts} playouts`);
    const r = await deps.gate({
      game: s.game,
      candidate: candPlaying,
      best: bestPlaying,
      outDir: join(dir, 'gate', `gen-${g}`),
      config: cfg,
      seed: s.seed + g,
      ...(o.signal !== undefined ? { signal: o.signal } : {}),
    });
    if (r.isErr) {
      if (aborted(r.error)) return Result.ok('aborted');
      return Result.err(r.error);
    }
    const d = gateDecision(cfg, r.value);
    rec.gate = { passed: d.passed, reason: d.reason, result: r.value, config: cfg };
    if (r.value.command !== undefined) this.event(`gate gen ${g}: ${r.value.command}`);
    deps.log(`gate gen ${g}: ${d.passed ? 'PASSED' : 'failed'}: ${d.reason}`);
    return this.advance('promote');
  }

  /** Step promote: a passing candidate becomes the best net and the curve grows; then the next generation. */
  private async promoteStep(): Promise<Result<StepOutcome, KishiError>> {
    const { deps, state } = this;
    const g = state.generation;
    const rec = generationRecord(state, g);
    if (rec.gate?.passed === true) {
      this.promote(g);
      const prev = state.curve[state.curve.length - 1]!;
      const entry = promotedEntry(prev, rec.gate.result, { generation: g, label: `gen-${g}`, games: state.games.selfplay, steps: state.trainer?.steps ?? 0 });
      state.curve.push(entry);
      state.best = this.netRef(g, entry.elo, (entry.high - entry.low) / 2);
      rec.promoted = true;
      deps.log(`promoted generation ${g}: Elo ${entry.elo.toFixed(0)} [${entry.low.toFixed(0)}, ${entry.high.toFixed(0)}] against generation 0`);
      if (deps.plot !== false) {
        const notes = await writeCurves(this.dir, state.curve, this.s.game);
        if (notes.isOk) for (const n of notes.value) deps.log(`note: ${n}`);
      }
    } else {
      rec.promoted = false;
      deps.log(`generation ${g} not promoted; the best stays generation ${state.best?.generation ?? '?'}`);
    }
    state.generation = g + 1;
    state.step = 'selfplay';
    this.save();
    return Result.ok('next');
  }
}

/** Runs (or resumes) the loop in `o.dir`: the state opened, then one step after another until done or interrupted. */
export async function runLoop(o: LoopOptions, deps: LoopDeps): Promise<Result<LoopResult, KishiError>> {
  const opened = openState(o, deps);
  if (opened.isErr) return Result.err(opened.error);
  const { state, resumed } = opened.value;
  const run = new LoopRun(o, deps, state);
  if (o.command !== undefined) {
    run.event(`${resumed ? 'resumed' : 'started'}: ${o.command}`);
    run.save();
  }
  run.prepareDirs();
  while (true) {
    if (signalled(o.signal)) return run.stop();
    const r = await run.step();
    if (r.isErr) return Result.err(r.error);
    if (r.value === 'aborted') return run.stop();
    if (r.value === 'done') return Result.ok({ state, stopped: 'done' });
  }
}
