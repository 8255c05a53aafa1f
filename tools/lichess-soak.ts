/**
 * Soak benchmark for the lichess bot (not a test): plays N games against the local lichess-compatible server
 * with faults injected all along, and reports time forfeits, stuck games, crashes and schema violations.
 *
 *   npx vite-node tools/lichess-soak.ts -- --games 100 --concurrency 4 --engine test --seed 1
 *   npx vite-node tools/lichess-soak.ts -- --games 20 --engine alphabeta --clock 20+1 [--ponder]
 *   npx vite-node tools/lichess-soak.ts -- --games 30 --stalls-only --keep-alive-ms 700   (the clock each stall costs)
 *   npx vite-node tools/lichess-soak.ts -- --games 20 --engine alphabeta --first-moves     (first moves against their limit)
 *
 * Faults (seeded): game streams that stall silently or drop at a random ply, 429s (JSON and HTML) and
 * 502/504/dropped/applied-then-504 answers on random moves, chunk modes cycling (split, merged, normal),
 * keep-alive gaps shorter than the watchdog, the event stream stalled, dropped or closed by a second
 * stream, and challenges that expire before the bot's accept reaches the server.
 * `--engine test` plays the first legal move (instant: it measures the protocol layer); `--engine alphabeta`
 * plays the real engine from config/kishi.yaml (`createPlayer`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { Dispatcher } from '../src/bot/dispatcher.js';
import { loadConfig, parseConfig } from '../src/config/load.js';
import type { GameKind } from '../src/core/game.js';
import { createPlayer } from '../src/player/factory.js';
import { packageRoot } from '../src/core/package-path.js';
import type { GoRequest, GoResult, Player } from '../src/player/player.js';
import { LichessBot } from '../src/protocols/lichess/game-server.js';
import { gameSilenceMs } from '../src/protocols/lichess/server-profile.js';
import { ChessLine } from '../src/protocols/lichess/chess-line.js';
import type { VariantKey } from '../src/protocols/lichess/types.js';
import { seededRandom } from '../src/protocols/lichess/fake/opponents.js';
import type { FaultResponse, SentMessage } from '../src/protocols/lichess/fake/server.js';
import { LichessTestServer } from '../src/protocols/lichess/fake/server.js';

interface Args {
  games: number;
  concurrency: number;
  engine: 'test' | 'alphabeta';
  seed: number;
  clockS: number;
  incS: number;
  ponder: boolean;
  /** The server's keep-alive cadence, milliseconds. */
  keepAliveMs: number;
  /** The bot's game-stream stall threshold (0: the client's default for `keepAliveMs`), milliseconds. */
  gameSilenceMs: number;
  reconnectMinMs: number;
  /** Every game gets one game-stream stall and no other fault (the stall-cost measurement). */
  stallsOnly: boolean;
  /** Games end after the first moves (the opponent resigns at ply 2), no faults: the first-move measurement. */
  firstMoves: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { games: 100, concurrency: 4, engine: 'test', seed: 1, clockS: 60, incS: 1, ponder: false, keepAliveMs: 500, gameSilenceMs: 3000, reconnectMinMs: 100, stallsOnly: false, firstMoves: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1] ?? '';
    switch (argv[i]) {
      case '--games':
        args.games = Number(v);
        i++;
        break;
      case '--concurrency':
        args.concurrency = Number(v);
        i++;
        break;
      case '--engine':
        args.engine = v === 'alphabeta' ? 'alphabeta' : 'test';
        i++;
        break;
      case '--seed':
        args.seed = Number(v);
        i++;
        break;
      case '--ponder':
        args.ponder = true;
        break;
      case '--stalls-only':
        args.stallsOnly = true;
        break;
      case '--first-moves':
        args.firstMoves = true;
        break;
      case '--keep-alive-ms':
        args.keepAliveMs = Number(v);
        i++;
        break;
      case '--game-silence-ms':
        args.gameSilenceMs = Number(v);
        i++;
        break;
      case '--reconnect-min-ms':
        args.reconnectMinMs = Number(v);
        i++;
        break;
      case '--clock': {
        const [a, b] = v.split('+');
        args.clockS = Number(a);
        args.incS = Number(b ?? 0);
        i++;
        break;
      }
    }
  }
  return args;
}

