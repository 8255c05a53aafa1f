/**
 * The gate of the AlphaZero loop: a `kishi match` between the candidate net and the current best
 * (both MCTS at a fixed playout count per move, so the result does not depend on the machine's
 * load), and the rule that decides promotion:
 *   - `sprt`: promote only when the SPRT accepts H1 (elo1 over elo0); H0 or an undecided test
 *     (the game budget ran out) keeps the best;
 *   - `fixed`: a fixed number of games; promote only when all were played and the candidate
 *     scored at least `threshold` (AlphaGo Zero: 55%).
 * An aborted or failed match never promotes.
 *
 * `runInProcessGate` plays the match in this process through `runMatch` (each side an MCTS player
 * on its net, in worker threads) and reads its summary; the loop takes any `GateRunner`, so tests
 * inject results.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { seededRng } from '../../core/rng.js';
import { EngineFailure } from '../../engines/engine-client.js';
import type { AdjudicationRules } from '../../match/adjudication.js';
import { probeEngines, runMatch, type MatchConfig, type MatchEngineEntry } from '../../match/match-runner.js';
import { defaultOpenings, loadOpenings } from '../../books/openings.js';
import { PlayerEngine } from '../../match/player-engine.js';
import { formatMatchReport } from '../../match/report.js';
import { parseSprtParams } from '../../match/rule-text.js';
import { NO_TIME_CONTROL } from '../../match/time-control.js';
import { createMctsPlayer, type NnPlayerConfig } from '../../player/mcts-factory.js';
import { packageRoot } from '../../core/package-path.js';

export const GATE_MODES = ['sprt', 'fixed'] as const;
export type GateMode = (typeof GATE_MODES)[number];

export interface GateConfig {
  readonly mode: GateMode;
  /** Games at most (sprt) or exactly (fixed). */
  readonly games: number;
  /** Playouts per move of both nets. */
  readonly playouts: number;
  /** `kishi match --sprt` parameters (sprt mode). */
  readonly sprt: string;
  /** Score the candidate needs (fixed mode). */
  readonly threshold: number;
  /** Games at once. */
  readonly concurrency: number;
  /** Opening file (default: `defaultGateOpenings`). Deterministic nets need varied starts, or every pair repeats one game. */
  readonly openings?: string;
  /**
   * MCTS draw score of both engines (`MctsOptions.drawScore`, passed as the players' `mctsDrawScore`):
   * negative makes each side avoid repetition draws when it is not losing, so that gates between
   * near-equal nets end in results rather than shuffling (undefined / 0: plain draws).
   */
  readonly drawScore?: number;
}

/**
 * The default gate openings: chess data/openings/chess-balanced.epd, shogi the taya36 book
 * data/openings/taya36.sfen; undefined when the file is missing (kishi match then plays its default
 * starts).
 */
export function defaultGateOpenings(game: GameKind): string | undefined {
  const candidates =
    game === 'chess'
      ? [join(packageRoot(), 'data', 'openings', 'chess-balanced.epd')]
      : [join(packageRoot(), 'data', 'openings', 'taya36.sfen')];
  return candidates.find((f) => existsSync(f));
}

/** A gate match's result, from the candidate's point of view. */
export interface GateMatchResult {
  readonly games: number;
  readonly gamesPlanned: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly score: number;
  readonly elo: number;
  readonly eloLow: number;
  readonly eloHigh: number;
  readonly sprt?: { readonly decision: 'H0' | 'H1' | 'continue'; readonly llr: number; readonly lower: number; readonly upper: number };
  readonly stoppedEarly?: 'sprt' | 'abort';
  readonly summary?: string;
  readonly command?: string;
}

export interface GateOutcome {
  readonly passed: boolean;
  readonly reason: string;
  readonly result: GateMatchResult;
  readonly config: GateConfig;
}

export interface GateRequest {
  readonly game: GameKind;
  /** Model paths (absolute). */
  readonly candidate: string;
  readonly best: string;
  readonly outDir: string;
  readonly config: GateConfig;
  readonly seed: number;
  readonly signal?: AbortSignal;
  readonly onLine?: (line: string) => void;
}

export type GateRunner = (r: GateRequest) => Promise<Result<GateMatchResult, KishiError>>;

