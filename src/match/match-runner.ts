/**
 * `kishi match`: games between two engines (A and B), with the openings played in pairs (colours
 * swapped), several games at once, restarts after crashes, records written as games end, and the
 * statistics (W/D/L, pentanomial, Elo, LOS, SPRT) kept up to date.
 *
 * 1. Probe: each engine is started once, named (its `name=`, else its `id name`; equal names get
 *    ` (2)`), and quit; a failure here aborts the match (nothing would be measured).
 * 2. Schedule: game i is pair floor(i/2) of the opening schedule; A plays first in even games.
 * 3. Workers (`concurrency` of them) each own one instance of A and of B (one thread each unless
 *    the spec sets `Threads`), take the next game,
 *    restart an engine that is dead (after a crash or a hang kill) and play; an engine that cannot
 *    be restarted forfeits that game (logged).
 * 4. After each game: records (`games/NNNN.pgn|csa`, `games.pgn`), the forfeit log
 *    (`logs/NNNN-<engine>.log`), `summary.json`, the tally; after each finished pair the SPRT.
 *    When the SPRT concludes, or the caller aborts, no new game starts; games in progress finish
 *    and count (SPRT) or are dropped (abort).
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GameKind, Side } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { fileTranscript } from '../log/transcript.js';
import { EngineClient, EngineFailure } from '../engines/engine-client.js';
import type { EngineSpec } from '../engines/engine-spec.js';
import type { EngineGoRequest, EngineReply, MatchEngine } from '../engines/match-engine.js';
import type { AdjudicationRules } from './adjudication.js';
import { formatCsaRecord } from './csa-record.js';
import type { MatchVariant } from '../games/game-factory.js';
import type { GameRecord } from './game-record.js';
import { pgnResult, formatPgn } from './pgn.js';
import { playGame } from './game-runner.js';
import { stringifyResultJson } from '../core/json.js';
import type { TallySnapshot } from './match-tally.js';
import { MatchTally } from './match-tally.js';
import type { Opening, OpeningOrder } from '../books/openings.js';
import type { RemoteGameSpec, RemoteGames } from './remote-games.js';
import { openingSchedule } from '../books/openings.js';
import { SprtTest } from './stats/index.js';
import type { SprtParams, SprtStatus } from './stats/index.js';
import type { TimeControl } from './time-control.js';
import { formatTimeControl } from './time-control.js';

/** Makes a fresh engine instance (tests inject in-process players or fakes here). */
export type EngineFactory = () => Promise<Result<MatchEngine, EngineFailure>>;

export interface MatchEngineEntry {
  readonly spec: EngineSpec;
  readonly tc: TimeControl;
  /** Overrides starting `spec` as a process. */
  readonly factory?: EngineFactory;
}

export interface MatchConfig {
  readonly game: GameKind;
  readonly variant: MatchVariant;
  /** Engine A (the one measured) and engine B. */
  readonly engines: readonly [MatchEngineEntry, MatchEngineEntry];
  /** Games to play (an odd number leaves the last pair half played). */
  readonly games: number;
  readonly openings: readonly Opening[];
  readonly openingOrder: OpeningOrder;
  /** Play each opening twice with colours swapped (default true); false: a new opening every game. */
  readonly repeat?: boolean;
  readonly seed: number;
  /** Where the openings came from (for the summary). */
  readonly openingsFile?: string;
  readonly concurrency: number;
  readonly adjudication: AdjudicationRules;
  readonly sprt?: SprtParams;
  /** Deadline of a move not limited in time (nodes/depth only), ms. */
  readonly hangTimeoutMs: number;
  /** How long an engine past its deadline gets to answer `stop`, ms. */
  readonly graceMs: number;
  readonly startTimeoutMs: number;
  /** Engine lines kept for forfeit logs. */
  readonly logLines: number;
  /** Output directory; nothing is written without it. */
  readonly outDir?: string;
  /** Keep a full transcript of every engine process under `outDir/transcripts`. */
  readonly transcripts?: boolean;
  /** Event name in the records. */
  readonly event?: string;
  readonly onEvent?: (event: MatchEvent) => void;
  readonly signal?: AbortSignal;
  /** Play the games elsewhere (a job queue): pairs are handed out `remote.parallel` at a time, no engine starts here. */
  readonly remote?: RemoteGames;
}

