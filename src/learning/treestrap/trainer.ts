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
import { loadCheckpoint, saveCheckpoint, writeFileAtomic, type CheckpointBody, type CurvePointRecord, type PairingRecord, type TrainSettings } from './checkpoint.js';
import { fitSnapshots, snapshotName, type SnapshotRating } from './ratings.js';
import { curvePoint, evaluationMatch } from './evaluation.js';
import { RANDOM_INIT_SCALE, type TreestrapMethod } from './methods.js';
import { playTrainingGame, type TrainingGameResult } from './self-play.js';
import type { TableWalk, UpdateSet } from './table-delta.js';
import { loadTrainingBook, openingFor } from '../../books/training-book.js';
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

export const runTraining = async (o: TrainerOptions): Promise<Result<TrainingReport, KishiError>> => {
  const t0 = performance.now();
  const log = o.onLog ?? (() => {});
  mkdirSync(o.outDir, { recursive: true });
  const ckFile = join(o.outDir, CHECKPOINT);

  // Step 1. Start or resume.
  const loaded = loadCheckpoint(ckFile);
  if (loaded.isErr) return Result.err(loaded.error);
  let body: CheckpointBody;
  const resumed = loaded.value !== undefined;
  const network = startNetwork(loaded.value?.settings ?? o.settings);
  if (network.isErr) return Result.err(network.error);
  if (loaded.value !== undefined) {
    body = loaded.value;
    for (const key of FIXED_KEYS) {
      const given = o.explicit[key];
      if (given === undefined) continue;
      if (JSON.stringify(given) !== JSON.stringify(body.settings[key])) {
        return Result.err(
          new KishiError('ERR_CHECKPOINT_MISMATCH', `${ckFile} was made with ${key} = ${JSON.stringify(body.settings[key])}, the command line says ${JSON.stringify(given)}; use another --out to start a new run`),
        );
      }
    }
  } else {
    const probe = network.value !== undefined ? createTrainingAdapter(o.settings.game, network.value.start.theta.slice(), network.value) : createTrainingAdapter(o.settings.game, new Float64Array(featureSetOf(o.settings.game).size));
    // A network starts from itself (its master copy): random weights would throw the supervised net away.
    const theta = o.settings.init === 'material' || network.value !== undefined ? probe.materialTheta() : randomTheta(probe.featureSet.size, o.settings.seed);
    // Frozen features start (and stay) at 0 when the start is random.
    const fixed = frozenIndices(probe.featureSet.names, o.settings.frozen);
    if (o.settings.init === 'random' && fixed.isOk) for (const i of fixed.value) theta[i] = 0;
    const now = new Date().toISOString();
    body = {
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
  }
  const s = body.settings;
  const theta = Float64Array.from(body.theta);
  const adapter = createTrainingAdapter(s.game, theta, network.value);
  if (adapter.featureSet.version !== body.featureSet || adapter.featureSet.size !== body.features) {
    return Result.err(new KishiError('ERR_CHECKPOINT', `${ckFile} holds weights for feature set ${body.featureSet} (${body.features}), this build has ${adapter.featureSet.version} (${adapter.featureSet.size})`));
  }
  const initialTheta = Float64Array.from(body.initialTheta);
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
  log(`${resumed ? 'resuming' : 'starting'} ${s.method} (${s.game}, init ${s.init}, eta ${s.eta}, d ${s.minDepth}) at game ${body.gamesDone} of ${o.games}; book ${book.value.source} (${book.value.openings.length} openings)`);

  const provenance = (): WeightsProvenance => ({
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
  });
  /** The model files of theta at `base` + each file's suffix (`weights.json`; or `weights.bin` with its manifest and master copy). */
  const writeWeights = (base: string): void => {
    for (const f of adapter.modelFiles(theta, provenance())) writeFileAtomic(`${base}${f.suffix}`, f.data);
  };
  const save = (): void => {
    body = { ...body, theta: Array.from(theta), updatedAt: new Date().toISOString() };
    saveCheckpoint(ckFile, body);
    writeWeights(join(o.outDir, 'weights'));
  };
  const writeCurve = (): void => {
    const rated = ratings().map((r) => ({ x: r.x, series: ratingLabel, elo: r.rating, low: r.low, high: r.high, games: r.games }));
    // the chart settings go with the curve, so that the run's curve.svg and `kishi plot curve.json` are one chart
    const chart = trainingGamesChart(`${s.method} (${s.game}, init ${s.init})`);
    const curve = { kind: 'kishi-curve', x: 'training games', chart, method: s.method, game: s.game, init: s.init, points: [...rated, ...body.curve] };
    writeFileSync(join(o.outDir, 'curve.json'), stringifyResultJson(curve));
  };

  let sessionViolated = 0;
  let sessionVisited = 0;
  let sessionMs = 0;
  const progress = (phase: TrainerProgress['phase'], lastGame?: TrainingGameResult): void => {
    const r = body.lastSnapshot !== undefined ? ratings().find((x) => x.x === body.lastSnapshot!.x) : undefined;
    const latest = r !== undefined ? { x: r.x, series: ratingLabel, elo: r.rating, low: r.low, high: r.high, games: r.games } : undefined;
    o.onProgress?.({
      gamesDone: body.gamesDone,
      gamesTarget: o.games,
      positionsPerSecond: sessionMs > 0 ? (sessionViolated * 1000) / sessionMs : 0,
      visitedPerSecond: sessionMs > 0 ? (sessionVisited * 1000) / sessionMs : 0,
      ...(latest !== undefined ? { latest } : {}),
      phase,
      ...(lastGame !== undefined ? { lastGame } : {}),
    });
  };

  /** Name of the initial weights in the pairings: `material` when they are the material weights. */
  const initialName = s.init === 'material' ? 'material' : 'untrained';
  const ratingLabel = `rating (${initialName} = 0)`;
  const ratings = (): SnapshotRating[] => (body.pairings.length > 0 ? fitSnapshots([{ prefix: '', pairings: body.pairings }], initialName, 0).snapshots : []);
  const evaluate = async (): Promise<void> => {
    const plan = o.evaluation;
    if (plan.references.length === 0 || plan.games <= 0) return;
    if (body.lastSnapshot?.x === body.gamesDone) return;
    progress('evaluating');
    const e0 = performance.now();
    const me = snapshotName(body.gamesDone);
    const opponents = new Map<string, Float64Array>();
    for (const ref of plan.references) {
      if (ref === 'previous') {
        if (body.lastSnapshot !== undefined) opponents.set(snapshotName(body.lastSnapshot.x), Float64Array.from(body.lastSnapshot.theta));
        else opponents.set(initialName, initialTheta);
      } else if (ref === 'untrained') opponents.set(initialName, initialTheta);
      else opponents.set('material', adapter.materialTheta());
    }
    const points: CurvePointRecord[] = [];
    const pairings: PairingRecord[] = [];
    for (const [name, refTheta] of opponents) {
      const m = await evaluationMatch(
        s.game,
        { name: me, ...adapter.enginePlayer(theta) },
        { name, ...adapter.enginePlayer(refTheta) },
        { games: plan.games, nodes: plan.nodes, openings: book.value.openings, seed: s.seed + 1000 + body.gamesDone, maxMoves: plan.maxMoves },
      );
      const p = curvePoint(m, body.gamesDone, `vs ${name.startsWith('games-') ? 'previous' : name}`);
      points.push(p);
      pairings.push({ player: me, opponent: name, wins: p.wins, draws: p.draws, losses: p.losses });
      log(`after ${body.gamesDone} games: vs ${name} +${p.wins} =${p.draws} -${p.losses}, Elo ${fmt(p.elo)} [${fmt(p.low)}, ${fmt(p.high)}]`);
    }
    mkdirSync(join(o.outDir, 'snapshots'), { recursive: true });
    writeWeights(join(o.outDir, 'snapshots', `games-${String(body.gamesDone).padStart(5, '0')}`));
    body = {
      ...body,
      curve: [...body.curve, ...points],
      pairings: [...body.pairings, ...pairings],
      lastSnapshot: { x: body.gamesDone, theta: Array.from(theta) },
      totals: { ...body.totals, evaluationMs: body.totals.evaluationMs + performance.now() - e0 },
    };
    const r = ratings().find((x) => x.x === body.gamesDone);
    if (r !== undefined) log(`after ${body.gamesDone} games: ${ratingLabel} ${fmt(r.rating)} [${fmt(r.low)}, ${fmt(r.high)}]`);
    writeCurve();
    save();
  };

  // Step 2-4. Games, checkpoints, evaluations.
  if (!resumed) {
    save();
    writeFileSync(join(o.outDir, 'games.jsonl'), '');
  }
  let stoppedEarly = false;
  let sinceCheckpoint = 0;
  progress('training');
  while (body.gamesDone < o.games) {
    await new Promise((r) => setImmediate(r));
    if (o.shouldStop?.() === true || (o.timeLimitS !== undefined && performance.now() - t0 > o.timeLimitS * 1000)) {
      stoppedEarly = true;
      break;
    }
    const index = body.gamesDone;
    const opening = openingFor(book.value, s.seed, index);
    const g0 = performance.now();
    const r = playTrainingGame(search, adapter, opening, {
      limits: { ...(s.depth !== undefined ? { depth: s.depth } : {}), ...(s.nodes !== undefined ? { nodes: s.nodes } : {}), ...(s.clock !== undefined ? { clock: s.clock } : {}) },
      maxPlies: s.maxPlies,
    });
    if (r.isErr) return Result.err(r.error);
    const g = r.value;
    const ms = performance.now() - g0;
    sessionMs += ms;
    sessionViolated += g.stats.violated;
    sessionVisited += g.stats.visited;
    const t = body.totals;
    body = {
      ...body,
      gamesDone: index + 1,
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
    if (++sinceCheckpoint >= o.checkpointEvery || body.gamesDone >= o.games) {
      save();
      sinceCheckpoint = 0;
    }
    appendFileSync(
      join(o.outDir, 'games.jsonl'),
      `${JSON.stringify({
        game: index + 1,
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
      })}\n`,
    );
    progress('training', g);
    if (isDue(o.evaluation.every, body.gamesDone)) {
      if (sinceCheckpoint > 0) save();
      sinceCheckpoint = 0;
      await evaluate();
      progress('training');
    }
  }
  if (sinceCheckpoint > 0) save();
  if (!stoppedEarly && body.gamesDone >= o.games) {
    await evaluate();
    writeCurve();
  }
  return Result.ok({ checkpoint: body, resumed, stoppedEarly, bookSource: book.value.source });
};

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : x > 0 ? '+inf' : '-inf');
