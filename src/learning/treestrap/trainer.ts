/**
 * The TreeStrap training run (Veness et al. 2009, section 6.0.1), the same for chess and shogi:
 *
 * 1. Start or resume: `<out>/checkpoint.json` holds the weights, the optimiser state, the totals
 *    and the learning curve; when it exists the run continues after its last finished game (the
 *    settings are the checkpoint's; explicitly different ones are refused). Otherwise theta starts
 *    as small random values (uniform in +-1 centipawn, seeded) or the shipped material weights.
 * 2. Games of self-play from the small opening book (game i always gets the same opening), each
 *    move a learning step (training-search.ts) and then the greedy move (self-play.ts).
 * 3. After every `checkpointEvery` games: checkpoint and `<out>/weights.json` (a weights file with
 *    provenance), both written atomically; one line per game in `<out>/games.jsonl`.
 * 4. At the evaluation points (1, 2, 4, 8, ... games, or every N, and at the end): matches against
 *    the fixed references through the match runner (evaluation.ts), appended to the curve in the
 *    checkpoint and to `<out>/curve.json` (a `kishi-curve` file, plotted by `kishi plot`); a copy of
 *    the weights at that point goes to `<out>/snapshots/games-NNNNN.json`.
 *
 * Everything a game does depends only on the weights at its start, the seed and the game's index
 * when moves are limited by nodes or depth (killers and history are reset every game), so a
 * resumed run plays exactly the games the uninterrupted run would have played.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import type { WeightsProvenance } from '../../eval/linear/weights.js';
import { stringifyResultJson } from '../../core/json.js';
import { trainingGamesChart } from '../../plot/specs.js';
import { seededRng } from '../../core/rng.js';
import { featureSetOf } from '../../eval/linear/game-features.js';
import { loadTrainableNetwork } from '../nnue/network-files.js';
import { createTrainingAdapter, type StartNetwork } from './adapter-factory.js';
import type { TrainingAdapter } from './training-adapter.js';
import { loadCheckpoint, saveCheckpoint, writeFileAtomic, type CheckpointBody, type CurvePointRecord, type PairingRecord, type TrainSettings } from './checkpoint.js';
import { fitSnapshots, snapshotName, type SnapshotRating } from './ratings.js';
import { curvePoint, evaluationMatch } from './evaluation.js';
import { RANDOM_INIT_SCALE, type TreestrapMethod } from './methods.js';
import { playTrainingGame, type TrainingGameResult } from './self-play.js';
import type { TableWalk, UpdateSet } from './table-delta.js';
import { loadTrainingBook, openingFor, type TrainingBook } from '../../books/training-book.js';
import { TrainingSearch } from './training-search.js';

/**
 * Evaluation opponents: `previous` (the weights at the last evaluation point, the untrained ones at
 * the first), `untrained` (the initial weights: the random ones, or the material ones with
 * `--init material`), `material` (the shipped material-only weights).
 */
export const REFERENCES = ['previous', 'untrained', 'material'] as const;
export type Reference = (typeof REFERENCES)[number];

export interface EvaluationPlan {
  /** `log`: after 1, 2, 4, 8, ... games; a number N: every N games; 0: only at the end. Always at the end. */
  readonly every: 'log' | number;
  readonly games: number;
  readonly nodes: number;
  readonly references: readonly Reference[];
  /** Full moves after which an evaluation game is drawn. */
  readonly maxMoves: number;
}

export interface TrainerOptions {
  readonly settings: TrainSettings;
  /** Settings the user gave explicitly: a resumed run must agree with them. */
  readonly explicit: Partial<TrainSettings>;
  /** Total training games to reach (a resumed run counts the games already played). */
  readonly games: number;
  readonly outDir: string;
  readonly command: string;
  readonly commit?: string;
  readonly checkpointEvery: number;
  readonly evaluation: EvaluationPlan;
  /** Stop (after a finished game, checkpointed) once this much wall time has passed in this process, seconds. */
  readonly timeLimitS?: number;
  readonly onProgress?: (p: TrainerProgress) => void;
  readonly onLog?: (line: string) => void;
  /** Checked between games. */
  readonly shouldStop?: () => boolean;
}

