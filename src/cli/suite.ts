/**
 * `kishi suite`: test positions against one engine (src/match/suite): chess EPD files (bm/am, STS
 * points) or shogi tsume SFEN files, at fixed nodes, depth or time per position.
 *
 *   kishi suite -e /usr/games/stockfish --nodes 100000 data/suites/wac300.epd
 *   kishi suite --game shogi -e /usr/games/fairy-stockfish --movetime 200 data/suites/tsume_mate-3-ply.sfen
 *
 * Prints the per-theme table and the totals; `--out` writes the JSON (every position's answer).
 * Exit codes: 0 done, 1 the engine could not be started, 2 bad usage or a bad file.
 */
import { availableParallelism } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import type { GameKind } from '../core/game.js';
import { GAME_KINDS } from '../core/game.js';
import { parseEngineSpec } from '../engines/engine-spec.js';
import { stringifyResultJson } from '../core/json.js';
import { parseNumber } from '../core/key-values.js';
import { formatTable } from '../match/stats/index.js';
import type { SuiteExpectation, SuiteLimits, SuitePosition, SuiteSummary } from '../match/suite/suite-runner.js';
import { loadSuite, runSuite } from '../match/suite/suite-runner.js';

/** The game of suite files by extension: all `.sfen` is shogi, all `.epd` chess, anything else unknown. */
export function suiteGame(files: readonly string[]): GameKind | undefined {
  if (files.every((f) => f.toLowerCase().endsWith('.sfen'))) return 'shogi';
  if (files.every((f) => f.toLowerCase().endsWith('.epd'))) return 'chess';
  return undefined;
}

export interface SuiteCliOptions {
  engine: string;
  /** Inferred from the files' extensions (.epd chess, .sfen shogi) when not given. */
  game?: GameKind;
  nodes?: string;
  depth?: string;
  movetime?: string;
  mate?: string;
  nomate?: string;
  concurrency?: string;
  hangTimeout: string;
  startTimeout: string;
  limit?: string;
  out?: string;
  quiet?: boolean;
}

const pct = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '-');

/** The per-theme table plus a total row, as text. */
export function formatSuiteTable(s: SuiteSummary): string {
  const sts = s.maxPoints !== s.positions;
  const header = ['theme', 'positions', 'solved', 'solved %', ...(sts ? ['points', 'max', 'points %'] : [])];
  const row = (name: string, n: number, solved: number, points: number, max: number): string[] => [
    name,
    String(n),
    String(solved),
    pct(solved, n),
    ...(sts ? [String(points), String(max), pct(points, max)] : []),
  ];
  const rows = s.themes.map((t) => row(t.theme, t.positions, t.solved, t.points, t.maxPoints));
  if (s.themes.length > 1) rows.push(row('total', s.positions, s.solved, s.points, s.maxPoints));
  return formatTable([header, ...rows]);
}

