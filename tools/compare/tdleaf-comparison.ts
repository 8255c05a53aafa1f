/**
 * TD-Leaf comparison run (a benchmark, not a test), in the spirit of KnightCap's FICS experiment:
 * start from material-only weights, play a fixed ladder of opponents near Kishi's strength with
 * online TD-Leaf on (after every game the live weights move by that game's update, exactly as
 * `learning.online` does on lichess/floodgate: the game's JSON-lines log, then `onGameFinished`),
 * and measure the rating before and after with the match runner (same ladder, same openings, fixed
 * weights), optionally also TreeStrap's weights on the same footing (`--treestrap auto`: the shipped
 * `models/<game>-linear.json`, read after learning, when its provenance says TreeStrap made it).
 * Learning plays one game at a time, colours alternating, two games against each ladder engine in turn;
 * each game plays with the weights the previous game's update wrote.
 *
 *   node dist/tools/compare/tdleaf-comparison.js --game chess --learn-games 100 --eval-games 20 --out bench-results/tdleaf-chess
 *       [--ladder 'name=sf-0,cmd=/usr/games/stockfish,option.Skill Level=0;...'] [--tc 10+0.1] [--byoyomi MS] [--treestrap FILE|auto]
 *       [--alpha 1000] [--lambda 0.7] [--cap 10] [--openings data/openings/chess-balanced.epd] [--seed 1]
 *       [--kishi-nodes N] [--phases before,learn,after,treestrap] [--after-name kishi-after] [--merge A/report.json,B/report.json]
 *       [--model nnue]
 *
 * `--model nnue`: Kishi plays with the network evaluation and online TD-Leaf learns into the network
 * (`engine.<game>Eval: nnue`; `--weights` is then a network .bin, default `models/<game>-nnue.bin`,
 * `--alpha` sets `learning.nnueAlpha`); the learnt network is `<out>/<game>-after.bin` with its
 * manifest and float master copy. The TreeStrap phase is linear only.
 *
 * `--kishi-nodes` gives Kishi a fixed number of nodes per move instead of the clock (give the ladder
 * `nodes=` in its specs too): on a loaded machine, clocks measure the scheduler (engines losing on time
 * by a few ms), nodes do not. `--phases` runs part of the experiment (say `before` in one process and
 * `learn,after` in another, same arguments otherwise), and `--merge` fits the ratings over their reports.
 *
 * Kishi plays in-process (the alpha-beta engine inline, tournament search) under the clock; the
 * ladder engines are processes. Ratings come from one Bradley-Terry fit of every measured player
 * against the ladder, the first ladder engine anchored at 0: they are Elo relative to it, with
 * 95% intervals. Output: `<out>/report.json`, `<out>/ratings.txt`, the weights after learning, the
 * learning games' logs and the weights history.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../../src/config/load.js';
import type { GameKind, Side } from '../../src/core/game.js';
import { KishiError, Result } from '../../src/core/result.js';
import { GameLogWriter } from '../../src/records/game-log.js';
import { leafEvaluator } from '../../src/learning/tdleaf/leaf.js';
import { onGameFinished, type OnlineConfig } from '../../src/learning/tdleaf/online.js';
import { PlayerEngine } from '../../src/match/player-engine.js';
import { parseEngineSpec, type EngineSpec } from '../../src/engines/engine-spec.js';
import type { MatchEngine } from '../../src/engines/match-engine.js';
import type { GameRecord } from '../../src/match/game-record.js';
import type { MatchConfig, MatchEngineEntry } from '../../src/match/match-runner.js';
import { runMatch } from '../../src/match/match-runner.js';
import { pairingResults } from '../../src/match/gauntlet.js';
import { defaultOpenings, loadOpenings, type Opening } from '../../src/books/openings.js';
import { seededRng } from '../../src/core/rng.js';
import { fitBradleyTerry, formatTable, ratingTableRows, type PairingResult } from '../../src/match/stats/index.js';
import type { TimeControl } from '../../src/match/time-control.js';
import { parseClockText } from '../../src/match/time-control.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../../src/player/alphabeta-engine.js';
import type { GoRequest, GoResult, Player } from '../../src/player/player.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';
import { resolveModelPath } from '../../src/core/package-path.js';
import type { NnueNetwork } from '../../src/eval/nnue/network.js';
import { masterPath } from '../../src/learning/nnue/network-files.js';
import { loadNnueFile, nnueManifestPath } from '../../src/player/nnue-file.js';

const { values: a } = parseArgs({
  options: {
    game: { type: 'string', default: 'chess' },
    'learn-games': { type: 'string', default: '100' },
    'eval-games': { type: 'string', default: '20' },
    out: { type: 'string', default: 'bench-results/tdleaf-comparison' },
    ladder: { type: 'string' },
    tc: { type: 'string', default: '10+0.1' },
    byoyomi: { type: 'string', default: '0' },
    treestrap: { type: 'string' },
    weights: { type: 'string' },
    alpha: { type: 'string' },
    lambda: { type: 'string' },
    cap: { type: 'string' },
    openings: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'kishi-nodes': { type: 'string' },
    phases: { type: 'string', default: 'before,learn,after,treestrap' },
    merge: { type: 'string' },
    'after-name': { type: 'string', default: 'kishi-after' },
    model: { type: 'string', default: 'linear' },
  },
});

const game = a.game as GameKind;
const nnue = a.model === 'nnue';
if (!nnue && a.model !== 'linear') throw new Error(`--model must be linear or nnue, not ${a.model}`);
/** The model files of a weights path: the file itself, or a network with its manifest and master copy. */
const modelFiles = (file: string): string[] => (nnue ? [file, nnueManifestPath(file), masterPath(file)] : [file]);
/** Copies a model (a network with its manifest, and its master copy when there is one). */
const copyModel = (from: string, to: string): void => {
  const src = modelFiles(from);
  modelFiles(to).forEach((dst, i) => {
    if (i < 2 || existsSync(src[i]!)) copyFileSync(src[i]!, dst);
  });
};
const ext = nnue ? 'bin' : 'json';
const out = resolve(a.out!);
mkdirSync(join(out, 'logs'), { recursive: true });
const log = (line: string): void => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const DEFAULT_LADDER: Record<GameKind, string> = {
  chess: [0, 2, 4].map((s) => `name=sf-skill-${s},cmd=/usr/games/stockfish,option.Skill Level=${s},option.Hash=16,option.Threads=1`).join(';'),
  // fairy-stockfish 11.1 overruns short Fischer clocks in USI mode: play shogi with byoyomi (--tc 0 --byoyomi 300).
  shogi: [0, 5, 10].map((s) => `name=fairy-skill${s},cmd=/usr/games/fairy-stockfish,proto=usi,option.Skill Level=${s},option.Hash=16`).join(';'),
};