export interface TrainerProgress {
  readonly gamesDone: number;
  readonly gamesTarget: number;
  /** Violated entries (positions whose update moved the weights) per second of training, this process. */
  readonly positionsPerSecond: number;
  /** Entries visited per second. */
  readonly visitedPerSecond: number;
  /** The Bradley-Terry rating of the latest snapshot, if any. */
  readonly latest?: { readonly x: number; readonly series: string; readonly elo: number; readonly low: number; readonly high: number; readonly games: number };
  readonly phase: 'training' | 'evaluating';
  readonly lastGame?: TrainingGameResult;
}

export interface TrainingReport {
  readonly checkpoint: CheckpointBody;
  readonly resumed: boolean;
  readonly stoppedEarly: boolean;
  readonly bookSource: string;
}

const CHECKPOINT = 'checkpoint.json';

/** Settings fields that must agree between a checkpoint and an explicit command line. */
const FIXED_KEYS: readonly (keyof TrainSettings)[] = [
  'game', 'method', 'init', 'eta', 'minDepth', 'walk', 'update', 'depth', 'nodes', 'clock', 'maxPlies', 'hashMb', 'seed', 'book', 'bookSize', 'bookPlies', 'frozen', 'errorClip', 'model', 'network',
];

/** The start network of a `model: nnue` run (its float master copy when one belongs to the file). */
const startNetwork = (s: TrainSettings): Result<StartNetwork | undefined, KishiError> => {
  if ((s.model ?? 'linear') === 'linear') return Result.ok(undefined);
  if (s.network === undefined) return Result.err(new KishiError('ERR_USAGE', 'model nnue needs the start network file'));
  const t = loadTrainableNetwork(s.network, s.game);
  if (t.isErr) return Result.err(t.error);
  return Result.ok({ start: t.value.trainable, manifest: t.value.loaded.manifest });
};

const isDue = (every: 'log' | number, games: number): boolean => {
  if (every === 'log') return games > 0 && (games & (games - 1)) === 0;
  return every > 0 && games % every === 0;
};

/** Indices of the frozen features: exact names, or prefixes ending in `*` (`material.*`). */
export const frozenIndices = (names: readonly string[], patterns: readonly string[]): Result<number[], KishiError> => {
  const out = new Set<number>();
  for (const p of patterns) {
    const prefix = p.endsWith('*') ? p.slice(0, -1) : undefined;
    let found = false;
    names.forEach((n, i) => {
      if (prefix !== undefined ? n.startsWith(prefix) : n === p) {
        out.add(i);
        found = true;
      }
    });
    if (!found) return Result.err(new KishiError('ERR_USAGE', `--freeze: no feature matches ${JSON.stringify(p)}`));
  }
  return Result.ok([...out].sort((a, b) => a - b));
};

/** Uniform small random weights in +-RANDOM_INIT_SCALE (seeded). */
export const randomTheta = (size: number, seed: number): Float64Array => {
  const rng = seededRng(seed ^ 0x7ee57a9);
  const t = new Float64Array(size);
  for (let i = 0; i < size; i++) t[i] = (2 * rng() - 1) * RANDOM_INIT_SCALE;
  return t;
};

/** Step 1 on resume: the checkpoint's body, refused when the command line explicitly says otherwise than it. */
const checkResumed = (ckFile: string, body: CheckpointBody, explicit: Partial<TrainSettings>): Result<CheckpointBody, KishiError> => {
  for (const key of FIXED_KEYS) {
    const given = explicit[key];
    if (given === undefined) continue;
    if (JSON.stringify(given) !== JSON.stringify(body.settings[key])) {
      return Result.err(
        new KishiError('ERR_CHECKPOINT_MISMATCH', `${ckFile} was made with ${key} = ${JSON.stringify(body.settings[key])}, the command line says ${JSON.stringify(given)}; use another --out to start a new run`),
      );
    }
  }
  return Result.ok(body);
};

