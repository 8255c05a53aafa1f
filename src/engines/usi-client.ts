/**
 * An external USI engine (fairy-stockfish, gpsusi, YaneuraOu…) driven over a child process, behind the
 * `Player` interface so that anything that plays with a Player (the CSA client, `kishi match`) can play
 * with it.
 *
 * - Start-up: `usi` → `id`/`option` lines → `usiok`; `setoption` for the options asked for (and
 *   `USI_Ponder`/`Ponder` when pondering is wanted); `isready` → `readyok`.
 * - `go`: `position startpos|sfen … moves …`, then `go [ponder] btime wtime (binc winc | byoyomi)` from the
 *   request's clock, or `go depth|nodes|infinite|mate` from its limits. The caller's clock already carries
 *   the safety margin (the CSA client reduces it), so the times are passed as they are.
 * - `info` lines become `SearchInfo` (score from the engine's = side to move's view); `bestmove resign`
 *   and `bestmove win` pass through as the moves `resign` and `win`.
 * - `stop`, `ponderhit`, `gameover`, `quit`.
 *
 * Every line goes to the transcript. Self-contained on purpose (no CSA imports) so it can be shared.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../player/player.js';
import type { Transcript } from '../log/transcript.js';
import { nullTranscript } from '../log/transcript.js';

/** One `option` line of the engine. */
export interface UsiOptionSpec {
  readonly name: string;
  readonly type: string;
  readonly default?: string;
}

export interface UsiEngineOptions {
  /** Executable path. */
  readonly command: string;
  readonly args?: readonly string[];
  /** `setoption` values, sent after `usiok`; names the engine does not list are skipped with a warning. */
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  /** Enable pondering (`USI_Ponder`, or fairy-stockfish's `Ponder`). */
  readonly ponder?: boolean;
  /** How long `usi` and `isready` may take, ms. */
  readonly startTimeoutMs?: number;
  readonly transcript?: Transcript;
  /** Receives warnings (unknown options, engine stderr). */
  readonly onWarning?: (message: string) => void;
}

/** Splits `usi:/path/engine --flag` (the CLI and config form) into command and arguments. */
export function parseEngineSpec(spec: string): Result<{ command: string; args: string[] }, KishiError> {
  const m = /^usi:(.+)$/.exec(spec.trim());
  if (!m) return Result.err(new KishiError('ERR_ENGINE_SPEC', `expected usi:<command>, got ${JSON.stringify(spec)}`));
  const parts = m[1]!.trim().split(/\s+/);
  return Result.ok({ command: parts[0]!, args: parts.slice(1) });
}

/** The `position` command for a request. */
export function positionCommand(req: Pick<GoRequest, 'start' | 'moves'>): string {
  const base = req.start === 'startpos' ? 'position startpos' : `position sfen ${req.start}`;
  return req.moves.length > 0 ? `${base} moves ${req.moves.join(' ')}` : base;
}

/** The `go` command for a request. */
export function goCommand(req: Pick<GoRequest, 'clock' | 'limits' | 'ponder'>): string {
  const parts = ['go'];
  if (req.ponder === true) parts.push('ponder');
  const l = req.limits;
  if (l?.infinite === true) return [...parts, 'infinite'].join(' ');
  if (l?.mate === true) return `go mate ${l.movetimeMs !== undefined ? Math.round(l.movetimeMs) : 'infinite'}`;
  const c = req.clock;
  if (c !== undefined && l?.movetimeMs === undefined) {
    parts.push('btime', String(Math.max(0, Math.floor(c.firstMs))), 'wtime', String(Math.max(0, Math.floor(c.secondMs))));
    if (c.firstIncMs > 0 || c.secondIncMs > 0) {
      parts.push('binc', String(Math.floor(c.firstIncMs)), 'winc', String(Math.floor(c.secondIncMs)));
    } else {
      parts.push('byoyomi', String(Math.max(0, Math.floor(c.byoyomiMs))));
    }
  } else if (l?.movetimeMs !== undefined) {
    // USI has no movetime: a byoyomi with no main time means the same to every engine.
    parts.push('btime', '0', 'wtime', '0', 'byoyomi', String(Math.max(1, Math.floor(l.movetimeMs))));
  }
  if (l?.depth !== undefined) parts.push('depth', String(l.depth));
  if (l?.nodes !== undefined) parts.push('nodes', String(l.nodes));
  if (parts.length === (req.ponder === true ? 2 : 1)) parts.push('infinite');
  return parts.join(' ');
}