const ladderSpecs = (a.ladder ?? DEFAULT_LADDER[game]).split(';').map((s) => parseEngineSpec(s).unwrap());
const clock = parseClockText(a.tc!).unwrap();
const tc: TimeControl = { ...clock, byoyomiMs: Number(a.byoyomi), marginMs: 300 };
/** Kishi's time control: the clock, or a fixed number of nodes per move (`--kishi-nodes`: no clock, no losses on time). */
const kishiTc: TimeControl =
  a['kishi-nodes'] !== undefined ? { incMs: 0, byoyomiMs: 0, movesPerSession: 0, marginMs: 300, nodes: Number(a['kishi-nodes']) } : tc;
/** A ladder engine's time control: its own `movetime=`/`nodes=`/`depth=` from the spec, else the match's clock. */
const tcOf = (spec: EngineSpec): TimeControl => {
  const t = spec.time;
  if (t.movetimeMs === undefined && t.nodes === undefined && t.depth === undefined) return tc;
  return {
    incMs: 0,
    byoyomiMs: 0,
    movesPerSession: 0,
    marginMs: 300,
    ...(t.movetimeMs !== undefined ? { movetimeMs: t.movetimeMs } : {}),
    ...(t.nodes !== undefined ? { nodes: t.nodes } : {}),
    ...(t.depth !== undefined ? { depth: t.depth } : {}),
  };
};
const openings: Opening[] =
  a.openings !== undefined || game === 'chess'
    ? loadOpenings(game, 'standard', a.openings ?? 'data/openings/chess-balanced.epd').unwrap()
    : defaultOpenings(game, 'standard', 1, seededRng(1));