/** Step 1 on a new run: the body of a run starting from random or material weights (or the start network's). */
const newBody = (o: TrainerOptions, network: StartNetwork | undefined): CheckpointBody => {
  const probe = network !== undefined ? createTrainingAdapter(o.settings.game, network.start.theta.slice(), network) : createTrainingAdapter(o.settings.game, new Float64Array(featureSetOf(o.settings.game).size));
  // A network starts from itself (its master copy): random weights would throw the supervised net away.
  const theta = o.settings.init === 'material' || network !== undefined ? probe.materialTheta() : randomTheta(probe.featureSet.size, o.settings.seed);
  // Frozen features start (and stay) at 0 when the start is random.
  const fixed = frozenIndices(probe.featureSet.names, o.settings.frozen);
  if (o.settings.init === 'random' && fixed.isOk) for (const i of fixed.value) theta[i] = 0;
  const now = new Date().toISOString();
  return {
    settings: o.settings,
    featureSet: probe.featureSet.version,
    features: probe.featureSet.size,
    command: o.command,
    startedAt: now,
    updatedAt: now,
    gamesDone: 0,
    optimizer: { kind: 'sgd', eta: o.settings.eta, steps: 0 },
    totals: { searches: 0, nodes: 0, visited: 0, violated: 0, squaredError: 0, trainingMs: 0, evaluationMs: 0, firstWins: 0, draws: 0, secondWins: 0 },
    theta: Array.from(theta),
    initialTheta: Array.from(theta),
    curve: [],
    pairings: [],
  };
};

/** Step 1: the checkpoint resumed, or a new run's body; with the start network of a `model: nnue` run. */
const startOrResume = (o: TrainerOptions, ckFile: string): Result<{ body: CheckpointBody; resumed: boolean; network: StartNetwork | undefined }, KishiError> => {
  const loaded = loadCheckpoint(ckFile);
  if (loaded.isErr) return Result.err(loaded.error);
  const network = startNetwork(loaded.value?.settings ?? o.settings);
  if (network.isErr) return Result.err(network.error);
  if (loaded.value === undefined) return Result.ok({ body: newBody(o, network.value), resumed: false, network: network.value });
  const body = checkResumed(ckFile, loaded.value, o.explicit);
  if (body.isErr) return Result.err(body.error);
  return Result.ok({ body: body.value, resumed: true, network: network.value });
};

/** A game's totals added to the body's. */
const withGame = (body: CheckpointBody, g: TrainingGameResult, ms: number): CheckpointBody => {
  const t = body.totals;
  return {
    ...body,
    gamesDone: body.gamesDone + 1,
    optimizer: { ...body.optimizer, steps: body.optimizer.steps + g.searches },
    totals: {
      ...t,
      searches: t.searches + g.searches,
      nodes: t.nodes + g.nodes,
      visited: t.visited + g.stats.visited,
      violated: t.violated + g.stats.violated,
      squaredError: t.squaredError + g.stats.squaredError,
      trainingMs: t.trainingMs + ms,
      firstWins: t.firstWins + (g.winner === 'first' ? 1 : 0),
      draws: t.draws + (g.winner === undefined ? 1 : 0),
      secondWins: t.secondWins + (g.winner === 'second' ? 1 : 0),
    },
  };
};

/** The line of `games.jsonl` of game `number` (1-based). */
const gameLine = (number: number, g: TrainingGameResult, ms: number): string =>
  `${JSON.stringify({
    game: number,
    opening: g.opening,
    result: g.result,
    reason: g.reason,
    plies: g.plies,
    nodes: g.nodes,
    visited: g.stats.visited,
    violated: g.stats.violated,
    rmsError: g.stats.visited > 0 ? Math.sqrt(g.stats.squaredError / g.stats.visited) : 0,
    searchMs: Math.round(g.searchMs),
    updateMs: Math.round(g.updateMs),
    ms: Math.round(ms),
  })}\n`;

/** A started run: the weights being trained, the search that trains them, and the files they are written to (steps 2-4). */
class TreestrapRun {
  private readonly s: TrainSettings;
  private readonly theta: Float64Array;
  private readonly initialTheta: Float64Array;
  /** Name of the initial weights in the pairings: `material` when they are the material weights. */
  private readonly initialName: string;
  private readonly ratingLabel: string;
  private sessionViolated = 0;
  private sessionVisited = 0;
  private sessionMs = 0;

  private constructor(
    private readonly o: TrainerOptions,
    private readonly ckFile: string,
    public body: CheckpointBody,
    theta: Float64Array,
    private readonly adapter: TrainingAdapter,
    readonly book: TrainingBook,
    private readonly search: TrainingSearch,
  ) {
    this.s = body.settings;
    this.theta = theta;
    this.initialTheta = Float64Array.from(body.initialTheta);
    this.initialName = this.s.init === 'material' ? 'material' : 'untrained';
    this.ratingLabel = `rating (${this.initialName} = 0)`;
  }

