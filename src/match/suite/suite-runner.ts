/**
 * `kishi suite`: test positions against one engine at fixed nodes, depth or time per position.
 *
 * - Chess EPD (epd.ts): solved when the move is a `bm` move (or, with only `am`, not an `am`
 *   move); STS-scored positions give the move's points (solved = full points).
 * - Shogi tsume (SFEN per line): `mate N` positions are solved when the engine's move is legal and
 *   either mates at once (checked with the rules adapter) or comes with a reported mate score of at
 *   most N plies; `no-mate N` positions when the engine does not claim a mate within N plies.
 *   The expectation comes from the file name (`tsume_mate-3-ply.sfen`, `tsume_no-mate-1-ply.sfen`)
 *   or from the caller.
 * Each position starts with `ucinewgame`/`usinewgame`; a crashed or hung engine is restarted and
 * the position counts as unsolved with the failure noted.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { ShogiGame } from '../../games/shogi/shogi-game.js';
import { EngineClient } from '../../engines/engine-client.js';
import type { EngineSpec } from '../../engines/engine-spec.js';
import type { MatchEngine } from '../../engines/match-engine.js';
import type { Score } from '../adjudication.js';
import { parseEpdLine, normaliseEngineMove } from './epd.js';

export type SuiteExpectation =
  | { readonly kind: 'epd'; readonly best: readonly string[]; readonly avoid: readonly string[]; readonly points: Readonly<Record<string, number>> }
  | { readonly kind: 'mate'; readonly plies: number }
  | { readonly kind: 'no-mate'; readonly plies: number };

export interface SuitePosition {
  readonly game: GameKind;
  /** FEN or SFEN. */
  readonly start: string;
  readonly id: string;
  readonly theme: string;
  readonly source: string;
  readonly expect: SuiteExpectation;
}

export interface SuiteLimits {
  readonly nodes?: number;
  readonly depth?: number;
  readonly movetimeMs?: number;
}

export interface PositionResult {
  readonly index: number;
  readonly id: string;
  readonly theme: string;
  readonly move: string;
  readonly solved: boolean;
  readonly points: number;
  readonly maxPoints: number;
  readonly score?: Score;
  readonly depth?: number;
  readonly nodes?: number;
  readonly timeMs: number;
  /** Why it failed when the engine misbehaved. */
  readonly error?: string;
}

export interface ThemeRow {
  readonly theme: string;
  readonly positions: number;
  readonly solved: number;
  readonly points: number;
  readonly maxPoints: number;
}

export interface SuiteSummary {
  readonly kind: 'kishi-suite';
  readonly version: 1;
  readonly engine: string;
  readonly files: readonly string[];
  readonly limits: SuiteLimits;
  readonly positions: number;
  readonly solved: number;
  readonly points: number;
  readonly maxPoints: number;
  readonly themes: readonly ThemeRow[];
  readonly durationMs: number;
  readonly results: readonly PositionResult[];
}

/** Reads a test file: `.epd` (or anything with EPD lines) for chess, SFEN lines for shogi. */
export function loadSuite(file: string, game: GameKind, expectation?: SuiteExpectation): Result<SuitePosition[], KishiError> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return Result.err(new KishiError('ERR_SUITE', `cannot read ${file}: ${(e as Error).message}`));
  }
  const name = basename(file).replace(/\.[^.]*$/, '');
  const out: SuitePosition[] = [];
  const lines = text.split(/\r?\n/);
  let shogiExpect = expectation;
  if (game === 'shogi' && shogiExpect === undefined) {
    const noMate = /no-?mate-(\d+)/i.exec(name);
    const mate = /mate-(\d+)/i.exec(name);
    if (noMate) shogiExpect = { kind: 'no-mate', plies: Number(noMate[1]) };
    else if (mate) shogiExpect = { kind: 'mate', plies: Number(mate[1]) };
    else return Result.err(new KishiError('ERR_SUITE', `${file}: say what the positions are (--mate N or --nomate N): the file name does not tell`));
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const source = `${file}:${i + 1}`;
    if (game === 'chess') {
      const p = parseEpdLine(line, source, name);
      if (p.isErr) return Result.err(p.error);
      const v = p.value;
      out.push({ game, start: v.fen, id: v.id, theme: v.theme, source, expect: { kind: 'epd', best: v.bestMoves, avoid: v.avoidMoves, points: v.points } });
    } else {
      const sfen = line.replace(/^sfen\s+/, '');
      const g = ShogiGame.fromSfen(sfen);
      if (g.isErr) return Result.err(new KishiError('ERR_SUITE', `${source}: ${g.error.message}`));
      out.push({ game, start: g.value.toText(), id: `${name}#${out.length + 1}`, theme: name, source, expect: shogiExpect! });
    }
  }
  return Result.ok(out);
}

/** Points available in a position: the best STS points, else 1. */
export function maxPointsOf(e: SuiteExpectation): number {
  if (e.kind === 'epd' && Object.keys(e.points).length > 0) return Math.max(...Object.values(e.points));
  return 1;
}

const matesWithin = (score: Score | undefined, plies: number): boolean => score !== undefined && 'mate' in score && score.mate > 0 && score.mate <= plies;