/** Kishi in-process: the alpha-beta engine inline (the benchmark plays one game at a time). */
class InlinePlayer implements Player {
  readonly name: string;
  private readonly engine: AlphaBetaEngine;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  constructor(
    name: string,
    theta: Float64Array,
    private readonly record?: Map<string, GoResult>,
    network?: NnueNetwork,
  ) {
    this.name = name;
    this.engine = new AlphaBetaEngine({ game, theta, hashMb: 16, moveOverheadMs: 50, ...(network !== undefined ? { nnue: network } : {}) });
  }
  supports(g: GameKind): boolean {
    return g === game;
  }
  async go(request: GoRequest): Promise<GoResult> {
    Atomics.store(this.signal, 0, 0);
    const r = this.engine.go(request, this.signal);
    if (r.isErr) throw r.error;
    this.record?.set(`${request.start}|${request.moves.join(' ')}`, r.value);
    return r.value;
  }
  stop(): void {
    Atomics.store(this.signal, 0, 1);
  }
  ponderhit(): void {}
  async newGame(): Promise<void> {
    this.engine.newGame();
  }
  async close(): Promise<void> {}
}

const kishiEntry = (name: string, weightsFile: string, record?: Map<string, GoResult>): MatchEngineEntry => ({
  spec: { name, command: 'kishi-inline', args: [], options: {}, time: {}, kishi: false },
  tc: kishiTc,
  factory: async () => {
    if (nnue) {
      const n = loadNnueFile(weightsFile, game);
      if (n.isErr) throw n.error;
      const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
      return Result.ok(new PlayerEngine(new InlinePlayer(name, theta, record, n.value.net), { game, variant: 'standard', name }) as MatchEngine) as Result<MatchEngine, never>;
    }
    const w = loadWeightsFile(weightsFile, game);
    if (w.isErr) throw w.error;
    const engine: MatchEngine = new PlayerEngine(new InlinePlayer(name, w.value.theta, record), { game, variant: 'standard', name });
    return Result.ok(engine) as Result<MatchEngine, never>;
  },
});

const matchBase = (seed: number): Omit<MatchConfig, 'engines' | 'games'> => ({
  game,
  variant: 'standard',
  openings,
  openingOrder: 'random',
  seed,
  concurrency: 1,
  adjudication: { resign: { moveCount: 4, score: 1000, twoSided: true }, draw: { moveNumber: 40, moveCount: 8, score: 10 }, maxMoves: game === 'chess' ? 150 : 256 },
  hangTimeoutMs: 60_000,
  graceMs: 2000,
  // A niced run on a loaded machine starts a ladder engine in well over 20 s; a start that timed out
  // scored as a crash at ply 0 and cost about half the learning games.
  startTimeoutMs: 90_000,
  logLines: 20,
});

/** Plays `player` against every ladder engine (`games` each, the same openings every time); W/D/L per pairing. */
async function measure(player: MatchEngineEntry, games: number, seed: number): Promise<PairingResult[]> {
  const results: PairingResult[] = [];
  for (const opp of ladderSpecs) {
    const m = await runMatch({ ...matchBase(seed), engines: [player, { spec: opp, tc: tcOf(opp) }], games, outDir: join(out, 'matches', `${player.spec.name}-${opp.name}`) });
    const r = pairingResults(player.spec.name!, [m])[0]!;
    const reasons = new Map<string, number>();
    for (const g of m.games) reasons.set(g.reason, (reasons.get(g.reason) ?? 0) + 1);
    log(`  ${player.spec.name} vs ${opp.name}: +${r.wins} =${r.draws} -${r.losses} (${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ')})`);
    results.push(r);
  }
  return results;
}