  /** The adapter, book and search of the body's settings; Err when the checkpoint is of another feature set or the book is empty. */
  static prepare(o: TrainerOptions, ckFile: string, body: CheckpointBody, network: StartNetwork | undefined): Result<TreestrapRun, KishiError> {
    const s = body.settings;
    const theta = Float64Array.from(body.theta);
    const adapter = createTrainingAdapter(s.game, theta, network);
    if (adapter.featureSet.version !== body.featureSet || adapter.featureSet.size !== body.features) {
      return Result.err(new KishiError('ERR_CHECKPOINT', `${ckFile} holds weights for feature set ${body.featureSet} (${body.features}), this build has ${adapter.featureSet.version} (${adapter.featureSet.size})`));
    }
    const frozen = frozenIndices(adapter.featureSet.names, s.frozen);
    if (frozen.isErr) return Result.err(frozen.error);
    const book = loadTrainingBook(s.game, s.book === 'default' ? undefined : s.book, s.bookSize, s.bookPlies);
    if (book.isErr) return Result.err(book.error);
    if (book.value.openings.length === 0) return Result.err(new KishiError('ERR_OPENING', 'the opening book is empty'));
    const search = new TrainingSearch(adapter, {
      method: s.method as TreestrapMethod,
      eta: s.eta,
      minDepth: s.minDepth,
      hashMb: s.hashMb,
      walk: s.walk as TableWalk,
      update: (s.update ?? 'all') as UpdateSet,
      ...(s.errorClip !== undefined ? { errorClip: s.errorClip } : {}),
      frozen: frozen.value,
    });
    return Result.ok(new TreestrapRun(o, ckFile, body, theta, adapter, book.value, search));
  }

  /** The provenance written into every weights file. */
  private provenance(): WeightsProvenance {
    const { s, body, o } = this;
    return {
      method: s.method,
      command: body.command,
      games: body.gamesDone,
      trainingSeconds: Math.round(body.totals.trainingMs / 1000),
      ...(o.commit !== undefined ? { commit: o.commit } : {}),
      date: new Date().toISOString().slice(0, 10),
      notes: [
        'TreeStrap trainer (src/learning/treestrap)',
        `init ${s.init}`,
        `eta ${s.eta}`,
        `d ${s.minDepth}`,
        `entries updated: ${s.update ?? 'all'}`,
        ...(s.errorClip !== undefined ? [`error clipped to +-${s.errorClip}`] : []),
        [s.clock !== undefined ? `Fischer ${s.clock.baseMs / 1000}+${s.clock.incMs / 1000} s` : '', s.depth !== undefined ? `depth ${s.depth}` : '', s.nodes !== undefined ? `nodes ${s.nodes}` : '']
          .filter((x) => x !== '')
          .join(', ') + ' per move',
        `${body.totals.searches} searches`,
        `seed ${s.seed}`,
        `not learned: ${s.frozen.length > 0 ? s.frozen.join(', ') : 'none'}`,
      ].join('; '),
    };
  }

  /** The model files of theta at `base` + each file's suffix (`weights.json`; or `weights.bin` with its manifest and master copy). */
  private writeWeights(base: string): void {
    for (const f of this.adapter.modelFiles(this.theta, this.provenance())) writeFileAtomic(`${base}${f.suffix}`, f.data);
  }

  /** The checkpoint and `weights.*`, both atomically. */
  save(): void {
    this.body = { ...this.body, theta: Array.from(this.theta), updatedAt: new Date().toISOString() };
    saveCheckpoint(this.ckFile, this.body);
    this.writeWeights(join(this.o.outDir, 'weights'));
  }

  /** `curve.json`: the snapshots' ratings and the evaluation matches. */
  writeCurve(): void {
    const { s, body } = this;
    const rated = this.ratings().map((r) => ({ x: r.x, series: this.ratingLabel, elo: r.rating, low: r.low, high: r.high, games: r.games }));
    // the chart settings go with the curve, so that the run's curve.svg and `kishi plot curve.json` are one chart
    const chart = trainingGamesChart(`${s.method} (${s.game}, init ${s.init})`);
    const curve = { kind: 'kishi-curve', x: 'training games', chart, method: s.method, game: s.game, init: s.init, points: [...rated, ...body.curve] };
    writeFileSync(join(this.o.outDir, 'curve.json'), stringifyResultJson(curve));
  }