/** Whether a gate result promotes the candidate, and why. */
export function gateDecision(config: GateConfig, r: GateMatchResult): { passed: boolean; reason: string } {
  const wdl = `${r.wins}-${r.draws}-${r.losses} (score ${r.score.toFixed(3)}, Elo ${fmt(r.elo)} [${fmt(r.eloLow)}, ${fmt(r.eloHigh)}])`;
  if (r.stoppedEarly === 'abort') return { passed: false, reason: `match aborted after ${r.games} games: ${wdl}` };
  if (r.games === 0) return { passed: false, reason: 'no games played' };
  if (config.mode === 'sprt') {
    const d = r.sprt?.decision;
    if (d === 'H1') return { passed: true, reason: `SPRT accepted H1 (${config.sprt}) after ${r.games} games: ${wdl}` };
    if (d === 'H0') return { passed: false, reason: `SPRT accepted H0 (${config.sprt}) after ${r.games} games: ${wdl}` };
    return { passed: false, reason: `SPRT undecided after ${r.games} games (LLR ${r.sprt?.llr.toFixed(2) ?? '?'}): ${wdl}` };
  }
  if (r.games < config.games) return { passed: false, reason: `only ${r.games} of ${config.games} games played: ${wdl}` };
  if (r.score >= config.threshold) return { passed: true, reason: `scored ${r.score.toFixed(3)} >= ${config.threshold} in ${r.games} games: ${wdl}` };
  return { passed: false, reason: `scored ${r.score.toFixed(3)} < ${config.threshold} in ${r.games} games: ${wdl}` };
}

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : String(x));

const num = (x: unknown): number => (typeof x === 'number' ? x : typeof x === 'string' ? Number(x.replace(/^\+?inf(inity)?$/i, 'Infinity').replace(/^-inf(inity)?$/i, '-Infinity')) : Number.NaN);

/** The gate result from a `kishi match` summary.json (engine A = the candidate). */
export function gateResultFromSummary(summary: unknown, path?: string): Result<GateMatchResult, KishiError> {
  const s = summary as {
    kind?: string;
    gamesPlanned?: number;
    results?: { games?: number; wdl?: { wins: number; draws: number; losses: number }; trinomial?: Record<string, unknown> };
    sprt?: { status?: { decision?: string; llr?: number; lower?: number; upper?: number } };
    stoppedEarly?: 'sprt' | 'abort';
  };
  if (s?.kind !== 'kishi-match' || s.results?.wdl === undefined) return Result.err(new KishiError('ERR_GATE', `${path ?? 'summary'}: not a kishi-match summary`));
  const t = s.results.trinomial ?? {};
  const st = s.sprt?.status;
  return Result.ok({
    games: s.results.games ?? 0,
    gamesPlanned: s.gamesPlanned ?? 0,
    wins: s.results.wdl.wins,
    draws: s.results.wdl.draws,
    losses: s.results.wdl.losses,
    score: num(t['score']),
    elo: num(t['elo']),
    eloLow: num(t['eloLow']),
    eloHigh: num(t['eloHigh']),
    ...(st !== undefined ? { sprt: { decision: (st.decision ?? 'continue') as 'H0' | 'H1' | 'continue', llr: st.llr ?? 0, lower: st.lower ?? 0, upper: st.upper ?? 0 } } : {}),
    ...(s.stoppedEarly !== undefined ? { stoppedEarly: s.stoppedEarly } : {}),
    ...(path !== undefined ? { summary: path } : {}),
  });
}

/** The adjudication of the gate's games: resign after 4 moves at 8 pawns, a draw after 150 (chess) or 200 (shogi) moves. */
const gateAdjudication = (game: GameKind): AdjudicationRules => ({
  resign: { moveCount: 4, score: 800, twoSided: true },
  maxMoves: game === 'chess' ? 150 : 200,
});

/**
 * The engine config of one gate side: MCTS on `model` at the gate's draw score (per cent, as the
 * config's `mctsDrawScore`), one thread; the rest as the engine config's defaults.
 */
export function gatePlayerConfig(game: GameKind, model: string, drawScore: number | undefined): NnPlayerConfig {
  return {
    moveOverheadMs: 0,
    ...(game === 'chess' ? { chessModel: model } : { shogiModel: model }),
    ...(drawScore !== undefined && drawScore !== 0 ? { mctsDrawScore: drawScore * 100 } : {}),
  };
}

/**
 * The match of a gate, everything but the engines' factories: both sides at `playouts` nodes a
 * move, the candidate as engine A, the gate's openings (or `kishi match`'s default starts), the
 * gate's SPRT in `sprt` mode; `ERR_GATE` on a bad SPRT text or openings file.
 */