export type MatchEvent =
  | { readonly type: 'game'; readonly record: GameRecord; readonly snapshot: TallySnapshot; readonly sprt?: SprtStatus; readonly progress: MatchProgress }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'restart'; readonly engine: string; readonly reason: string };

export interface MatchProgress {
  readonly gamesDone: number;
  readonly gamesPlanned: number;
  readonly elapsedMs: number;
  /** Estimated time to finish the planned games, ms (undefined before the first game). */
  readonly remainingMs: number | undefined;
}

/** One line of the summary's game list. */
export interface GameSummaryLine {
  readonly id: number;
  readonly round: string;
  readonly first: string;
  readonly second: string;
  readonly opening: string;
  readonly result: string;
  readonly reason: string;
  readonly detail: string;
  readonly plies: number;
  /** The final position, FEN/SFEN. */
  readonly final: string;
  readonly durationMs: number;
  readonly record?: string;
  readonly log?: string;
}

export interface MatchSummary {
  readonly kind: 'kishi-match';
  readonly version: 1;
  readonly game: GameKind;
  readonly variant: MatchVariant;
  readonly engines: readonly { readonly name: string; readonly command: string; readonly args: readonly string[]; readonly options: Readonly<Record<string, string>>; readonly timeControl: string }[];
  readonly openings: { readonly file?: string; readonly count: number; readonly order: OpeningOrder; readonly seed: number };
  readonly gamesPlanned: number;
  readonly gamesPlayed: number;
  /** Results from engine A's (engines[0]) point of view. */
  readonly results: TallySnapshot;
  readonly sprt?: { readonly params: SprtParams; readonly status: SprtStatus };
  /** Why the match ended before the planned games: `sprt`, `abort`, or absent. */
  readonly stoppedEarly?: 'sprt' | 'abort';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly games: readonly GameSummaryLine[];
}

/** An engine that could not be (re)started: it forfeits its game with the start failure logged. */
class DeadEngine implements MatchEngine {
  constructor(
    readonly name: string,
    private readonly failure: EngineFailure,
  ) {}
  alive(): boolean {
    return false;
  }
  async newGame(): Promise<Result<void, KishiError>> {
    return Result.err(this.failure);
  }
  async go(_req: EngineGoRequest): Promise<EngineReply> {
    return { kind: 'crash', elapsedMs: 0, detail: this.failure.message };
  }
  gameOver(): void {}
  lastLines(): string[] {
    return [...this.failure.lines, `# ${this.failure.message}`];
  }
  async close(): Promise<void> {}
}

const fileSafe = (s: string): string => s.replace(/[^A-Za-z0-9_.+-]+/g, '_').slice(0, 60);
const gameNumber = (id: number): string => String(id).padStart(4, '0');

/** The engine process factory for a spec (step 3). */
export function processFactory(
  spec: EngineSpec,
  config: Pick<MatchConfig, 'game' | 'variant' | 'logLines' | 'startTimeoutMs' | 'graceMs' | 'outDir' | 'transcripts'>,
  onWarning: (m: string) => void,
): EngineFactory {
  let instance = 0;
  return async () => {
    instance++;
    const transcript =
      config.transcripts === true && config.outDir !== undefined
        ? fileTranscript(join(config.outDir, 'transcripts', `${fileSafe(spec.name ?? spec.command)}-${instance}.log`))
        : undefined;
    const r = await EngineClient.start({
      spec,
      game: config.game,
      variant: config.variant,
      logLines: config.logLines,
      startTimeoutMs: config.startTimeoutMs,
      graceMs: config.graceMs,
      defaultThreads: 1,
      onWarning,
      ...(transcript !== undefined ? { transcript } : {}),
    });
    return r.map((e) => e as MatchEngine);
  };
}

