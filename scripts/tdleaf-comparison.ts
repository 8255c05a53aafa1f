/**
 * TD-Leaf comparison run (a benchmark, not a test), in the spirit of KnightCap's FICS experiment:
 * start from material-only weights, play a fixed ladder of opponents near Kishi's strength with
 * online TD-Leaf on (after every game the live weights move by that game's update, exactly as
 * `learning.online` does on lichess/floodgate: the game's JSON-lines log, then `onGameFinished`),
 * and measure the rating before and after with the match runner (same ladder, same openings, fixed
 * weights), optionally also TreeStrap's weights on the same footing.
 *
 *   node dist/scripts/tdleaf-comparison.js --game chess --learn-games 100 --eval-games 20 --out bench-results/tdleaf-chess
 *       [--ladder 'name=sf-0,cmd=/usr/games/stockfish,option.Skill Level=0;...'] [--tc 10+0.1] [--byoyomi MS] [--treestrap FILE]
 *       [--alpha 1000] [--lambda 0.7] [--cap 10] [--openings data/openings/chess-balanced.epd] [--seed 1]
 *
 * Kishi plays in-process (the alpha-beta engine inline, tournament search) under the clock; the
 * ladder engines are processes. Ratings come from one Bradley-Terry fit of every measured player
 * against the ladder, the first ladder engine anchored at 0: they are Elo relative to it, with
 * 95% intervals. Output: `<out>/report.json`, `<out>/ratings.txt`, the weights after learning, the
 * learning games' logs and the weights history.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/config/load.js';
import type { GameKind, Side } from '../src/core/game.js';
import { KishiError, Result } from '../src/core/result.js';
import { GameLogWriter } from '../src/learning/records/game-log.js';
import { leafEvaluator } from '../src/learning/tdleaf/leaf.js';
import { onGameFinished, type OnlineConfig } from '../src/learning/tdleaf/online.js';
import { PlayerEngine } from '../src/match/engine/player-engine.js';
import { parseEngineSpec, type EngineSpec } from '../src/match/engine/engine-spec.js';
import type { MatchEngine } from '../src/match/engine/match-engine.js';
import type { GameRecord } from '../src/match/game-record.js';
import type { MatchConfig, MatchEngineEntry } from '../src/match/match-runner.js';
import { runMatch } from '../src/match/match-runner.js';
import { pairingResults } from '../src/match/gauntlet.js';
import { defaultOpenings, loadOpenings, type Opening } from '../src/match/openings.js';
import { seededRng } from '../src/match/rng.js';
import { fitBradleyTerry, formatTable, ratingTableRows, type PairingResult } from '../src/match/stats/index.js';
import type { TimeControl } from '../src/match/time-control.js';
import { parseClockText } from '../src/match/time-control.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../src/player/alphabeta-engine.js';
import type { GoRequest, GoResult, Player } from '../src/player/player.js';
import { loadWeightsFile, resolveModelPath } from '../src/player/weights-file.js';

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
  },
});

const game = a.game as GameKind;
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
  ) {
    this.name = name;
    this.engine = new AlphaBetaEngine({ game, theta, hashMb: 16, moveOverheadMs: 50 });
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
  tc,
  factory: async () => {
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
  startTimeoutMs: 20_000,
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
    ...(tc.baseMs !== undefined ? { clock: { initialMs: tc.baseMs, incrementMs: tc.incMs, ...(tc.byoyomiMs > 0 ? { byoyomiMs: tc.byoyomiMs } : {}) } } : {}),
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

async function main(): Promise<void> {
  const t0 = Date.now();
  const seed = Number(a.seed);
  const learnGames = Number(a['learn-games']);
  const evalGames = Number(a['eval-games']);
  const start = resolveModelPath(a.weights ?? `models/${game}-linear.json`);
  const live = join(out, `${game}-live.json`);
  copyFileSync(start, live);
  const defaults = parseConfig('').unwrap();
  const config: OnlineConfig = {
    engine: { ...defaults.engine, [game === 'chess' ? 'chessWeights' : 'shogiWeights']: live },
    learning: {
      ...defaults.learning,
      online: true,
      ...(a.alpha !== undefined ? { alpha: Number(a.alpha) } : {}),
      ...(a.lambda !== undefined ? { lambda: Number(a.lambda) } : {}),
      ...(a.cap !== undefined ? { maxChangePerGameCp: Number(a.cap) } : {}),
    },
  };
  log(`${game}: ladder ${ladderSpecs.map((s) => s.name).join(', ')}; tc ${a.tc}; start ${start}; learning ${JSON.stringify(config.learning)}`);

  // 1. Before: the starting weights, fixed.
  const before = join(out, `${game}-before.json`);
  copyFileSync(start, before);
  log(`measuring kishi-before (${evalGames} games per ladder engine)`);
  const results: PairingResult[] = await measure(kishiEntry('kishi-before', before), evalGames, seed);

  // 2. Learning: online TD-Leaf against the ladder in turn, a pair of games (colours swapped) at a time.
  const updates: { game: number; opponent: string; result: string; status: string; reason?: string; largestChange?: number }[] = [];
  const tally = { wins: 0, draws: 0, losses: 0 };
  for (let g = 0; g < learnGames; g += 2) {
    const opp = ladderSpecs[(g / 2) % ladderSpecs.length]!;
    const searches = new Map<string, GoResult>();
    const records: GameRecord[] = [];
    await runMatch({
      ...matchBase(seed * 1000 + g + 17),
      engines: [kishiEntry('kishi-learning', live, searches), { spec: opp, tc: tcOf(opp) }],
      games: Math.min(2, learnGames - g),
      onEvent: (e) => {
        if (e.type === 'game') records.push(e.record);
      },
    });
    for (const r of records) {
      const n = g + r.id;
      const file = join(out, 'logs', `learn-${String(n).padStart(4, '0')}.jsonl`);
      writeGameLog(r, 'kishi-learning', searches, file);
      const res = await onGameFinished(file, config);
      const ourSide: Side = r.players.first === 'kishi-learning' ? 'first' : 'second';
      const result = r.end.winner === undefined ? 'draw' : r.end.winner === ourSide ? 'win' : 'loss';
      tally[result === 'win' ? 'wins' : result === 'draw' ? 'draws' : 'losses']++;
      updates.push({ game: n, opponent: opp.name!, result, status: res.status, ...(res.reason !== undefined ? { reason: String(res.reason) } : {}), ...(res.largestChange !== undefined ? { largestChange: res.largestChange } : {}) });
      log(`  learn game ${n} vs ${opp.name}: ${result} (${r.end.reason}); ${res.status}${res.reason ? ` ${res.reason}` : ''}${res.largestChange !== undefined ? `, largest change ${res.largestChange.toFixed(2)} cp` : ''}`);
    }
  }
  const after = join(out, `${game}-after.json`);
  copyFileSync(live, after);

  // 3. After: the learnt weights, fixed, on the same openings.
  log(`measuring kishi-after`);
  results.push(...(await measure(kishiEntry('kishi-after', after), evalGames, seed)));
  // 4. TreeStrap's weights on the same footing, when given.
  if (a.treestrap !== undefined) {
    log(`measuring kishi-treestrap (${a.treestrap})`);
    results.push(...(await measure(kishiEntry('kishi-treestrap', resolveModelPath(a.treestrap)), evalGames, seed)));
  }

  const anchor = ladderSpecs[0]!.name!;
  const fit = fitBradleyTerry(results, { anchors: { [anchor]: 0 } });
  const table = formatTable(ratingTableRows(fit));
  writeFileSync(join(out, 'ratings.txt'), `${table}\n`);
  const report = {
    kind: 'kishi-tdleaf-comparison',
    game,
    tc: a.tc,
    ladder: ladderSpecs.map((s) => ({ name: s.name, command: s.command, options: s.options, time: s.time })),
    anchor: `${anchor} = 0`,
    learnGames,
    evalGamesPerOpponent: evalGames,
    learning: config.learning,
    learningResults: tally,
    updates,
    results,
    ratings: fit.players.map((p) => ({ name: p.name, status: p.status, rating: p.rating, low: p.low, high: p.high, games: p.games, points: p.points })),
    durationS: Math.round((Date.now() - t0) / 1000),
  };
  writeFileSync(join(out, 'report.json'), `${JSON.stringify(report, null, 1)}\n`);
  console.log(table);
  log(`done in ${report.durationS} s; ${out}/report.json`);
}

await main();