  /** Reports progress (this process's rates, the latest snapshot's rating). */
  progress(phase: TrainerProgress['phase'], lastGame?: TrainingGameResult): void {
    const { body } = this;
    const r = body.lastSnapshot !== undefined ? this.ratings().find((x) => x.x === body.lastSnapshot!.x) : undefined;
    const latest = r !== undefined ? { x: r.x, series: this.ratingLabel, elo: r.rating, low: r.low, high: r.high, games: r.games } : undefined;
    this.o.onProgress?.({
      gamesDone: body.gamesDone,
      gamesTarget: this.o.games,
      positionsPerSecond: this.sessionMs > 0 ? (this.sessionViolated * 1000) / this.sessionMs : 0,
      visitedPerSecond: this.sessionMs > 0 ? (this.sessionVisited * 1000) / this.sessionMs : 0,
      ...(latest !== undefined ? { latest } : {}),
      phase,
      ...(lastGame !== undefined ? { lastGame } : {}),
    });
  }

  /** The Bradley-Terry ratings of the snapshots from every evaluation match so far. */
  private ratings(): SnapshotRating[] {
    return this.body.pairings.length > 0 ? fitSnapshots([{ prefix: '', pairings: this.body.pairings }], this.initialName, 0).snapshots : [];
  }

  /** The evaluation opponents of the plan's references, by name. */
  private opponents(): Map<string, Float64Array> {
    const { body, initialName, initialTheta } = this;
    const opponents = new Map<string, Float64Array>();
    for (const ref of this.o.evaluation.references) {
      if (ref === 'previous') {
        if (body.lastSnapshot !== undefined) opponents.set(snapshotName(body.lastSnapshot.x), Float64Array.from(body.lastSnapshot.theta));
        else opponents.set(initialName, initialTheta);
      } else if (ref === 'untrained') opponents.set(initialName, initialTheta);
      else opponents.set('material', this.adapter.materialTheta());
    }
    return opponents;
  }

  /** Step 4: matches against the references, a snapshot of the weights, the curve and a checkpoint (once per evaluation point). */
  async evaluate(): Promise<void> {
    const plan = this.o.evaluation;
    const { s, adapter, theta, o } = this;
    if (plan.references.length === 0 || plan.games <= 0) return;
    if (this.body.lastSnapshot?.x === this.body.gamesDone) return;
    this.progress('evaluating');
    const e0 = performance.now();
    const gamesDone = this.body.gamesDone;
    const me = snapshotName(gamesDone);
    const points: CurvePointRecord[] = [];
    const pairings: PairingRecord[] = [];
    for (const [name, refTheta] of this.opponents()) {
      const m = await evaluationMatch(
        s.game,
        { name: me, ...adapter.enginePlayer(theta) },
        { name, ...adapter.enginePlayer(refTheta) },
        { games: plan.games, nodes: plan.nodes, openings: this.book.openings, seed: s.seed + 1000 + gamesDone, maxMoves: plan.maxMoves },
      );
      const p = curvePoint(m, gamesDone, `vs ${name.startsWith('games-') ? 'previous' : name}`);
      points.push(p);
      pairings.push({ player: me, opponent: name, wins: p.wins, draws: p.draws, losses: p.losses });
      this.log(`after ${gamesDone} games: vs ${name} +${p.wins} =${p.draws} -${p.losses}, Elo ${fmt(p.elo)} [${fmt(p.low)}, ${fmt(p.high)}]`);
    }
    mkdirSync(join(o.outDir, 'snapshots'), { recursive: true });
    this.writeWeights(join(o.outDir, 'snapshots', `games-${String(gamesDone).padStart(5, '0')}`));
    this.body = {
      ...this.body,
      curve: [...this.body.curve, ...points],
      pairings: [...this.body.pairings, ...pairings],
      lastSnapshot: { x: gamesDone, theta: Array.from(theta) },
      totals: { ...this.body.totals, evaluationMs: this.body.totals.evaluationMs + performance.now() - e0 },
    };
    const r = this.ratings().find((x) => x.x === gamesDone);
    if (r !== undefined) this.log(`after ${gamesDone} games: ${this.ratingLabel} ${fmt(r.rating)} [${fmt(r.low)}, ${fmt(r.high)}]`);
    this.writeCurve();
    this.save();
  }

  /** A line of the run's log. */
  private log(line: string): void {
    this.o.onLog?.(line);
  }