/** Parses an `info` line into what it carries; undefined fields were absent. */
export function parseInfo(line: string): Partial<SearchInfo> & { multipv?: number; string?: string } {
  const t = line.split(/\s+/);
  const out: { -readonly [K in keyof SearchInfo]?: SearchInfo[K] } & { multipv?: number; string?: string } = {};
  for (let i = 1; i < t.length; i++) {
    const k = t[i];
    const num = (): number => Number(t[++i]);
    switch (k) {
      case 'depth':
        out.depth = num();
        break;
      case 'seldepth':
        out.seldepth = num();
        break;
      case 'time':
        out.timeMs = num();
        break;
      case 'nodes':
        out.nodes = num();
        break;
      case 'nps':
        out.nps = num();
        break;
      case 'hashfull':
        out.hashfull = num();
        break;
      case 'multipv':
        out.multipv = num();
        break;
      case 'currmove':
        i++;
        break;
      case 'score': {
        const kind = t[++i];
        const v = t[++i] ?? '';
        if (kind === 'cp') out.score = { cp: Number(v) };
        else if (kind === 'mate') out.score = { mate: v === '+' ? 1 : v === '-' ? -1 : v === '-0' ? -0 : Number(v) };
        if (t[i + 1] === 'lowerbound' || t[i + 1] === 'upperbound') i++;
        break;
      }
      case 'pv':
        out.pv = t.slice(i + 1).filter((x) => x !== '');
        i = t.length;
        break;
      case 'string':
        out.string = t.slice(i + 1).join(' ');
        i = t.length;
        break;
      default:
        break;
    }
  }
  return out;
}

interface PendingGo {
  readonly resolve: (r: GoResult) => void;
  readonly reject: (e: Error) => void;
  readonly onInfo: ((info: SearchInfo) => void) | undefined;
  info: SearchInfo | undefined;
  pondering: boolean;
  stopSent: boolean;
}