/** The JSON-lines game log of a match game, with Kishi's recorded searches (what the bots write). */
function writeGameLog(r: GameRecord, kishiName: string, searches: Map<string, GoResult>, file: string): void {
  const ourSide: Side = r.players.first === kishiName ? 'first' : 'second';
  const ev = leafEvaluator(game, new Float64Array(game === 'chess' ? 978 : 1322));
  const board = ev.board(r.opening.start, 'standard');
  if (typeof board === 'string') throw new KishiError('ERR_BENCH', board);
  const w = GameLogWriter.open(file, {
    type: 'header',
    version: 1,
    game,
    variant: 'standard',
    server: 'match',
    gameId: file.replace(/^.*\//, '').replace(/\.jsonl$/, ''),
    start: r.opening.start,
    ourSide,
    players: { first: { name: r.players.first }, second: { name: r.players.second } },
    ...(kishiTc.baseMs !== undefined ? { clock: { initialMs: kishiTc.baseMs, incrementMs: kishiTc.incMs, ...(kishiTc.byoyomiMs > 0 ? { byoyomiMs: kishiTc.byoyomiMs } : {}) } } : {}),
    engine: kishiName,
    startedAt: r.startedAt,
  });
  const all = [...r.opening.moves, ...r.moves.map((m) => m.move)];
  const played: string[] = [];
  for (let ply = 0; ply < all.length; ply++) {
    const side: Side = board.sideToMove() === 0 ? 'first' : 'second';
    const book = ply < r.opening.moves.length;
    const found = book || side !== ourSide ? undefined : searches.get(`${r.opening.start}|${played.join(' ')}`);
    const info = found?.info;
    w.move({
      ply,
      side,
      move: all[ply]!,
      ours: side === ourSide && !book,
      position: board.toText(),
      ...(info ? { search: { score: info.score, depth: info.depth, nodes: info.nodes, timeMs: info.timeMs, pv: info.pv, ...(found?.pvLeaf ? { pvLeaf: found.pvLeaf } : {}) } } : {}),
    });
    const mv = board.parseMove(all[ply]!);
    if (mv === 0) throw new KishiError('ERR_BENCH', `illegal ${all[ply]} in ${board.toText()}`);
    board.make(mv);
    played.push(all[ply]!);
  }
  w.finish({ winner: r.end.winner ?? null, status: r.end.reason, plies: all.length, endedAt: new Date().toISOString() });
}

/** Writes what is measured so far (`<out>/partial.json`), so that a run stopped early still has its numbers. */
function partial(state: Record<string, unknown>): void {
  writeFileSync(join(out, 'partial.json'), `${JSON.stringify({ at: new Date().toISOString(), game, ...state }, null, 1)}\n`);
}

/** The TreeStrap weights to measure: a file, or with `auto` the shipped `models/<game>-linear.json` when TreeStrap made it. */
function treestrapWeights(option: string | undefined): { file?: string; why: string } {
  if (option === undefined) return { why: 'no --treestrap given' };
  const file = resolveModelPath(option === 'auto' ? `models/${game}-linear.json` : option);
  const w = loadWeightsFile(file, game);
  if (w.isErr) return { why: `${file}: ${w.error.message}` };
  const method = w.value.manifest.provenance.method;
  if (option === 'auto' && !/strap/i.test(method)) return { why: `${file} has provenance method '${method}', not TreeStrap` };
  return { file, why: method };
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const seed = Number(a.seed);
  const learnGames = Number(a['learn-games']);
  const evalGames = Number(a['eval-games']);
  const start = resolveModelPath(a.weights ?? `models/${game}-${nnue ? 'nnue.bin' : 'linear.json'}`);
  const live = join(out, `${game}-live.${ext}`);
  copyModel(start, live);
  const defaults = parseConfig('').unwrap();
  const config: OnlineConfig = {
    engine: nnue
      ? { ...defaults.engine, [game === 'chess' ? 'chessEval' : 'shogiEval']: 'nnue', [game === 'chess' ? 'chessNnue' : 'shogiNnue']: live }
      : { ...defaults.engine, [game === 'chess' ? 'chessEval' : 'shogiEval']: 'linear', [game === 'chess' ? 'chessWeights' : 'shogiWeights']: live },
    learning: {
      ...defaults.learning,
      online: true,
      ...(a.alpha !== undefined ? (nnue ? { nnueAlpha: Number(a.alpha) } : { alpha: Number(a.alpha) }) : {}),
      ...(a.lambda !== undefined ? { lambda: Number(a.lambda) } : {}),
      ...(a.cap !== undefined ? { maxChangePerGameCp: Number(a.cap) } : {}),
    },
  };
  log(`${game}: kishi ${a['kishi-nodes'] !== undefined ? `${a['kishi-nodes']} nodes/move` : `tc ${a.tc}`}; phases ${a.phases}; ladder ${ladderSpecs.map((s) => s.name).join(', ')}; tc ${a.tc}; start ${start}; learning ${JSON.stringify(config.learning)}`);

  const phases = new Set(a.phases!.split(','));
  // 1. Before: the starting weights, fixed.
  const before = join(out, `${game}-before.${ext}`);
  copyModel(start, before);
  const results: PairingResult[] = [];
  if (phases.has('before')) {
    log(`measuring kishi-before (${evalGames} games per ladder engine)`);
    results.push(...(await measure(kishiEntry('kishi-before', before), evalGames, seed)));
    partial({ phase: 'before', results });
  }

  // 2. Learning: online TD-Leaf against the ladder in turn, one game at a time (colours alternate), so that
  // every game plays with the weights the previous game's update wrote, as `learning.online` does on a server.
  const updates: { game: number; opponent: string; colour: Side; result: string; reason: string; status: string; skipped?: string; largestChange?: number }[] = [];
  const tally = { wins: 0, draws: 0, losses: 0 };
  for (let g = 1; phases.has('learn') && g <= learnGames; g++) {
    const opp = ladderSpecs[Math.floor((g - 1) / 2) % ladderSpecs.length]!;
    const searches = new Map<string, GoResult>();
    const records: GameRecord[] = [];
    const kishi = kishiEntry('kishi-learning', live, searches);
    const other: MatchEngineEntry = { spec: opp, tc: tcOf(opp) };
    await runMatch({
      ...matchBase(seed * 1000 + g + 17),
      engines: g % 2 === 1 ? [kishi, other] : [other, kishi],
      games: 1,
      onEvent: (e) => {
        if (e.type === 'game') records.push(e.record);
      },
    });
    const r = records[0];
    if (r === undefined) {
      log(`  learn game ${g} vs ${opp.name}: no game record`);
      continue;
    }
    const file = join(out, 'logs', `learn-${String(g).padStart(4, '0')}.jsonl`);
    writeGameLog(r, 'kishi-learning', searches, file);
    const res = await onGameFinished(file, config);
    const ourSide: Side = r.players.first === 'kishi-learning' ? 'first' : 'second';
    const result = r.end.winner === undefined ? 'draw' : r.end.winner === ourSide ? 'win' : 'loss';
    tally[result === 'win' ? 'wins' : result === 'draw' ? 'draws' : 'losses']++;
    updates.push({
      game: g,
      opponent: opp.name!,
      colour: ourSide,
      result,
      reason: r.end.reason,
      status: res.status,
      ...(res.reason !== undefined ? { skipped: String(res.reason) } : {}),
      ...(res.largestChange !== undefined ? { largestChange: res.largestChange } : {}),
    });
    log(`  learn game ${g} vs ${opp.name} (kishi ${ourSide}): ${result} (${r.end.reason}); ${res.status}${res.reason ? ` ${res.reason}` : ''}${res.largestChange !== undefined ? `, largest change ${res.largestChange.toFixed(2)} cp` : ''}`);
    if (g % 10 === 0) partial({ phase: 'learning', learnt: g, learningResults: tally, results });
  }
  const after = join(out, `${game}-after.${ext}`);
  copyModel(live, after);

  // 3. After: the learnt weights, fixed, on the same openings.
  if (phases.has('after')) {
    log(`measuring ${a['after-name']}`);
    results.push(...(await measure(kishiEntry(a['after-name']!, after), evalGames, seed)));
    partial({ phase: 'after', learningResults: tally, results });
  }
  // 4. TreeStrap's weights on the same footing, when given (`auto`: the shipped weights, read now, when TreeStrap made them).
  const treestrap = phases.has('treestrap') && !nnue ? treestrapWeights(a.treestrap) : { why: nnue ? 'linear only' : 'phase not run' };
  if (treestrap.file !== undefined) {
    const copy = join(out, `${game}-treestrap.json`);
    copyFileSync(treestrap.file, copy);
    log(`measuring kishi-treestrap (${treestrap.file}, copied to ${copy})`);
    results.push(...(await measure(kishiEntry('kishi-treestrap', copy), evalGames, seed)));
  } else log(`no TreeStrap weights measured: ${treestrap.why}`);

  const anchor = ladderSpecs[0]!.name!;
  const fit = fitBradleyTerry(results, { anchors: { [anchor]: 0 } });
  const table = formatTable(ratingTableRows(fit));
  writeFileSync(join(out, 'ratings.txt'), `${table}\n`);
  const report = {
    kind: 'kishi-tdleaf-comparison',
    game,
    tc: a.tc,
    kishiNodes: kishiTc.nodes ?? null,
    phases: [...phases],
    command: process.argv.slice(1).join(' '),
    ladder: ladderSpecs.map((s) => ({ name: s.name, command: s.command, options: s.options, time: s.time })),
    anchor: `${anchor} = 0`,
    learnGames,
    evalGamesPerOpponent: evalGames,
    learning: config.learning,
    learningResults: tally,
    treestrap: treestrap.file ?? `none: ${treestrap.why}`,
    updates,
    results,
    ratings: fit.players.map((p) => ({ name: p.name, status: p.status, rating: p.rating, low: p.low, high: p.high, games: p.games, points: p.points })),
    durationS: Math.round((Date.now() - t0) / 1000),
  };
  writeFileSync(join(out, 'report.json'), `${JSON.stringify(report, null, 1)}\n`);
  console.log(table);
  log(`done in ${report.durationS} s; ${out}/report.json`);
}

/** `--merge A/report.json,B/report.json`: one rating fit over the pairings of several runs (same ladder). */
function merge(files: readonly string[]): void {
  const reports = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { results: PairingResult[]; anchor: string });
  const anchor = ladderSpecs[0]!.name!;
  const fit = fitBradleyTerry(
    reports.flatMap((r) => r.results),
    { anchors: { [anchor]: 0 } },
  );
  const table = formatTable(ratingTableRows(fit));
  writeFileSync(join(out, 'ratings.txt'), `${table}\n`);
  writeFileSync(
    join(out, 'merged.json'),
    `${JSON.stringify({ kind: 'kishi-tdleaf-comparison-merged', game, from: files, anchor: `${anchor} = 0`, ratings: fit.players.map((p) => ({ name: p.name, status: p.status, rating: p.rating, low: p.low, high: p.high, games: p.games, points: p.points })) }, null, 1)}\n`,
  );
  console.log(table);
}

if (a.merge !== undefined) merge(a.merge.split(','));
else await main();
