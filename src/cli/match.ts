/**
 * `kishi match`: engine-against-engine games with statistics (src/match). Also `--gauntlet`: the
 * first engine against every other, then a Bradley-Terry rating table anchored on given ratings.
 *
 *   kishi match -e cmd=/usr/games/stockfish,name=sf -e "cmd=/usr/games/stockfish,name=sf-3,option.Skill Level=3" \
 *     --tc 10+0.1 --games 200 --openings data/openings/chess-balanced.epd --sprt elo0=0,elo1=10
 *   kishi match --game shogi -e /usr/games/fairy-stockfish -e /usr/games/gpsusi --tc 10 --byoyomi 1 \
 *     --openings data/openings/taya36.sfen
 *   kishi match --gauntlet -e cmd=kishi -e "name=sf0,cmd=/usr/games/stockfish,option.Skill Level=0,rating=1000" ...
 *
 * Exit codes: 0 done, 1 an engine could not be started or the output could not be written, 2 bad usage.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import type { GameKind } from '../core/game.js';
import { GAME_KINDS } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { AdjudicationRules } from '../match/adjudication.js';
import { parseDrawRule, parseResignRule, parseSprtParams } from '../match/rule-text.js';
import type { EngineSpec } from '../engines/engine-spec.js';
import { parseEngineSpec } from '../engines/engine-spec.js';
import type { MatchVariant } from '../games/game-factory.js';
import { MATCH_VARIANTS } from '../games/game-factory.js';
import { runGauntlet } from '../match/gauntlet.js';
import { parseNumber } from '../core/key-values.js';
import type { MatchConfig, MatchEngineEntry, MatchEvent } from '../match/match-runner.js';
import { probeEngines, runMatch } from '../match/match-runner.js';
import type { Opening, OpeningOrder } from '../books/openings.js';
import { OPENING_ORDERS, defaultOpenings, loadOpenings } from '../books/openings.js';
import { formatMatchReport, formatProgressLine } from '../match/report.js';
import { seededRng } from '../core/rng.js';
import type { TimeControl } from '../match/time-control.js';
import { hasLimit, parseClockText } from '../match/time-control.js';
import { parseQueueUrl } from '../queue/connection.js';
import { redact } from '../log/redact.js';
import { queuedRemoteGames } from '../queue/match-producer.js';
import { ProducerQueue } from '../queue/producer-queue.js';
import { makeStamp } from '../queue/stamp.js';

/** The raw options as commander hands them over. */
export interface MatchCliOptions {
  engine: string[];
  game: GameKind;
  variant: MatchVariant;
  tc?: string;
  byoyomi?: string;
  movetime?: string;
  nodes?: string;
  depth?: string;
  margin: string;
  timeUnit?: string;
  games: string;
  openings?: string;
  order: OpeningOrder;
  seed?: string;
  repeat: boolean;
  concurrency?: string;
  resign?: string;
  draw?: string;
  maxmoves?: string;
  sprt?: string;
  gauntlet?: boolean;
  anchor: string[];
  out?: string;
  hangTimeout: string;
  grace: string;
  startTimeout: string;
  logLines: string;
  transcripts?: boolean;
  event?: string;
  quiet?: boolean;
  queue?: string;
  queueName: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const usage = (message: string): KishiError => new KishiError('ERR_USAGE', message);

const optionalNumber = (text: string | undefined, what: string, check: (x: number) => boolean): Result<number | undefined, KishiError> =>
  text === undefined ? Result.ok(undefined) : parseNumber(text, what, check);

/** The time control of an engine: the match's options, overridden by the spec's own keys. */
export function timeControlFor(spec: EngineSpec, o: MatchCliOptions): Result<TimeControl, KishiError> {
  const clock = parseClockText(spec.time.tc ?? o.tc ?? '');
  if (clock.isErr) return Result.err(clock.error);
  const byoyomi = optionalNumber(o.byoyomi, '--byoyomi', (x) => x >= 0);
  const movetime = optionalNumber(o.movetime, '--movetime', (x) => x > 0);
  const nodes = optionalNumber(o.nodes, '--nodes', (x) => Number.isInteger(x) && x > 0);
  const depth = optionalNumber(o.depth, '--depth', (x) => Number.isInteger(x) && x > 0);
  const margin = parseNumber(o.margin, '--margin', (x) => x >= 0);
  const unit = optionalNumber(o.timeUnit, '--time-unit', (x) => Number.isInteger(x) && x >= 1);
  for (const r of [byoyomi, movetime, nodes, depth, margin, unit]) if (r.isErr) return Result.err(r.error);
  const byoyomiMs = spec.time.byoyomiMs ?? (byoyomi.unwrap() !== undefined ? Math.round(byoyomi.unwrap()! * 1000) : 0);
  const movetimeMs = spec.time.movetimeMs ?? movetime.unwrap();
  const n = spec.time.nodes ?? nodes.unwrap();
  const d = spec.time.depth ?? depth.unwrap();
  const tc: TimeControl = {
    ...clock.value,
    byoyomiMs,
    ...(movetimeMs !== undefined ? { movetimeMs } : {}),
    ...(n !== undefined ? { nodes: n } : {}),
    ...(d !== undefined ? { depth: d } : {}),
    marginMs: margin.unwrap(),
    ...(unit.unwrap() !== undefined && unit.unwrap()! > 1 ? { unitMs: unit.unwrap()! } : {}),
  };
  if (!hasLimit(tc)) return Result.err(usage(`no time control for ${spec.name ?? spec.command}: give --tc, --byoyomi, --movetime, --nodes or --depth`));
  return Result.ok(tc);
}

/** Everything the options decide, before the engines are started. */
export interface ResolvedMatch {
  readonly entries: MatchEngineEntry[];
  readonly config: Omit<MatchConfig, 'engines'>;
  readonly anchors: Record<string, number>;
}

/** Checks and converts the options (no engine is started, the openings file is read). */
export function resolveMatchOptions(o: MatchCliOptions, now = new Date()): Result<ResolvedMatch, KishiError> {
  if (o.engine.length < 2) return Result.err(usage('give at least two engines (-e/--engine), the first one is the one measured'));
  if (o.engine.length > 2 && o.gauntlet !== true) return Result.err(usage('more than two engines needs --gauntlet'));
  if (o.game === 'shogi' && o.variant !== 'standard') return Result.err(usage('shogi has no variants here'));
  const specs: EngineSpec[] = [];
  for (const text of o.engine) {
    const s = parseEngineSpec(text);
    if (s.isErr) return Result.err(s.error);
    specs.push(s.value);
  }
  const entries: MatchEngineEntry[] = [];
  for (const spec of specs) {
    const tc = timeControlFor(spec, o);
    if (tc.isErr) return Result.err(tc.error);
    entries.push({ spec, tc: tc.value });
  }
  const games = parseNumber(o.games, '--games', (x) => Number.isInteger(x) && x > 0);
  const seed: Result<number, KishiError> = o.seed !== undefined ? parseNumber(o.seed, '--seed', Number.isInteger) : Result.ok(now.getTime() % 2 ** 31);
  const concurrency = optionalNumber(o.concurrency, '--concurrency', (x) => Number.isInteger(x) && x > 0);
  const maxMoves = optionalNumber(o.maxmoves, '--maxmoves', (x) => Number.isInteger(x) && x > 0);
  const hang = parseNumber(o.hangTimeout, '--hang-timeout', (x) => x > 0);
  const grace = parseNumber(o.grace, '--grace', (x) => x >= 0);
  const startTimeout = parseNumber(o.startTimeout, '--start-timeout', (x) => x > 0);
  const logLines = parseNumber(o.logLines, '--log-lines', (x) => Number.isInteger(x) && x > 0);
  for (const r of [games, seed, concurrency, maxMoves, hang, grace, startTimeout, logLines]) if (r.isErr) return Result.err(r.error);
  const resign = o.resign !== undefined ? parseResignRule(o.resign) : undefined;
  const draw = o.draw !== undefined ? parseDrawRule(o.draw) : undefined;
  const sprt = o.sprt !== undefined ? parseSprtParams(o.sprt) : undefined;
  if (resign?.isErr) return Result.err(resign.error);
  if (draw?.isErr) return Result.err(draw.error);
  if (sprt?.isErr) return Result.err(sprt.error);
  if (sprt !== undefined && o.gauntlet === true) return Result.err(usage('--sprt and --gauntlet do not go together'));

  const pairs = o.repeat ? Math.ceil(games.unwrap() / 2) : games.unwrap();
  let openings: Opening[];
  if (o.openings !== undefined) {
    const loaded = loadOpenings(o.game, o.variant, o.openings);
    if (loaded.isErr) return Result.err(loaded.error);
    openings = loaded.value;
  } else {
    openings = defaultOpenings(o.game, o.variant, pairs, seededRng(seed.unwrap() ^ 0x5eed));
  }
  const adjudication: AdjudicationRules = {
    ...(resign !== undefined ? { resign: resign.unwrap() } : {}),
    ...(draw !== undefined ? { draw: draw.unwrap() } : {}),
    ...(maxMoves.unwrap() !== undefined ? { maxMoves: maxMoves.unwrap()! } : {}),
  };
  const anchors: Record<string, number> = {};
  for (const a of o.anchor) {
    const eq = a.lastIndexOf('=');
    const rating = eq > 0 ? Number(a.slice(eq + 1)) : Number.NaN;
    if (!Number.isFinite(rating)) return Result.err(usage(`--anchor expects name=rating, got ${JSON.stringify(a)}`));
    anchors[a.slice(0, eq)] = rating;
  }
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return Result.ok({
    entries,
    anchors,
    config: {
      game: o.game,
      variant: o.variant,
      games: games.unwrap(),
      openings,
      openingOrder: o.order,
      repeat: o.repeat,
      seed: seed.unwrap(),
      ...(o.openings !== undefined ? { openingsFile: o.openings } : {}),
      concurrency: concurrency.unwrap() ?? availableParallelism(),
      adjudication,
      ...(sprt !== undefined ? { sprt: sprt.unwrap() } : {}),
      hangTimeoutMs: hang.unwrap() * 1000,
      graceMs: grace.unwrap(),
      startTimeoutMs: startTimeout.unwrap() * 1000,
      logLines: logLines.unwrap(),
      outDir: o.out ?? join('matches', `${o.gauntlet === true ? 'gauntlet' : 'match'}-${stamp}`),
      transcripts: o.transcripts === true,
      event: o.event ?? (o.gauntlet === true ? 'kishi gauntlet' : 'kishi match'),
    },
  });
}

/** A live line on a terminal (rewritten in place), plain lines otherwise. */
function progressPrinter(quiet: boolean): { event: (e: MatchEvent) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  let open = false;
  return {
    event: (e) => {
      if (e.type === 'warning' || e.type === 'restart') {
        if (open) process.stderr.write('\n');
        open = false;
        process.stderr.write(e.type === 'warning' ? `warning: ${e.message}\n` : `restarting ${e.engine}: ${e.reason}\n`);
        return;
      }
      if (e.record.forfeit !== undefined) {
        if (open) process.stderr.write('\n');
        open = false;
        process.stderr.write(`game ${e.record.id}: ${e.record.end.detail}\n`);
      }
      if (quiet) return;
      const line = formatProgressLine(e.snapshot, e.progress, e.sprt);
      if (tty) {
        process.stderr.write(`\r\x1b[K${line}`);
        open = true;
      } else {
        process.stderr.write(`${line}\n`);
      }
    },
    end: () => {
      if (open) process.stderr.write('\n');
      open = false;
    },
  };
}

/** `--queue`: the games are played by workers; `--concurrency` (else twice the live workers' slots) pairs in flight. */
async function queuedMatch(url: string, queueName: string, config: MatchConfig, concurrencyGiven: boolean, endLine: () => void): Promise<number> {
  const conn = parseQueueUrl(url);
  if (conn.isErr) {
    console.error(`kishi match: ${conn.error.message}`);
    return 2;
  }
  const made = makeStamp([]);
  if ('missing' in made) return 1;
  const queue = new ProducerQueue(conn.value, queueName, { onConnectionError: (m) => process.stderr.write(`warning: ${m}\n`), ...(config.signal !== undefined ? { signal: config.signal } : {}) });
  try {
    const live = await queue.workers();
    const slots = live.reduce((a, w) => a + w.concurrency, 0);
    const parallel = concurrencyGiven ? config.concurrency : Math.max(2, 2 * slots);
    const outDir = config.outDir ?? 'matches';
    process.stderr.write(`match over queue ${queueName} at ${conn.value.display}: ${live.length} worker(s) with ${slots} slot(s) now, ${parallel} pairs in flight\n`);
    const remoteMade = queuedRemoteGames({
      queue,
      settings: {
        game: config.game,
        variant: config.variant,
        engines: [
          { spec: config.engines[0].spec, tc: config.engines[0].tc },
          { spec: config.engines[1].spec, tc: config.engines[1].tc },
        ],
        adjudication: config.adjudication,
        hangTimeoutMs: config.hangTimeoutMs,
        graceMs: config.graceMs,
        startTimeoutMs: config.startTimeoutMs,
        logLines: config.logLines,
      },
      stamp: made.stamp,
      seed: config.seed,
      games: config.games,
      outDir,
      parallel,
      ...(config.signal !== undefined ? { signal: config.signal } : {}),
      onResult: (r) => {
        endLine();
        process.stderr.write(`worker ${r.worker}: games ${r.records.map((g) => `${g.id} ${g.end.winner === undefined ? '1/2' : g.end.winner === 'first' ? '1-0' : '0-1'}`).join(', ')} in ${(r.ms / 1000).toFixed(1)} s\n`);
      },
      onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
    });
    if (remoteMade.isErr) {
      console.error(`kishi match: ${remoteMade.error.message}`);
      return 2;
    }
    const m = await runMatch({ ...config, remote: remoteMade.value });
    endLine();
    console.log(formatMatchReport(m));
    console.log(`Records and summary.json in ${outDir}`);
    return 0;
  } catch (e) {
    endLine();
    console.error(`kishi match: ${redact((e as Error).message)}`);
    return 1;
  } finally {
    await queue.close();
  }
}

/** Runs the command (the action, minus process exits); resolves the exit code. */
export async function matchCommand(o: MatchCliOptions): Promise<number> {
  const resolved = resolveMatchOptions(o);
  if (resolved.isErr) {
    console.error(`kishi match: ${resolved.error.message}`);
    return 2;
  }
  const { entries, config, anchors } = resolved.value;
  if (o.queue !== undefined && o.gauntlet === true) {
    console.error('kishi match: --queue plays one match (two engines), not a --gauntlet');
    return 2;
  }
  const printer = progressPrinter(o.quiet === true);
  const warn = (m: string): void => printer.event({ type: 'warning', message: m });

  // Name the engines (their `id name` unless name= was given), uniquely.
  const names = await probeEngines(entries, config, warn);
  if (names.isErr) {
    console.error(`kishi match: ${names.error.message}`);
    if (names.error.lines.length > 0) console.error(names.error.lines.join('\n'));
    return 1;
  }
  const named = entries.map((e, i) => ({ ...e, spec: { ...e.spec, name: names.value[i]! } }));

  const abort = new AbortController();
  const onSigint = (): void => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write('\ninterrupted: stopping the games (Ctrl-C again to quit at once)\n');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    if (o.gauntlet === true) {
      const ladder = named.slice(1);
      const fromSpecs = Object.fromEntries(ladder.filter((e) => e.spec.rating !== undefined).map((e) => [e.spec.name, e.spec.rating!]));
      let allAnchors: Record<string, number> = { ...fromSpecs, ...anchors };
      for (const name of Object.keys(allAnchors)) {
        if (!named.some((e) => e.spec.name === name)) {
          console.error(`kishi match: --anchor names ${JSON.stringify(name)}, which is not an engine (engines: ${named.map((e) => e.spec.name).join(', ')})`);
          return 2;
        }
      }
      if (Object.keys(allAnchors).length === 0) {
        allAnchors = { [ladder[0]!.spec.name]: 0 };
        warn(`no anchor ratings (rating= in a spec, or --anchor): ${ladder[0]!.spec.name} is anchored at 0`);
      }
      const g = await runGauntlet({
        ...config,
        player: named[0]!,
        ladder,
        anchors: allAnchors,
        onEvent: printer.event,
        signal: abort.signal,
        onPairing: (k, name) => {
          printer.end();
          process.stderr.write(`pairing ${k + 1}/${ladder.length}: ${named[0]!.spec.name} vs ${name}\n`);
        },
      });
      printer.end();
      for (const m of g.pairings) console.log(`${formatMatchReport(m)}\n`);
      console.log(g.table);
      if (config.outDir !== undefined) console.log(`\nRecords and gauntlet.json in ${config.outDir}`);
    } else if (o.queue !== undefined) {
      return await queuedMatch(o.queue, o.queueName, { ...config, engines: [named[0]!, named[1]!], onEvent: printer.event, signal: abort.signal }, o.concurrency !== undefined, printer.end);
    } else {
      const m = await runMatch({ ...config, engines: [named[0]!, named[1]!], onEvent: printer.event, signal: abort.signal });
      printer.end();
      console.log(formatMatchReport(m));
      if (config.outDir !== undefined) console.log(`Records and summary.json in ${config.outDir}`);
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
  return 0;
}

export function register(program: Command): void {
  program
    .command('match')
    .description('play games between two UCI/USI engines (or a gauntlet against a ladder) and measure the Elo difference')
    .addOption(new Option('-e, --engine <spec>', 'an engine: "name=N,cmd=PATH,args=..,proto=uci|usi,option.NAME=V,tc=..,nodes=..,rating=.." or a bare command; cmd=kishi runs Kishi (repeat; the first is measured)').argParser(collect).default([], 'none'))
    .addOption(new Option('-g, --game <game>', 'game').choices([...GAME_KINDS]).default('chess'))
    .addOption(new Option('--variant <variant>', 'chess variant').choices([...MATCH_VARIANTS]).default('standard'))
    .option('--tc <tc>', 'clock in seconds, cutechess style: 60, 10+0.1, 40/60, 40/60+1')
    .option('--byoyomi <s>', 'byoyomi per move in seconds, after the main time (shogi)')
    .option('--movetime <ms>', 'fixed time per move (go movetime), ms')
    .option('--nodes <n>', 'fixed nodes per move (go nodes)')
    .option('--depth <n>', 'fixed depth per move (go depth)')
    .option('--margin <ms>', 'time allowed past the clock before a loss on time, ms', '0')
    .option('--time-unit <ms>', 'charge moves in whole units, rounded down, as shogi servers do (1000); default exact')
    .option('-n, --games <n>', 'games to play (openings are played in pairs, colours swapped)', '2')
    .option('--openings <file>', 'opening file: EPD/FEN or "startpos moves ..." (chess), SFEN or "startpos moves ..." (shogi)')
    .addOption(new Option('--order <order>', 'opening order').choices([...OPENING_ORDERS]).default('random'))
    .option('--seed <n>', 'seed of the opening order and of Chess960 starts (default: from the clock; printed in summary.json)')
    .option('--no-repeat', 'do not pair openings (each game gets its own opening)')
    .option('--concurrency <n>', 'games at once (default: one per core)')
    .option('--resign <rule>', 'resign adjudication: movecount=3,score=600[,twosided=true]')
    .option('--draw <rule>', 'draw adjudication: movenumber=40,movecount=8,score=10')
    .option('--maxmoves <n>', 'declare a draw after this many full moves')
    .option('--sprt <params>', 'SPRT: elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=normalized|logistic]; stops when it concludes')
    .option('--gauntlet', 'the first engine plays each of the others in turn; prints a Bradley-Terry rating table')
    .addOption(new Option('--anchor <name=rating>', 'a fixed rating for the gauntlet fit (repeat; or rating= in the engine spec)').argParser(collect).default([], 'none'))
    .option('-o, --out <dir>', 'output directory for records and summary.json (default matches/<kind>-<time>)')
    .option('--hang-timeout <s>', 'deadline of a move limited only by nodes/depth, seconds', '60')
    .option('--grace <ms>', 'how long an engine past its deadline gets to answer stop before it is killed', '1000')
    .option('--start-timeout <s>', 'how long uci/usi/isready may take, seconds', '30')
    .option('--log-lines <n>', 'engine output lines kept in forfeit logs', '50')
    .option('--transcripts', 'write every engine line to <out>/transcripts')
    .option('--event <name>', 'event name in the records')
    .option('-q, --quiet', 'no progress line')
    .option('--queue <url>', 'play the game pairs on `kishi worker`s through this Redis (redis://host:port, rediss:// for TLS; password also from KISHI_QUEUE_PASSWORD); give --seed and --out to resume')
    .option('--queue-name <name>', 'BullMQ queue name', 'kishi')
    .action(async (opts: MatchCliOptions) => {
      if (!opts.repeat) process.stderr.write('note: --no-repeat: the pentanomial counts pair consecutive games with different openings\n');
      process.exitCode = await matchCommand(opts);
    });
}