/** The protocol-layer stand-in: first legal move, instantly. Clearly not an engine. */
class FirstLegal implements Player {
  readonly name = 'first-legal (soak)';
  supports(game: GameKind, variant: string): boolean {
    return game === 'chess' && variant === 'standard';
  }
  async go(r: GoRequest): Promise<GoResult> {
    const line = ChessLine.create(r.variant as VariantKey, r.start).unwrap();
    line.sync(r.moves).unwrap();
    const move = line.legalMoves().sort()[0] ?? '0000';
    return { move, info: { depth: 1, score: { cp: 0 }, nodes: 1, nps: 0, timeMs: 0, pv: [move] } };
  }
  stop(): void {}
  ponderhit(): void {}
  async newGame(): Promise<void> {}
  async close(): Promise<void> {}
}

class Schemas {
  private readonly v = new Map<string, ValidateFunction>();
  failures = 0;
  checked = 0;
  readonly examples: string[] = [];
  constructor() {
    const dir = join(packageRoot(), 'tests', 'fixtures', 'lichess', 'schemas');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const f of readdirSync(dir)) this.v.set(f.replace(/\.json$/, ''), ajv.compile(JSON.parse(readFileSync(join(dir, f), 'utf8')) as object));
  }
  check = (s: SentMessage): void => {
    if (s.schema === undefined) return;
    this.checked++;
    const validate = this.v.get(s.schema);
    if (validate?.(s.message)) return;
    this.failures++;
    if (this.examples.length < 3) this.examples.push(`${s.schema}: ${JSON.stringify(validate?.errors?.slice(0, 2))} ${JSON.stringify(s.message).slice(0, 300)}`);
  };
}

/** A summary of milliseconds: count, mean, median, 90th percentile, max. */
function summary(xs: readonly number[]): { n: number; mean: number; median: number; p90: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { n: s.length, mean: s.length ? Math.round(s.reduce((a, b) => a + b, 0) / s.length) : 0, median: at(0.5), p90: at(0.9), max: at(1) };
}

/**
 * What the stalls cost our clock: in each stalled game, the clock our first move at or after the stall ply
 * spent (clock before it + increment - clock after it, the server's own accounting), against the same for all
 * our other clocked moves (the baseline: an instant Player's round trip).
 */