  /** Step 2: the next training game (its opening fixed by the seed and its index) and its totals counted; the game and its time, ms. */
  playNextGame(): Result<{ readonly game: TrainingGameResult; readonly ms: number }, KishiError> {
    const s = this.s;
    const index = this.body.gamesDone;
    const opening = openingFor(this.book, s.seed, index);
    const g0 = performance.now();
    const r = playTrainingGame(this.search, this.adapter, opening, {
      limits: { ...(s.depth !== undefined ? { depth: s.depth } : {}), ...(s.nodes !== undefined ? { nodes: s.nodes } : {}), ...(s.clock !== undefined ? { clock: s.clock } : {}) },
      maxPlies: s.maxPlies,
    });
    if (r.isErr) return Result.err(r.error);
    const g = r.value;
    const ms = performance.now() - g0;
    this.sessionMs += ms;
    this.sessionViolated += g.stats.violated;
    this.sessionVisited += g.stats.visited;
    this.body = withGame(this.body, g, ms);
    return Result.ok({ game: g, ms });
  }

  /** Appends game `number`'s line to `games.jsonl`. */
  appendGameLine(number: number, g: TrainingGameResult, ms: number): void {
    appendFileSync(join(this.o.outDir, 'games.jsonl'), gameLine(number, g, ms));
  }
}

/**
 * Steps 2-4 until `o.games` games are done: a game at a time, a checkpoint every `checkpointEvery`
 * games and after the last, an evaluation at each due point. True when the time limit or
 * `shouldStop` ended it early (checked between games, after yielding to the event loop).
 */
const trainGames = async (o: TrainerOptions, run: TreestrapRun, t0: number): Promise<Result<boolean, KishiError>> => {
  let sinceCheckpoint = 0;
  run.progress('training');
  while (run.body.gamesDone < o.games) {
    await new Promise((r) => setImmediate(r));
    if (o.shouldStop?.() === true || (o.timeLimitS !== undefined && performance.now() - t0 > o.timeLimitS * 1000)) {
      if (sinceCheckpoint > 0) run.save();
      return Result.ok(true);
    }
    const r = run.playNextGame();
    if (r.isErr) return Result.err(r.error);
    const { game, ms } = r.value;
    if (++sinceCheckpoint >= o.checkpointEvery || run.body.gamesDone >= o.games) {
      run.save();
      sinceCheckpoint = 0;
    }
    run.appendGameLine(run.body.gamesDone, game, ms);
    run.progress('training', game);
    if (isDue(o.evaluation.every, run.body.gamesDone)) {
      if (sinceCheckpoint > 0) run.save();
      sinceCheckpoint = 0;
      await run.evaluate();
      run.progress('training');
    }
  }
  if (sinceCheckpoint > 0) run.save();
  return Result.ok(false);
};

/** Runs steps 1-4 until `o.games` games are done, or the time limit or `shouldStop` ends the run early. */
export const runTraining = async (o: TrainerOptions): Promise<Result<TrainingReport, KishiError>> => {
  const t0 = performance.now();
  mkdirSync(o.outDir, { recursive: true });
  const ckFile = join(o.outDir, CHECKPOINT);
  const started = startOrResume(o, ckFile);
  if (started.isErr) return Result.err(started.error);
  const { resumed } = started.value;
  const prepared = TreestrapRun.prepare(o, ckFile, started.value.body, started.value.network);
  if (prepared.isErr) return Result.err(prepared.error);
  const run = prepared.value;
  const s = run.body.settings;
  o.onLog?.(`${resumed ? 'resuming' : 'starting'} ${s.method} (${s.game}, init ${s.init}, eta ${s.eta}, d ${s.minDepth}) at game ${run.body.gamesDone} of ${o.games}; book ${run.book.source} (${run.book.openings.length} openings)`);

  // Steps 2-4. Games, checkpoints, evaluations.
  if (!resumed) {
    run.save();
    writeFileSync(join(o.outDir, 'games.jsonl'), '');
  }
  const played = await trainGames(o, run, t0);
  if (played.isErr) return Result.err(played.error);
  const stoppedEarly = played.value;
  if (!stoppedEarly && run.body.gamesDone >= o.games) {
    await run.evaluate();
    run.writeCurve();
  }
  return Result.ok({ checkpoint: run.body, resumed, stoppedEarly, bookSource: run.book.source });
};

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : x > 0 ? '+inf' : '-inf');