export async function suiteCommand(files: string[], o: SuiteCliOptions): Promise<number> {
  const fail = (m: string, code = 2): number => {
    console.error(`kishi suite: ${m}`);
    return code;
  };
  if (files.length === 0) return fail('give at least one EPD or SFEN file');
  const game = o.game ?? suiteGame(files);
  if (game === undefined) return fail('cannot tell the game from the file names (.epd is chess, .sfen shogi): give --game chess or --game shogi');
  const spec = parseEngineSpec(o.engine);
  if (spec.isErr) return fail(spec.error.message);
  const num = (t: string | undefined, what: string, integer: boolean): number | undefined | Error => {
    if (t === undefined) return undefined;
    const r = parseNumber(t, what, (x) => x > 0 && (!integer || Number.isInteger(x)));
    return r.isOk ? r.value : r.error;
  };
  const nodes = num(o.nodes, '--nodes', true);
  const depth = num(o.depth, '--depth', true);
  const movetime = num(o.movetime, '--movetime', false);
  const mate = num(o.mate, '--mate', true);
  const noMate = num(o.nomate, '--nomate', true);
  const concurrency = num(o.concurrency, '--concurrency', true);
  const limit = num(o.limit, '--limit', true);
  const hang = num(o.hangTimeout, '--hang-timeout', false);
  const start = num(o.startTimeout, '--start-timeout', false);
  for (const x of [nodes, depth, movetime, mate, noMate, concurrency, limit, hang, start]) if (x instanceof Error) return fail(x.message);
  if (nodes === undefined && depth === undefined && movetime === undefined) return fail('give --nodes, --depth or --movetime');
  const limits: SuiteLimits = {
    ...(nodes !== undefined ? { nodes: nodes as number } : {}),
    ...(depth !== undefined ? { depth: depth as number } : {}),
    ...(movetime !== undefined ? { movetimeMs: movetime as number } : {}),
  };
  const expectation: SuiteExpectation | undefined =
    mate !== undefined ? { kind: 'mate', plies: mate as number } : noMate !== undefined ? { kind: 'no-mate', plies: noMate as number } : undefined;

  const positions: SuitePosition[] = [];
  for (const f of files) {
    const loaded = loadSuite(f, game, expectation);
    if (loaded.isErr) return fail(loaded.error.message);
    positions.push(...(limit !== undefined ? loaded.value.slice(0, limit as number) : loaded.value));
  }
  const tty = process.stderr.isTTY === true;
  let solvedSoFar = 0;
  try {
    const s = await runSuite({
      engine: spec.value,
      game,
      positions,
      files,
      limits,
      concurrency: (concurrency as number | undefined) ?? availableParallelism(),
      hangTimeoutMs: ((hang as number | undefined) ?? 60) * 1000,
      startTimeoutMs: ((start as number | undefined) ?? 30) * 1000,
      onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
      onResult: (r, done, total) => {
        if (r.solved) solvedSoFar++;
        if (r.error !== undefined) process.stderr.write(`${tty ? '\r\x1b[K' : ''}${r.id}: ${r.error}\n`);
        if (o.quiet === true) return;
        const line = `[${done}/${total}] solved ${solvedSoFar} (${pct(solvedSoFar, done)})`;
        if (tty) process.stderr.write(`\r\x1b[K${line}${done === total ? '\n' : ''}`);
        else if (done === total || done % 50 === 0) process.stderr.write(`${line}\n`);
      },
    });
    console.log(`${s.engine}, ${Object.entries(limits).map(([k, v]) => `${k} ${v}`).join(', ')}:`);
    console.log(formatSuiteTable(s));
    console.log(`Solved ${s.solved} of ${s.positions} (${pct(s.solved, s.positions)})${s.maxPoints !== s.positions ? `, points ${s.points} of ${s.maxPoints} (${pct(s.points, s.maxPoints)})` : ''} in ${(s.durationMs / 1000).toFixed(1)} s`);
    if (o.out !== undefined) {
      mkdirSync(dirname(o.out), { recursive: true });
      writeFileSync(o.out, stringifyResultJson(s));
    }
    return 0;
  } catch (e) {
    return fail((e as Error).message, 1);
  }
}

export function register(program: Command): void {
  program
    .command('suite')
    .description('run test positions (chess EPD with bm/am or STS points, shogi tsume SFEN) against an engine')
    .argument('<files...>', 'EPD files (chess) or SFEN files (shogi)')
    .requiredOption('-e, --engine <spec>', 'the engine: "cmd=PATH,option.NAME=V,..." or a bare command (see kishi match)')
    .addOption(new Option('-g, --game <game>', 'game (default: from the file extensions, .epd chess, .sfen shogi)').choices([...GAME_KINDS]))
    .option('--nodes <n>', 'nodes per position')
    .option('--depth <n>', 'depth per position')
    .option('--movetime <ms>', 'time per position, ms')
    .option('--mate <plies>', 'shogi: every position is a mate within this many plies')
    .option('--nomate <plies>', 'shogi: no position has a mate within this many plies')
    .option('--concurrency <n>', 'engine instances at once (default: one per core)')
    .option('--limit <n>', 'only the first n positions of each file')
    .option('--hang-timeout <s>', 'how long a search may take beyond its movetime, seconds', '60')
    .option('--start-timeout <s>', 'how long uci/usi/isready may take, seconds', '30')
    .option('-o, --out <file>', 'write the results as JSON')
    .option('-q, --quiet', 'no progress line')
    .action(async (files: string[], opts: SuiteCliOptions) => {
      process.exitCode = await suiteCommand(files, opts);
    });
}