/** Step 1: starts each engine once to learn its name; Err when one cannot start. */
export async function probeEngines(
  entries: readonly MatchEngineEntry[],
  config: Pick<MatchConfig, 'game' | 'variant' | 'logLines' | 'startTimeoutMs' | 'graceMs'>,
  onWarning: (m: string) => void = () => {},
): Promise<Result<string[], EngineFailure>> {
  const names: string[] = [];
  for (const entry of entries) {
    const factory = entry.factory ?? processFactory(entry.spec, config, onWarning);
    const e = await factory();
    if (e.isErr) return Result.err(e.error);
    let name = e.value.name;
    for (let k = 2; names.includes(name); k++) name = `${e.value.name} (${k})`;
    names.push(name);
    await e.value.close();
  }
  return Result.ok(names);
}

/** Why a match ended before its planned games: the SPRT concluded, or the caller aborted. */
type StoppedEarly = 'sprt' | 'abort';

/** A match being played: the schedule, the tally and the records written as games end (steps 2-4). */
class MatchRun {
  private readonly startedAt = new Date().toISOString();
  private readonly t0 = performance.now();
  private readonly names: [string, string];
  private readonly factories: EngineFactory[];
  private readonly repeat: boolean;
  private readonly schedule: readonly Opening[];
  private readonly tally = new MatchTally();
  private readonly sprt: SprtTest | undefined;
  private sprtStatus: SprtStatus | undefined;
  private stoppedEarly: StoppedEarly | undefined;
  private readonly lines: GameSummaryLine[] = [];
  /** The next game to hand out (0-based). */
  private next = 0;
  private done = 0;
  private readonly out: string | undefined;
  /** Every engine instance alive, so an abort can end the games in progress at once. */
  private readonly live = new Set<MatchEngine>();

  constructor(private readonly config: MatchConfig) {
    this.names = config.engines.map((e) => e.spec.name ?? e.spec.command) as [string, string];
    this.factories = config.engines.map((e) => e.factory ?? processFactory(e.spec, config, (m) => this.warn(m)));
    this.repeat = config.repeat ?? true;
    // Step 2: game i is pair floor(i/2) of the schedule (with repeat), else game i.
    this.schedule = openingSchedule(config.openings, this.repeat ? Math.ceil(config.games / 2) : config.games, config.openingOrder, config.seed);
    this.sprt = config.sprt !== undefined ? new SprtTest(config.sprt) : undefined;
    this.out = config.outDir;
  }

  /** A warning event (an engine that could not start, an engine's own warnings). */
  private warn(message: string): void {
    this.config.onEvent?.({ type: 'warning', message });
  }

  /** The output directory's `games/` and an empty `games.pgn` (chess). */
  prepareOutput(): void {
    const out = this.out;
    if (out === undefined) return;
    mkdirSync(join(out, 'games'), { recursive: true });
    if (this.config.game === 'chess') writeFileSync(join(out, 'games.pgn'), '');
  }

  /** The summary of the games recorded so far. */
  summary(): MatchSummary {
    const config = this.config;
    return {
      kind: 'kishi-match',
      version: 1,
      game: config.game,
      variant: config.variant,
      engines: config.engines.map((e, i) => ({
        name: this.names[i]!,
        command: e.spec.command,
        args: e.spec.args,
        options: e.spec.options,
        timeControl: formatTimeControl(e.tc),
      })),
      openings: { ...(config.openingsFile !== undefined ? { file: config.openingsFile } : {}), count: config.openings.length, order: config.openingOrder, seed: config.seed },
      gamesPlanned: config.games,
      gamesPlayed: this.done,
      results: this.tally.snapshot(),
      ...(this.sprt !== undefined && this.sprtStatus !== undefined ? { sprt: { params: config.sprt!, status: this.sprtStatus } } : {}),
      ...(this.stoppedEarly !== undefined ? { stoppedEarly: this.stoppedEarly } : {}),
      startedAt: this.startedAt,
      durationMs: performance.now() - this.t0,
      games: [...this.lines].sort((a, b) => a.id - b.id),
    };
  }