export class UsiEngine implements Player {
  name = 'usi-engine';
  author = '';
  readonly options = new Map<string, UsiOptionSpec>();
  private readonly waiters: { readonly prefix: string; readonly resolve: (line: string) => void }[] = [];
  private pending: PendingGo | undefined;
  private exited = false;
  private exitWaiters: (() => void)[] = [];
  private readonly transcript: Transcript;

  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    private readonly opts: UsiEngineOptions,
  ) {
    this.transcript = opts.transcript ?? nullTranscript;
    const rl = createInterface({ input: proc.stdout });
    rl.on('line', (line) => this.onLine(line.replace(/\r$/, '')));
    const err = createInterface({ input: proc.stderr });
    err.on('line', (line) => {
      this.transcript.note(`stderr: ${line}`);
    });
    proc.on('exit', (code, signal) => {
      this.exited = true;
      this.transcript.note(`engine exited (${signal ?? code})`);
      const p = this.pending;
      this.pending = undefined;
      p?.reject(new KishiError('ERR_ENGINE_EXIT', `the USI engine exited during a search (${signal ?? code})`));
      for (const w of this.exitWaiters) w();
      this.exitWaiters = [];
    });
    proc.stdin.on('error', () => {
      // EPIPE after the engine died: the exit handler reports it.
    });
  }

  /** Spawns the engine and runs the `usi` / `setoption` / `isready` handshake. */
  static async start(opts: UsiEngineOptions): Promise<Result<UsiEngine, KishiError>> {
    let proc: ChildProcessWithoutNullStreams;
    try {
      proc = spawn(opts.command, [...(opts.args ?? [])], { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      return Result.err(new KishiError('ERR_ENGINE_START', `cannot start ${opts.command}: ${String(e)}`));
    }
    const spawnError = await new Promise<Error | undefined>((resolve) => {
      proc.once('error', (e) => resolve(e));
      proc.once('spawn', () => resolve(undefined));
    });
    if (spawnError) return Result.err(new KishiError('ERR_ENGINE_START', `cannot start ${opts.command}: ${spawnError.message}`));
    const engine = new UsiEngine(proc, opts);
    const timeout = opts.startTimeoutMs ?? 30_000;
    engine.send('usi');
    const ok = await engine.waitFor('usiok', timeout);
    if (!ok) {
      await engine.close();
      return Result.err(new KishiError('ERR_ENGINE_START', `${opts.command} did not answer usiok within ${timeout} ms`));
    }
    const wanted: Record<string, string | number | boolean> = { ...(opts.options ?? {}) };
    if (opts.ponder === true) {
      if (engine.options.has('USI_Ponder')) wanted['USI_Ponder'] = true;
      else if (engine.options.has('Ponder')) wanted['Ponder'] = true;
    }
    for (const [name, value] of Object.entries(wanted)) {
      if (!engine.options.has(name)) {
        opts.onWarning?.(`the engine has no option ${JSON.stringify(name)}; not set`);
        continue;
      }
      engine.send(`setoption name ${name} value ${String(value)}`);
    }
    engine.send('isready');
    if (!(await engine.waitFor('readyok', timeout))) {
      await engine.close();
      return Result.err(new KishiError('ERR_ENGINE_START', `${opts.command} did not answer readyok within ${timeout} ms`));
    }
    return Result.ok(engine);
  }

  /** False once the engine process has exited. */
  get alive(): boolean {
    return !this.exited;
  }

  supports(game: GameKind): boolean {
    return game === 'shogi';
  }

  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    if (this.exited) return Promise.reject(new KishiError('ERR_ENGINE_EXIT', 'the USI engine is not running'));
    if (this.pending) return Promise.reject(new KishiError('ERR_ENGINE_BUSY', 'a search is already running'));
    return new Promise<GoResult>((resolve, reject) => {
      this.pending = { resolve, reject, onInfo, info: undefined, pondering: request.ponder === true, stopSent: false };
      this.send(positionCommand(request));
      this.send(goCommand(request));
    });
  }

  stop(): void {
    const p = this.pending;
    if (p && !p.stopSent) {
      p.stopSent = true;
      this.send('stop');
    }
  }

  ponderhit(): void {
    const p = this.pending;
    if (p?.pondering === true) {
      p.pondering = false;
      this.send('ponderhit');
    }
  }

  async newGame(): Promise<void> {
    if (this.pending) {
      this.stop();
      await new Promise<void>((r) => {
        const check = (): void => (this.pending ? void setTimeout(check, 5) : r());
        check();
      });
    }
    this.send('isready');
    await this.waitFor('readyok', this.opts.startTimeoutMs ?? 30_000);
    this.send('usinewgame');
  }

  /** Tells the engine how the game ended (`gameover win|lose|draw`). */
  gameOver(result: 'win' | 'lose' | 'draw'): void {
    this.stop();
    this.send(`gameover ${result}`);
  }

  async close(): Promise<void> {
    if (this.exited) return;
    this.stop();
    this.send('quit');
    const exited = new Promise<void>((r) => this.exitWaiters.push(r));
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  private send(line: string): void {
    if (this.exited || this.proc.stdin.destroyed) return;
    this.transcript.sent(line);
    this.proc.stdin.write(`${line}\n`);
  }

  private waitFor(prefix: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(false);
      }, timeoutMs);
      const w = {
        prefix,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(w);
    });
  }

  private onLine(line: string): void {
    this.transcript.received(line);
    const word = line.split(/\s+/, 1)[0] ?? '';
    const w = this.waiters.findIndex((x) => x.prefix === word);
    if (w >= 0) {
      this.waiters.splice(w, 1)[0]!.resolve(line);
      return;
    }
    switch (word) {
      case 'id': {
        const m = /^id\s+(name|author)\s+(.*)$/.exec(line);
        if (m?.[1] === 'name') this.name = m[2]!.trim();
        if (m?.[1] === 'author') this.author = m[2]!.trim();
        return;
      }
      case 'option': {
        // Names may contain spaces (fairy-stockfish): everything between `name` and ` type `.
        const m = /^option\s+name\s+(.+?)\s+type\s+(\S+)(?:\s+default\s+(.*?))?(?:\s+(?:min|max|var)\s.*)?$/.exec(line);
        if (m) this.options.set(m[1]!, { name: m[1]!, type: m[2]!, ...(m[3] !== undefined ? { default: m[3] } : {}) });
        return;
      }
      case 'info':
        return this.onInfo(line);
      case 'bestmove':
        return this.onBestmove(line);
      default:
        return;
    }
  }

  private onInfo(line: string): void {
    const p = this.pending;
    if (!p) return;
    const i = parseInfo(line);
    if (i.multipv !== undefined && i.multipv !== 1) return;
    if (i.score === undefined) return;
    const prev = p.info;
    const info: SearchInfo = {
      depth: i.depth ?? prev?.depth ?? 0,
      ...(i.seldepth !== undefined ? { seldepth: i.seldepth } : {}),
      score: i.score,
      nodes: i.nodes ?? prev?.nodes ?? 0,
      nps: i.nps ?? prev?.nps ?? 0,
      timeMs: i.timeMs ?? prev?.timeMs ?? 0,
      pv: i.pv ?? [],
      ...(i.hashfull !== undefined ? { hashfull: i.hashfull } : {}),
    };
    p.info = info;
    p.onInfo?.(info);
  }

  private onBestmove(line: string): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const t = line.split(/\s+/);
    const move = t[1] ?? 'resign';
    const ponder = t[2] === 'ponder' ? t[3] : undefined;
    p.resolve({ move, ...(ponder !== undefined ? { ponder } : {}), ...(p.info ? { info: p.info } : {}) });
  }
}

/** Starts the engine named by a `usi:<command>` spec (the `--engine` / `csa.engine` form). */
export async function startUsiEngine(
  spec: string,
  opts: Omit<UsiEngineOptions, 'command' | 'args'> = {},
): Promise<Result<UsiEngine, KishiError>> {
  const parsed = parseEngineSpec(spec);
  if (parsed.isErr) return Result.err(parsed.error);
  return UsiEngine.start({ ...opts, command: parsed.value.command, args: parsed.value.args });
}