export function gateMatchConfig(r: GateRequest): Result<Omit<MatchConfig, 'engines'>, KishiError> {
  const c = r.config;
  const sprt = c.mode === 'sprt' ? parseSprtParams(c.sprt) : undefined;
  if (sprt?.isErr) return Result.err(new KishiError('ERR_GATE', `gate sprt: ${sprt.error.message}`));
  const file = c.openings ?? defaultGateOpenings(r.game);
  const pairs = Math.ceil(c.games / 2);
  const openings = file !== undefined ? loadOpenings(r.game, 'standard', file) : Result.ok(defaultOpenings(r.game, 'standard', pairs, seededRng(r.seed ^ 0x5eed)));
  if (openings.isErr) return Result.err(new KishiError('ERR_GATE', `gate openings: ${openings.error.message}`));
  return Result.ok({
    game: r.game,
    variant: 'standard',
    games: c.games,
    openings: openings.value,
    openingOrder: 'random',
    seed: r.seed,
    ...(file !== undefined ? { openingsFile: file } : {}),
    concurrency: c.concurrency,
    adjudication: gateAdjudication(r.game),
    ...(sprt !== undefined ? { sprt: sprt.value } : {}),
    hangTimeoutMs: 60_000,
    graceMs: 1000,
    startTimeoutMs: 30_000,
    logLines: 50,
    outDir: join(r.outDir, 'match'),
    event: 'kishi gate',
  });
}

/** One side of the gate: an in-process MCTS player on `model` behind `MatchEngine`. */
const gateSide = (name: string, game: GameKind, model: string, c: GateConfig): MatchEngineEntry => {
  const config = gatePlayerConfig(game, model, c.drawScore);
  return {
    spec: { name, command: 'kishi (in-process)', args: [model], options: {}, time: {}, kishi: true },
    tc: { ...NO_TIME_CONTROL, nodes: c.playouts },
    factory: async () => {
      const made = createMctsPlayer(config, game);
      if (made.isErr) return Result.err(new EngineFailure(made.error.code, `${name}: ${made.error.message}`, []));
      const ready = await made.value.ready();
      if (ready.isErr) {
        await made.value.close();
        return Result.err(new EngineFailure(ready.error.code, `${name}: ${ready.error.message}`, []));
      }
      return Result.ok(new PlayerEngine(made.value, { game, variant: 'standard', name }));
    },
  };
};

/**
 * Runs the gate's match in this process through `runMatch`, each side an MCTS player on its net
 * (worker threads, so games run `concurrency` at a time), and reads the result from its summary.
 * A side whose net does not load makes the gate fail (`ERR_GATE`) rather than play a weaker engine.
 */
export const runInProcessGate: GateRunner = async (r) => {
  const matchConfig = gateMatchConfig(r);
  if (matchConfig.isErr) return Result.err(matchConfig.error);
  mkdirSync(r.outDir, { recursive: true });
  const candidate = resolve(r.candidate);
  const best = resolve(r.best);
  const engines: [MatchEngineEntry, MatchEngineEntry] = [gateSide('candidate', r.game, candidate, r.config), gateSide('best', r.game, best, r.config)];
  const probe = await probeEngines(engines, matchConfig.value);
  if (probe.isErr) return Result.err(new KishiError('ERR_GATE', `gate engine: ${probe.error.message}`));
  const c = r.config;
  const command = `in-process gate: candidate ${candidate} vs best ${best}, ${c.playouts} playouts, ${c.games} games (${c.mode}${c.mode === 'sprt' ? ` ${c.sprt}` : ''}), seed ${r.seed}${c.drawScore !== undefined && c.drawScore !== 0 ? `, draw score ${c.drawScore}` : ''}`;
  writeFileSync(join(r.outDir, 'command.txt'), `${command}\n`);
  const summary = await runMatch({
    ...matchConfig.value,
    engines,
    ...(r.signal !== undefined ? { signal: r.signal } : {}),
    onEvent: (e) => {
      if (e.type === 'warning') r.onLine?.(`warning: ${e.message}`);
      else if (e.type === 'restart') r.onLine?.(`restarting ${e.engine}: ${e.reason}`);
      else if (e.record.forfeit !== undefined) r.onLine?.(`game ${e.record.id}: ${e.record.end.detail}`);
    },
  });
  if (r.signal?.aborted === true) return Result.err(new KishiError('ERR_ABORTED', 'gate match interrupted'));
  for (const line of formatMatchReport(summary).split('\n')) if (line.trim() !== '') r.onLine?.(line);
  const g = gateResultFromSummary(summary, join(r.outDir, 'match', 'summary.json'));
  return g.isOk ? Result.ok({ ...g.value, command }) : g;
};