  /** Step 4's files of a finished game: its record (and `games.pgn`), and the forfeit log; their paths relative to the output. */
  private writeGameFiles(r: GameRecord): { record?: string; log?: string } {
    const out = this.out;
    if (out === undefined) return {};
    const base = gameNumber(r.id);
    let recordFile: string;
    if (r.game === 'chess') {
      const pgn = formatPgn(r, this.config.event);
      recordFile = join('games', `${base}.pgn`);
      writeFileSync(join(out, recordFile), pgn);
      appendFileSync(join(out, 'games.pgn'), pgn);
    } else {
      recordFile = join('games', `${base}.csa`);
      writeFileSync(join(out, recordFile), formatCsaRecord(r, this.config.event));
    }
    if (r.forfeit === undefined) return { record: recordFile };
    const logFile = join('logs', `${base}-${fileSafe(r.forfeit.engine)}.log`);
    mkdirSync(join(out, 'logs'), { recursive: true });
    writeFileSync(join(out, logFile), `# game ${r.id} (${r.players.first} vs ${r.players.second}): ${r.end.detail}\n# last ${r.forfeit.lines.length} lines of ${r.forfeit.engine}:\n${r.forfeit.lines.join('\n')}\n`);
    return { record: recordFile, log: logFile };
  }

  /** Step 4: a finished game recorded (files, summary line, tally, SPRT after a finished pair, `summary.json`) and reported. */
  private record(r: GameRecord, aSide: Side): void {
    const config = this.config;
    this.done++;
    const files = this.writeGameFiles(r);
    this.lines.push({
      id: r.id,
      round: r.round,
      first: r.players.first,
      second: r.players.second,
      opening: r.opening.source,
      result: pgnResult(r),
      reason: r.end.reason,
      detail: r.end.detail,
      plies: r.opening.moves.length + r.moves.length,
      final: r.finalPosition,
      durationMs: Math.round(r.durationMs),
      ...(files.record !== undefined ? { record: files.record } : {}),
      ...(files.log !== undefined ? { log: files.log } : {}),
    });
    const pairDone = this.tally.add(r, aSide);
    if (this.sprt !== undefined && pairDone) {
      this.sprtStatus = this.sprt.update(this.tally.snapshot().pentanomial);
      if (this.sprtStatus.decision !== 'continue' && this.stoppedEarly === undefined) this.stoppedEarly = 'sprt';
    }
    const elapsedMs = performance.now() - this.t0;
    const planned = this.stoppedEarly === 'sprt' ? this.done : config.games;
    // Games run `concurrency` at a time, so wall time per game finished already reflects it.
    const progress: MatchProgress = { gamesDone: this.done, gamesPlanned: config.games, elapsedMs, remainingMs: (elapsedMs / this.done) * Math.max(0, planned - this.done) };
    if (this.out !== undefined) writeFileSync(join(this.out, 'summary.json'), stringifyResultJson(this.summary()));
    config.onEvent?.({ type: 'game', record: r, snapshot: this.tally.snapshot(), ...(this.sprtStatus !== undefined ? { sprt: this.sprtStatus } : {}), progress });
  }

  /** The caller's abort: no new game starts, and the games in progress end at once (their engines closed). */
  readonly onAbort = (): void => {
    if (this.stoppedEarly === undefined) this.stoppedEarly = 'abort';
    for (const e of this.live) void e.close();
  };

  /** The round of game i (0-based): `pair.game-of-pair`, 1-based. */
  private static round(i: number): string {
    return `${Math.floor(i / 2) + 1}.${(i % 2) + 1}`;
  }

  /** Engine k of a worker's pair, restarted when it died; an engine that cannot start is a `DeadEngine` that forfeits. */
  private async ensureEngine(mine: (MatchEngine | undefined)[], k: 0 | 1): Promise<MatchEngine> {
    const current = mine[k];
    if (current !== undefined && current.alive()) return current;
    if (current !== undefined) {
      this.config.onEvent?.({ type: 'restart', engine: this.names[k], reason: 'the previous instance died' });
      this.live.delete(current);
      await current.close();
    }
    const made = await this.factories[k]!();
    const engine = made.isOk ? made.value : new DeadEngine(this.names[k], made.error);
    if (made.isErr) this.warn(`${this.names[k]} could not be started: ${made.error.message}`);
    mine[k] = engine;
    this.live.add(engine);
    return engine;
  }