function stallCosts(
  games: readonly { id: string; moves: readonly string[]; clockAfter: readonly (number | undefined)[] }[],
  stallPlies: ReadonlyMap<string, number>,
  ourParity: (id: string) => number,
  incMs: number,
): { stalled: ReturnType<typeof summary>; baseline: ReturnType<typeof summary> } {
  const stalled: number[] = [];
  const baseline: number[] = [];
  for (const g of games) {
    const parity = ourParity(g.id);
    const stallPly = stallPlies.get(g.id);
    let counted = false;
    // moves[i] is ply i + 1; our clock runs from our second move (lichess: clocks start after ply 2).
    for (let i = parity + 2; i < g.moves.length; i += 2) {
      const before = g.clockAfter[i - 2];
      const after = g.clockAfter[i];
      if (before === undefined || after === undefined) continue;
      const spent = before + incMs - after;
      if (stallPly !== undefined && !counted && i + 1 > stallPly) {
        counted = true;
        stalled.push(spent);
      } else baseline.push(spent);
    }
  }
  return { stalled: summary(stalled), baseline: summary(baseline) };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rand = seededRandom(args.seed);
  const schemas = new Schemas();
  const token = ['lip', 'SoakTokenNeverLogged000001'].join('_');
  const server = new LichessTestServer({
    bot: { username: 'SoakBot', token },
    keepAliveMs: args.keepAliveMs,
    firstMoveMs: 15_000,
    claimWinSeconds: 1,
    challengeExpiryMs: 20_000,
    seed: args.seed,
    onSend: schemas.check,
  });
  await server.start();
  const recordsDir = mkdtempSync(join(tmpdir(), 'kishi-soak-'));
  const base = parseConfig('').unwrap();
  const fileConfig = args.engine === 'alphabeta' ? loadConfig('config/kishi.yaml').unwrap() : base;
  const config = {
    ...base.lichess,
    enabled: true,
    url: server.url,
    concurrency: args.concurrency,
    abortTimeS: 20,
    challenge: { ...base.lichess.challenge, speeds: ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical'], maxGamesPerOpponent: 100 },
    drawOrResign: { ...base.lichess.drawOrResign, offerDrawEnabled: false },
  };
  let crashes = 0;
  process.on('uncaughtException', (e) => {
    crashes++;
    console.error(`uncaught: ${e.stack ?? e.message}`);
  });
  process.on('unhandledRejection', (e) => {
    crashes++;
    console.error(`unhandled rejection: ${String(e)}`);
  });
  const dispatcher = new Dispatcher(async (game) => {
    if (args.engine === 'test') return new FirstLegal();
    const p = createPlayer(fileConfig.engine, game);
    if (p.isErr) throw p.error;
    return p.value;
  });
  (await dispatcher.prepare(['chess'])).unwrap();
  const bot = new LichessBot({
    config,
    token,
    moveOverheadMs: fileConfig.engine.moveOverheadMs,
    ponder: args.ponder,
    dispatcher,
    recordsDir,
    timings: {
      silenceMs: 3000,
      ...(args.gameSilenceMs > 0 ? { gameSilenceMs: args.gameSilenceMs } : { gameSilenceMs: gameSilenceMs({ gameKeepAliveMs: args.keepAliveMs }, 0) }),
      reconnectMinMs: args.reconnectMinMs,
      reconnectMaxMs: 2000,
      gameReconnectMaxMs: 1000,
      requestTimeoutMs: 5000,
      rateLimitScale: 0.25,
      retryMinDelayMs: 50,
      retryMaxDelayMs: 1000,
      retryForMs: 20_000,
      claimMarginMs: 200,
      acceptHoldMs: 5000,
    },
  });
  let botFailed: string | undefined;
  const running = bot.start().catch((e: unknown) => {
    botFailed = (e as Error).message;
    crashes++;
  });

  const started = Date.now();
  const gameIds: string[] = [];
  const plans = new Map<string, { ply: number; fault: 'stall' | 'drop' | FaultResponse; done: boolean }>();
  /** The ply at which each stalled game's stream went silent. */
  const stallPlies = new Map<string, number>();
  const moveFaults: FaultResponse[] = ['429json', '429html', '502', '504', 'drop', 'applied504'];
  let challenges = 0;
  let expired = 0;
  const deadline = (i: number): number => args.clockS * 2000 + 300 * args.incS * 1000 + 120_000 + i;
  const startedAt = new Map<string, number>();
  let chunkTimer = 0;
  let lastGlobalFault = Date.now();

  while (gameIds.length < args.games || server.activeBotGames() > 0) {
    const now = Date.now();
    // Keep the bot busy: a new challenge whenever a slot is free.
    if (gameIds.length < args.games && bot.busySlots() < args.concurrency && server.activeBotGames() < args.concurrency) {
      challenges++;
      if (!args.firstMoves && rand() < 0.05) {
        // A challenge that expires before the (delayed) accept arrives.
        const ghost = server.challenge({ from: `Ghost${challenges}`, clock: { limit: args.clockS, increment: args.incS }, expireMs: 50 });
        server.failRequests({ method: 'POST', path: new RegExp(`/api/challenge/${ghost}/accept$`) }, { delayMs: 300 }, 1);
        expired++;
        await new Promise((r) => setTimeout(r, 400));
        continue;
      }
      const id = server.challenge({
        from: `Opp${challenges % 7}`,
        title: 'BOT',
        clock: { limit: args.clockS, increment: args.incS },
        opponent: { then: rand() < 0.5 ? 'greedy' : 'random', seed: challenges, delayMs: Math.floor(rand() * 30), maxPlies: args.firstMoves ? 2 : 160 },
      });
      await server.waitFor(() => server.challengeStatus(id)?.status !== 'created', 30_000).catch(() => {});
      if (server.challengeStatus(id)?.status === 'accepted') {
        gameIds.push(id);
        startedAt.set(id, Date.now());
        const r = rand();
        const ply = 2 + Math.floor(rand() * 30);
        const fault = args.firstMoves ? undefined : args.stallsOnly ? 'stall' : r < 0.25 ? 'stall' : r < 0.45 ? 'drop' : r < 0.75 ? moveFaults[Math.floor(rand() * moveFaults.length)] : undefined;
        if (fault !== undefined) plans.set(id, { ply, fault, done: false });
      }
    }
    // Per-game faults when their ply comes.
    for (const [id, plan] of plans) {
      const g = server.game(id);
      if (plan.done || g === undefined || g.isOver() || g.plies() < plan.ply) continue;
      plan.done = true;
      if (plan.fault === 'stall') {
        server.stallGameStreamAt(id, g.plies() + 1);
        stallPlies.set(id, g.plies() + 1);
      }
      else if (plan.fault === 'drop') server.dropGameStreamAt(id, g.plies() + 1);
      else server.failRequests({ method: 'POST', path: new RegExp(`/api/bot/game/${id}/move/`) }, plan.fault, 1, plan.fault === '429html' ? 1 : undefined);
    }
    // Global faults every few seconds.
    if (!args.firstMoves && now - chunkTimer > 5000) {
      chunkTimer = now;
      const modes = ['normal', 'split', 'merge'] as const;
      server.setChunkMode(modes[Math.floor(rand() * modes.length)] ?? 'normal');
    }
    if (!args.stallsOnly && !args.firstMoves && now - lastGlobalFault > 8000) {
      lastGlobalFault = now;
      const r = rand();
      if (r < 0.25) server.keepAliveGap(1500);
      else if (r < 0.5) server.stallEventStream();
      else if (r < 0.75) server.dropEventStream();
      else server.secondEventStream();
    }
    // Stuck games.
    for (const id of gameIds) {
      const g = server.game(id);
      if (g && !g.isOver() && now - (startedAt.get(id) ?? now) > deadline(0)) {
        console.error(`stuck: ${id} after ${g.plies()} plies`);
        g.finish('aborted', undefined);
      }
    }
    if (botFailed !== undefined) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  // Every game the server ran (an expiring challenge the bot still caught in time counts too).
  const games = server.allGames();
  const ourColor = (id: string): string => (server.game(id)?.init.white.id === 'soakbot' ? 'white' : 'black');
  const forfeits = games.filter((g) => g.status === 'outoftime' && g.winner !== undefined && g.winner !== ourColor(g.id)).length;
  const stuck = games.filter((g) => !g.isOver() || g.status === 'aborted').length;
  const byStatus = new Map<string, number>();
  for (const g of games) byStatus.set(g.status, (byStatus.get(g.status) ?? 0) + 1);
  const ourColorIndex = (id: string): number => (ourColor(id) === 'white' ? 0 : 1);
  const stallCost = stallCosts(games, stallPlies, (id) => (ourColor(id) === 'white' ? 0 : 1), args.incS * 1000);
  // Our first move (ply 0 or 1): the time it took on the server against the first-move limit the bot plans
  // with (lichess.firstMoveMs; the server's own window is longer here).
  const firstSpent = games.filter((g) => g.spentMs.length > ourColorIndex(g.id)).map((g) => g.spentMs[ourColorIndex(g.id)]!);
  const firstMove = { limitMs: config.firstMoveMs, spent: summary(firstSpent), underHalf: firstSpent.filter((ms) => ms < config.firstMoveMs / 2).length, overLimit: firstSpent.filter((ms) => ms > config.firstMoveMs).length };
  const wins = games.filter((g) => g.winner !== undefined && g.winner === ourColor(g.id)).length;
  const losses = games.filter((g) => g.winner !== undefined && g.winner !== ourColor(g.id)).length;
  await bot.stop(false);
  await running;
  await server.stop();
  await dispatcher.close();
  const finishedByBot = bot.finished.length;
  const seen = new Map<string, number>();
  for (const f of bot.finished) seen.set(f.gameId, (seen.get(f.gameId) ?? 0) + 1);
  const oddFinished = [...seen].filter(([id, n]) => n > 1 || !gameIds.includes(id)).map(([id, n]) => `${id}x${n}:${bot.finished.filter((f) => f.gameId === id).map((f) => f.status).join('/')}`);
  const records = readdirSync(join(recordsDir, 'lichess')).filter((f) => f.endsWith('.pgn')).length;
  const s = server.stats;
  console.log(
    JSON.stringify(
      {
        engine: args.engine,
        ponder: args.ponder,
        clock: `${args.clockS}+${args.incS}`,
        concurrency: args.concurrency,
        seed: args.seed,
        games: games.length,
        seconds: Math.round((Date.now() - started) / 1000),
        statuses: Object.fromEntries(byStatus),
        wins,
        losses,
        timeForfeits: forfeits,
        stuckGames: stuck,
        crashes,
        botFailed: botFailed ?? null,
        peakGames: bot.stats.peakGames,
        gamesSeenFinishedByBot: finishedByBot,
        oddFinished,
        pgnRecords: records,
        expiringChallenges: expired,
        stallCostMs: stallCost,
        firstMove,
        faults: { httpFaultsServed: s.faultsServed, streamStalls: s.stalls, streamDrops: s.drops },
        reconnects: { eventStreamOpens: s.eventStreamOpens, gameStreamOpens: [...s.gameStreamOpens.values()].reduce((a, b) => a + b, 0) },
        client: bot.client.stats,
        schema: { checked: schemas.checked, failures: schemas.failures, examples: schemas.examples },
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

void main();