/** Scores one answer (see the module comment). */
export function judge(p: SuitePosition, move: string, score: Score | undefined): { solved: boolean; points: number } {
  const e = p.expect;
  if (e.kind === 'epd') {
    const m = normaliseEngineMove(p.start, move);
    if (m === undefined) return { solved: false, points: 0 };
    if (Object.keys(e.points).length > 0) {
      const pts = e.points[m] ?? 0;
      return { solved: pts === maxPointsOf(e), points: pts };
    }
    const solved = e.best.length > 0 ? e.best.includes(m) : e.avoid.length > 0 ? !e.avoid.includes(m) : false;
    return { solved, points: solved ? 1 : 0 };
  }
  const game = ShogiGame.fromSfen(p.start).unwrap();
  if (e.kind === 'no-mate') {
    const solved = !matesWithin(score, e.plies) && (move === 'resign' || game.parseMove(move).isOk);
    return { solved, points: solved ? 1 : 0 };
  }
  const parsed = game.parseMove(move);
  if (parsed.isErr) return { solved: false, points: 0 };
  game.play(parsed.value);
  const matesNow = game.isCheck() && game.legalMoves().length === 0;
  const solved = matesNow || matesWithin(score, e.plies);
  return { solved, points: solved ? 1 : 0 };
}

export interface SuiteConfig {
  readonly engine: EngineSpec;
  readonly game: GameKind;
  readonly positions: readonly SuitePosition[];
  readonly files: readonly string[];
  readonly limits: SuiteLimits;
  readonly concurrency: number;
  /** A search's deadline, ms (movetime + this when a movetime is given). */
  readonly hangTimeoutMs: number;
  readonly startTimeoutMs: number;
  /** Overrides starting the spec as a process (tests). */
  readonly factory?: () => Promise<Result<MatchEngine, KishiError>>;
  readonly onResult?: (r: PositionResult, done: number, total: number) => void;
  readonly onWarning?: (message: string) => void;
}

/** The per-theme table rows, in first-appearance order. */
export function themeRows(results: readonly PositionResult[]): ThemeRow[] {
  const rows = new Map<string, { positions: number; solved: number; points: number; maxPoints: number }>();
  for (const r of results) {
    const row = rows.get(r.theme) ?? { positions: 0, solved: 0, points: 0, maxPoints: 0 };
    row.positions++;
    row.solved += r.solved ? 1 : 0;
    row.points += r.points;
    row.maxPoints += r.maxPoints;
    rows.set(r.theme, row);
  }
  return [...rows].map(([theme, r]) => ({ theme, ...r }));
}

export async function runSuite(config: SuiteConfig): Promise<SuiteSummary> {
  const t0 = performance.now();
  const factory =
    config.factory ??
    (async (): Promise<Result<MatchEngine, KishiError>> =>
      (await EngineClient.start({ spec: config.engine, game: config.game, startTimeoutMs: config.startTimeoutMs, ...(config.onWarning ? { onWarning: config.onWarning } : {}) })).map((e) => e as MatchEngine));
  const results: PositionResult[] = new Array(config.positions.length);
  let next = 0;
  let done = 0;
  let engineName = config.engine.name ?? config.engine.command;
  const deadline = config.limits.movetimeMs !== undefined ? config.limits.movetimeMs + config.hangTimeoutMs : config.hangTimeoutMs;

  const worker = async (): Promise<void> => {
    let engine: MatchEngine | undefined;
    try {
      while (next < config.positions.length) {
        const index = next++;
        const p = config.positions[index]!;
        const base = { index, id: p.id, theme: p.theme, maxPoints: maxPointsOf(p.expect) };
        if (engine === undefined || !engine.alive()) {
          await engine?.close();
          const made = await factory();
          if (made.isErr) throw made.error; // cannot run the suite at all
          engine = made.value;
          engineName = engine.name;
        }
        const ready = await engine.newGame();
        let result: PositionResult;
        if (ready.isErr) {
          result = { ...base, move: '', solved: false, points: 0, timeMs: 0, error: ready.error.message };
          await engine.close();
        } else {
          const reply = await engine.go({ start: p.start, moves: [], ...config.limits, deadlineMs: deadline });
          if (reply.kind === 'move') {
            const j = judge(p, reply.move, reply.info?.score);
            result = {
              ...base,
              move: reply.move,
              ...j,
              ...(reply.info !== undefined ? { score: reply.info.score, depth: reply.info.depth, nodes: reply.info.nodes } : {}),
              timeMs: Math.round(reply.elapsedMs),
            };
          } else {
            const error = reply.kind === 'crash' ? `crash: ${reply.detail}` : `no move within ${deadline} ms`;
            result = { ...base, move: '', solved: false, points: 0, timeMs: Math.round(reply.elapsedMs), error };
          }
        }
        results[index] = result;
        done++;
        config.onResult?.(result, done, config.positions.length);
      }
    } finally {
      await engine?.close();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(config.concurrency, config.positions.length)) }, () => worker()));
  const themes = themeRows(results);
  return {
    kind: 'kishi-suite',
    version: 1,
    engine: engineName,
    files: config.files,
    limits: config.limits,
    positions: results.length,
    solved: results.filter((r) => r.solved).length,
    points: results.reduce((s, r) => s + r.points, 0),
    maxPoints: results.reduce((s, r) => s + r.maxPoints, 0),
    themes,
    durationMs: performance.now() - t0,
    results,
  };
}