  /** Step 3: one worker with its own A and B, playing the next game until none is left or the match stops. */
  private async localWorker(): Promise<void> {
    const config = this.config;
    const mine: (MatchEngine | undefined)[] = [undefined, undefined];
    try {
      while (this.stoppedEarly === undefined && this.next < config.games) {
        const i = this.next++;
        const aSide: Side = i % 2 === 0 ? 'first' : 'second';
        const a = await this.ensureEngine(mine, 0);
        const b = await this.ensureEngine(mine, 1);
        const pair = Math.floor(i / 2);
        const tcA = config.engines[0].tc;
        const tcB = config.engines[1].tc;
        const r = await playGame({
          id: i + 1,
          pair,
          round: MatchRun.round(i),
          game: config.game,
          variant: config.variant,
          opening: this.schedule[this.repeat ? pair : i]!,
          engines: aSide === 'first' ? { first: a, second: b } : { first: b, second: a },
          timeControls: aSide === 'first' ? { first: tcA, second: tcB } : { first: tcB, second: tcA },
          adjudication: config.adjudication,
          hangTimeoutMs: config.hangTimeoutMs,
        });
        if (this.stoppedEarly === 'abort') break;
        this.record(r, aSide);
      }
    } finally {
      for (const e of mine) if (e !== undefined) this.live.delete(e);
      await Promise.all(mine.map((e) => e?.close()));
    }
  }

  /** Remote play: each job is one pair (both colours of an opening) or, without repeat, one game. */
  private async remoteWorker(remote: RemoteGames): Promise<void> {
    const config = this.config;
    while (this.stoppedEarly === undefined && this.next < config.games) {
      const first = this.next;
      const count = this.repeat ? Math.min(2 - (first % 2), config.games - first) : 1;
      this.next += count;
      const specs: RemoteGameSpec[] = [];
      for (let i = first; i < first + count; i++) {
        const pair = Math.floor(i / 2);
        specs.push({ id: i + 1, pair, round: MatchRun.round(i), opening: this.schedule[this.repeat ? pair : i]!, aSide: i % 2 === 0 ? 'first' : 'second' });
      }
      const records = await remote.play(specs);
      if (this.stoppedEarly === 'abort') break;
      records.forEach((r, k) => this.record(r, specs[k]!.aSide));
    }
  }

  /** Steps 3-4 for every game: `concurrency` local workers, or `remote.parallel` remote ones. */
  async playAll(): Promise<void> {
    const config = this.config;
    const remote = config.remote;
    if (remote !== undefined) await Promise.all(Array.from({ length: Math.max(1, Math.min(remote.parallel, Math.ceil(config.games / 2))) }, () => this.remoteWorker(remote)));
    else await Promise.all(Array.from({ length: Math.max(1, Math.min(config.concurrency, config.games)) }, () => this.localWorker()));
  }

  /** The final summary, written with `games.pgn` rewritten in game order (it was appended in finishing order). */
  finish(): MatchSummary {
    const final = this.summary();
    const out = this.out;
    if (out !== undefined) {
      writeFileSync(join(out, 'summary.json'), stringifyResultJson(final));
      if (this.config.game === 'chess') {
        const sorted = [...this.lines].sort((x, y) => x.id - y.id).filter((l) => l.record !== undefined);
        writeFileSync(join(out, 'games.pgn'), sorted.map((l) => readFileSync(join(out, l.record!), 'utf8')).join(''));
      }
    }
    return final;
  }
}

/** Runs the match (steps 2-4). Engine specs should carry their final names (see {@link probeEngines}). */
export async function runMatch(config: MatchConfig): Promise<MatchSummary> {
  const run = new MatchRun(config);
  run.prepareOutput();
  config.signal?.addEventListener('abort', run.onAbort);
  if (config.signal?.aborted === true) run.onAbort();
  try {
    await run.playAll();
  } finally {
    config.signal?.removeEventListener('abort', run.onAbort);
  }
  return run.finish();
}
