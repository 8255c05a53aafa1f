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
 * `runKishiMatchGate` runs the match as a child process (`node bin/kishi.js match ...`, each
 * engine `cmd=kishi` with its own config file naming its net) and reads its summary.json; the loop
 * takes any `GateRunner`, so tests inject results.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { kishiLauncher } from '../../engines/engine-spec.js';
import { packageRoot } from '../../player/weights-file.js';
import { DRAW_SCORE_ENV, MODEL_ENV } from '../../search/mcts/options.js';

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
   * MCTS draw score of both engines (`MctsOptions.drawScore`, passed as `KISHI_MCTS_DRAW_SCORE`):
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

/** The engine config file of one side: MCTS with the given net, quiet logging into the gate directory. */
export function engineConfigText(game: GameKind, model: string, logDir: string): string {
  return [
    'engine:',
    '  search: mcts',
    `  ${game === 'chess' ? 'chessModel' : 'shogiModel'}: ${JSON.stringify(model)}`,
    'log:',
    '  level: warn',
    `  dir: ${JSON.stringify(logDir)}`,
    '  transcripts: false',
    '',
  ].join('\n');
}

/**
 * The engine spec of one gate side: the net is named twice, by the side's config (the UCI/USI
 * `ModelFile` default) and by `KISHI_MCTS_MODEL` through `/usr/bin/env` (per engine, unlike the
 * match's own environment), so a config without a model still plays the right net.
 */
export function gateEngineSpec(name: string, game: GameKind, model: string, config: string, launcher: string, node: string): string {
  return `name=${name},cmd=/usr/bin/env,args=${MODEL_ENV}=${model} ${node} ${launcher} ${game === 'chess' ? 'uci' : 'usi'} --config ${config}`;
}

/** The `kishi match` arguments of a gate (`launcher`: bin/kishi.js, `node`: the Node binary of the engines). */
export function gateMatchArgs(r: GateRequest, candidateConfig: string, bestConfig: string, launcher = kishiLauncher() ?? 'bin/kishi.js', node = process.execPath): string[] {
  const c = r.config;
  const args = [
    'match',
    '--game',
    r.game,
    '-e',
    gateEngineSpec('candidate', r.game, resolve(r.candidate), candidateConfig, launcher, node),
    '-e',
    gateEngineSpec('best', r.game, resolve(r.best), bestConfig, launcher, node),
    '--nodes',
    String(c.playouts),
    '--games',
    String(c.games),
    '--seed',
    String(r.seed),
    '--concurrency',
    String(c.concurrency),
    '--resign',
    'movecount=4,score=800',
    '--maxmoves',
    r.game === 'chess' ? '150' : '200',
    '--out',
    join(r.outDir, 'match'),
    '--quiet',
  ];
  const openings = c.openings ?? defaultGateOpenings(r.game);
  if (openings !== undefined) args.push('--openings', openings);
  if (c.mode === 'sprt') args.push('--sprt', c.sprt);
  return args;
}

/** The environment of the gate's `kishi match` (its engines inherit it): the draw score when set, else none inherited either. */
export function gateEnv(c: GateConfig, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = { ...base };
  delete env[DRAW_SCORE_ENV];
  if (c.drawScore !== undefined && c.drawScore !== 0) env[DRAW_SCORE_ENV] = String(c.drawScore);
  return env;
}

/** Runs the gate as `node bin/kishi.js match ...` (with `KISHI_MCTS_DRAW_SCORE` when the gate has a draw score) and reads its summary.json. */
export const runKishiMatchGate: GateRunner = (r) =>
  new Promise((done) => {
    const launcher = kishiLauncher();
    if (launcher === undefined) return done(Result.err(new KishiError('ERR_GATE', 'cannot find bin/kishi.js')));
    mkdirSync(r.outDir, { recursive: true });
    const logDir = resolve(r.outDir, 'logs');
    const cand = resolve(r.outDir, 'candidate.yaml');
    const best = resolve(r.outDir, 'best.yaml');
    writeFileSync(cand, engineConfigText(r.game, resolve(r.candidate), logDir));
    writeFileSync(best, engineConfigText(r.game, resolve(r.best), logDir));
    const args = gateMatchArgs(r, cand, best, launcher);
    const env = gateEnv(r.config);
    const prefix = env[DRAW_SCORE_ENV] !== undefined ? [`${DRAW_SCORE_ENV}=${env[DRAW_SCORE_ENV]}`] : [];
    const command = [...prefix, 'node', launcher, ...args.map((a) => (/[\s,=]/.test(a) ? JSON.stringify(a) : a))].join(' ');
    writeFileSync(join(r.outDir, 'command.txt'), `${command}\n`);
    const child = spawn(process.execPath, [launcher, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const onAbort = (): void => {
      child.kill('SIGINT');
    };
    r.signal?.addEventListener('abort', onAbort, { once: true });
    let tail = '';
    const take = (d: Buffer): void => {
      const text = d.toString('utf8');
      tail = (tail + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim() !== '') r.onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      r.signal?.removeEventListener('abort', onAbort);
      const summaryPath = join(r.outDir, 'match', 'summary.json');
      if (r.signal?.aborted === true) return done(Result.err(new KishiError('ERR_ABORTED', 'gate match interrupted')));
      if (code !== 0 || !existsSync(summaryPath)) {
        return done(Result.err(new KishiError('ERR_GATE', `kishi match exited with ${code}: ${tail.split('\n').slice(-8).join('\n')}`)));
      }
      let summary: unknown;
      try {
        summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
      } catch (e) {
        return done(Result.err(new KishiError('ERR_GATE', `${summaryPath}: ${(e as Error).message}`)));
      }
      const g = gateResultFromSummary(summary, summaryPath);
      done(g.isOk ? Result.ok({ ...g.value, command }) : g);
    });
    child.on('error', (e) => done(Result.err(new KishiError('ERR_GATE', `cannot run kishi match: ${e.message}`))));
  });
