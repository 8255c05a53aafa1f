/**
 * An external UCI or USI engine behind {@link MatchEngine}, for `kishi match` and `kishi suite`.
 *
 * Dialogue (the two protocols differ only in words and in the clock fields):
 * 1. start: `uci`|`usi` -> `id`/`option` lines -> `uciok`|`usiok`; `setoption` for each option the
 *    engine lists (case-insensitive, as UCI says; unknown names are skipped with a warning), the
 *    default thread count when asked and not set, and `UCI_Chess960 true` for Chess960;
 *    `isready` -> `readyok`.
 * 2. new game: UCI `ucinewgame`, `isready` -> `readyok`; USI `isready` -> `readyok`, `usinewgame`.
 * 3. go: `position startpos|fen|sfen ... moves ...`, then `go` with the clocks (UCI wtime/btime are
 *    the first/second player's, USI btime/wtime likewise: sente is "black") or the hard limits.
 *    The last `info` with a score (multipv 1) is kept; `bestmove` ends the search.
 * 4. deadline: when no `bestmove` came in time, `stop` is sent and the engine gets `graceMs` to
 *    answer; an engine that answers is merely late, one that does not is killed (a hang).
 * 5. `quit`, then a kill if it lingers.
 *
 * python-chess's `UciProtocol` and cutechess-cli's `UciEngine` follow the same steps; USI is per the
 * shogidokoro/USI 2.0 description.
 */
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { Transcript } from '../log/transcript.js';
import type { ClockState } from '../player/player.js';
import { EngineProcess, describeExit } from './engine-process.js';
import type { EngineProtocol, EngineSpec } from './engine-spec.js';
import { protocolFor, provisionalName, resolveCommand } from './engine-spec.js';
import { parseInfoLine } from './info.js';
import type { InfoFields } from './info.js';
import type { EngineGoRequest, EngineInfo, EngineReply, MatchEngine } from './match-engine.js';

/** A start or new-game failure, with the engine's last lines for the log. */
export class EngineFailure extends KishiError {
  constructor(
    code: string,
    message: string,
    readonly lines: readonly string[],
  ) {
    super(code, message);
    this.name = 'EngineFailure';
  }
}

export interface EngineClientOptions {
  readonly spec: EngineSpec;
  readonly game: GameKind;
  /** `chess960` sets UCI_Chess960; anything else is ignored. */
  readonly variant?: string;
  /** Lines kept for crash logs (default 100). */
  readonly logLines?: number;
  /** How long `uci`/`usi` and `isready` may take, ms (default 30 000). */
  readonly startTimeoutMs?: number;
  /** How long an engine past its deadline gets to answer `stop` before it is killed, ms (default 1000). */
  readonly graceMs?: number;
  readonly transcript?: Transcript;
  readonly onWarning?: (message: string) => void;
  /**
   * Threads for an engine whose spec does not set them (`Threads`, gpsusi's `Thread`, or
   * `USI_Threads`, whichever it lists); undefined: leave the engine's default.
   */
  readonly defaultThreads?: number;
  /** Turn pondering on (`USI_Ponder`, else `Ponder`, when the engine lists one) unless the spec sets it. */
  readonly ponder?: boolean;
}

/** Thread-count option names, in the order they are looked for. */
const THREAD_OPTIONS = ['threads', 'thread', 'usi_threads'];

/** One `option` line. */
export interface EngineOptionSpec {
  readonly name: string;
  readonly type: string;
  readonly default?: string;
  /** `spin` bounds and `combo` choices, when the engine gave them. */
  readonly min?: number;
  readonly max?: number;
  readonly vars?: readonly string[];
}

/** Parses `option name <name with spaces> type <t> [default <d>] [min ..] [max ..] [var ..]*`. */
export function parseOptionLine(line: string): EngineOptionSpec | undefined {
  const m = /^option\s+name\s+(.+?)\s+type\s+(\S+)(?:\s+default\s?(.*?))?(?:\s+(?:min|max|var)\s.*)?$/.exec(line.trim());
  if (!m) return undefined;
  const rest = line.trim().slice(line.trim().indexOf(` type ${m[2]!}`) + ` type ${m[2]!}`.length);
  const num = (key: string): number | undefined => {
    const x = new RegExp(`\\s${key}\\s+(-?\\d+)`).exec(rest);
    return x ? Number(x[1]) : undefined;
  };
  const min = num('min');
  const max = num('max');
  const vars = [...rest.matchAll(/\svar\s+(.+?)(?=\s+var\s|$)/g)].map((v) => v[1]!);
  return {
    name: m[1]!,
    type: m[2]!,
    ...(m[3] !== undefined ? { default: m[3] } : {}),
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(vars.length > 0 ? { vars } : {}),
  };
}

/** Why `value` does not fit the option (a spin needs an integer within its bounds...), or undefined when it does. */
export function optionValueProblem(o: EngineOptionSpec, value: string): string | undefined {
  if (o.type === 'spin') {
    if (!/^-?\d+$/.test(value.trim())) return `expected an integer${o.min !== undefined && o.max !== undefined ? ` from ${o.min} to ${o.max}` : ''}`;
    const n = Number(value);
    if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) return `expected an integer from ${o.min ?? '-inf'} to ${o.max ?? 'inf'}`;
  }
  if (o.type === 'check' && value !== 'true' && value !== 'false') return 'expected true or false';
  if (o.type === 'combo' && o.vars !== undefined && !o.vars.some((v) => v.toLowerCase() === value.toLowerCase())) return `expected one of ${o.vars.join(', ')}`;
  return undefined;
}

/** The `position` command. */
export function positionCommand(protocol: EngineProtocol, start: string, moves: readonly string[]): string {
  const base = start === 'startpos' ? 'position startpos' : `position ${protocol === 'uci' ? 'fen' : 'sfen'} ${start}`;
  return moves.length > 0 ? `${base} moves ${moves.join(' ')}` : base;
}

const ms = (x: number): string => String(Math.max(0, Math.floor(x)));

/** The clocks with the two sides' names exchanged (for engines that read USI clocks swapped). */
export const swappedClock = (c: ClockState): ClockState => ({ ...c, firstMs: c.secondMs, secondMs: c.firstMs, firstIncMs: c.secondIncMs, secondIncMs: c.firstIncMs });

/**
 * The `go` command for a request (see the module comment, step 3); `swap`: {@link swappedClock}.
 * `infinite` and `mate` leave out the clock; `mate` is USI's (`go mate <ms>|infinite`), UCI's
 * `go mate` counts moves and is not asked for.
 */
export function goCommand(
  protocol: EngineProtocol,
  req: Pick<EngineGoRequest, 'clock' | 'movetimeMs' | 'nodes' | 'depth' | 'toMove' | 'infinite' | 'mate' | 'ponder'>,
  swap = false,
): string {
  const parts = req.ponder === true ? ['go', 'ponder'] : ['go'];
  if (req.infinite === true) return [...parts, 'infinite'].join(' ');
  if (req.mate === true) return `go mate ${req.movetimeMs !== undefined ? ms(req.movetimeMs) : 'infinite'}`;
  const c: ClockState | undefined = req.clock !== undefined && swap ? swappedClock(req.clock) : req.clock;
  if (c !== undefined) {
    if (protocol === 'uci') {
      parts.push('wtime', ms(c.firstMs), 'btime', ms(c.secondMs));
      if (c.firstIncMs > 0 || c.secondIncMs > 0) parts.push('winc', ms(c.firstIncMs), 'binc', ms(c.secondIncMs));
      if (c.movesToGo !== undefined && c.movesToGo > 0) parts.push('movestogo', String(c.movesToGo));
      if (req.movetimeMs !== undefined) parts.push('movetime', ms(req.movetimeMs));
    } else {
      parts.push('btime', ms(c.firstMs), 'wtime', ms(c.secondMs));
      // USI has increments or byoyomi, not both: the mover's own control decides (some engines,
      // gpsusi among them, abort on `binc`).
      const moverInc = req.toMove === undefined ? Math.max(c.firstIncMs, c.secondIncMs) : req.toMove === 'first' ? c.firstIncMs : c.secondIncMs;
      if (moverInc > 0) parts.push('binc', ms(c.firstIncMs), 'winc', ms(c.secondIncMs));
      else parts.push('byoyomi', ms(c.byoyomiMs));
    }
  } else if (req.movetimeMs !== undefined) {
    // USI has no movetime: a byoyomi with no main time means the same to every USI engine.
    if (protocol === 'uci') parts.push('movetime', ms(req.movetimeMs));
    else parts.push('btime', '0', 'wtime', '0', 'byoyomi', ms(req.movetimeMs));
  }
  if (req.nodes !== undefined) parts.push('nodes', String(req.nodes));
  if (req.depth !== undefined) parts.push('depth', String(req.depth));
  if (parts.length === (req.ponder === true ? 2 : 1)) parts.push('infinite');
  return parts.join(' ');
}

export class EngineClient implements MatchEngine {
  readonly protocol: EngineProtocol;
  /** `id name` as the engine reported it. */
  idName = '';
  readonly options = new Map<string, EngineOptionSpec>();
  private searching = false;
  /** The current search was sent `go ponder` and no `ponderhit` yet. */
  private pondering = false;
  /** `stop` went out for the current search. */
  private stopSent = false;

  private constructor(
    private readonly proc: EngineProcess,
    private readonly opts: EngineClientOptions,
  ) {
    this.protocol = protocolFor(opts.spec, opts.game);
  }

  get name(): string {
    return this.opts.spec.name ?? (this.idName !== '' ? this.idName : provisionalName(this.opts.spec));
  }

  /** Spawns the engine and runs the handshake (step 1). */
  static async start(opts: EngineClientOptions): Promise<Result<EngineClient, EngineFailure>> {
    const cmd = resolveCommand(opts.spec, opts.game);
    if (cmd.isErr) return Result.err(new EngineFailure(cmd.error.code, cmd.error.message, []));
    const proc = await EngineProcess.spawn({
      command: cmd.value.command,
      args: cmd.value.args,
      ...(opts.spec.cwd !== undefined ? { cwd: opts.spec.cwd } : {}),
      ...(opts.logLines !== undefined ? { logLines: opts.logLines } : {}),
      ...(opts.transcript !== undefined ? { transcript: opts.transcript } : {}),
    });
    if (proc.isErr) return Result.err(new EngineFailure(proc.error.code, proc.error.message, []));
    const engine = new EngineClient(proc.value, opts);
    const r = await engine.handshake();
    if (r.isErr) {
      await proc.value.kill();
      return Result.err(r.error);
    }
    return Result.ok(engine);
  }

  private fail(code: string, message: string): EngineFailure {
    return new EngineFailure(code, `${provisionalName(this.opts.spec)}: ${message}`, this.proc.lastLines());
  }

  private async expect(word: string, timeoutMs: number, onOther?: (line: string) => void): Promise<Result<void, EngineFailure>> {
    const r = await this.proc.waitFor((l) => l.trim() === word || l.trim().startsWith(`${word} `), timeoutMs, onOther);
    if ('line' in r) return Result.ok(undefined);
    if ('exit' in r) return Result.err(this.fail('ERR_ENGINE_EXIT', `the engine ended (${describeExit(r.exit)}) while we waited for ${word}`));
    return Result.err(this.fail('ERR_ENGINE_TIMEOUT', `no ${word} within ${timeoutMs} ms`));
  }

  /**
   * The engine's option whose name equals `name` once spaces are taken out: USI names never contain
   * spaces (USI protocol, "option"), so a UCI name such as Stockfish's `Move Overhead` given to a
   * USI engine means its `MoveOverhead`. Unset otherwise, or when two options would match.
   */
  private optionIgnoringSpaces(name: string): EngineOptionSpec | undefined {
    const key = name.toLowerCase().replaceAll(' ', '');
    const found = [...this.options.values()].filter((o) => o.name.toLowerCase().replaceAll(' ', '') === key);
    return found.length === 1 ? found[0] : undefined;
  }

  private async handshake(): Promise<Result<void, EngineFailure>> {
    const timeout = this.opts.startTimeoutMs ?? 30_000;
    this.proc.send(this.protocol);
    const ok = await this.expect(this.protocol === 'uci' ? 'uciok' : 'usiok', timeout, (line) => {
      const t = line.trim();
      if (t.startsWith('id name ')) this.idName = t.slice('id name '.length).trim();
      else if (t.startsWith('option ')) {
        const o = parseOptionLine(t);
        if (o) this.options.set(o.name.toLowerCase(), o);
      }
    });
    if (ok.isErr) return ok;
    const wanted: [string, string][] = Object.entries(this.opts.spec.options);
    const threads = this.opts.defaultThreads;
    if (threads !== undefined && !wanted.some(([n]) => THREAD_OPTIONS.includes(n.toLowerCase()))) {
      const name = THREAD_OPTIONS.find((n) => this.options.has(n));
      if (name !== undefined) wanted.unshift([this.options.get(name)!.name, String(threads)]);
    }
    if (this.opts.ponder === true) {
      const name = ['usi_ponder', 'ponder'].find((n) => this.options.has(n));
      if (name !== undefined && !wanted.some(([n]) => ['usi_ponder', 'ponder'].includes(n.toLowerCase()))) wanted.push([this.options.get(name)!.name, 'true']);
    }
    if (this.opts.variant === 'chess960' && this.protocol === 'uci') {
      if (this.options.has('uci_chess960')) wanted.push(['UCI_Chess960', 'true']);
      else this.opts.onWarning?.(`${this.name}: no UCI_Chess960 option; Chess960 castling may be misread`);
    }
    for (const [name, value] of wanted) {
      const known = this.options.get(name.toLowerCase()) ?? this.optionIgnoringSpaces(name);
      if (known === undefined) {
        this.opts.onWarning?.(`${this.name}: the engine has no option ${JSON.stringify(name)}; not set`);
        continue;
      }
      const problem = optionValueProblem(known, value);
      if (problem !== undefined) {
        // A value the engine would silently ignore (Stockfish drops `Hash=abc`) must not go unnoticed.
        return Result.err(new EngineFailure('ERR_ENGINE_OPTION', `${this.name}: option ${known.name}=${value}: ${problem}`, []));
      }
      this.proc.send(known.type === 'button' ? `setoption name ${known.name}` : `setoption name ${known.name} value ${value}`);
    }
    this.proc.send('isready');
    return this.expect('readyok', timeout);
  }

  alive(): boolean {
    return this.proc.alive();
  }

  /** Step 2. */
  async newGame(): Promise<Result<void, KishiError>> {
    const timeout = this.opts.startTimeoutMs ?? 30_000;
    if (this.protocol === 'uci') {
      this.proc.send('ucinewgame');
      this.proc.send('isready');
      return this.expect('readyok', timeout);
    }
    this.proc.send('isready');
    const r = await this.expect('readyok', timeout);
    if (r.isOk) this.proc.send('usinewgame');
    return r;
  }

  /**
   * Steps 3 and 4. `onInfo` sees every `info` line parsed (all multipv lines, for analysis tools);
   * `onSearchInfo` the search information so far each time a line with a score (multipv 1) arrives.
   */
  async go(req: EngineGoRequest, onInfo?: (fields: InfoFields) => void, onSearchInfo?: (info: EngineInfo) => void): Promise<EngineReply> {
    if (!this.proc.alive()) return { kind: 'crash', elapsedMs: 0, detail: `the engine is not running (${describeExit(this.proc.exitInfo())})` };
    if (this.searching) throw new Error('EngineClient.go called during a search');
    this.searching = true;
    this.pondering = req.ponder === true;
    this.stopSent = false;
    let info: EngineInfo | undefined;
    const onOther = (line: string): void => {
      if (!line.startsWith('info')) return;
      const f = parseInfoLine(line);
      onInfo?.(f);
      if (f.score === undefined || (f.multipv !== undefined && f.multipv !== 1)) return;
      info = {
        depth: f.depth ?? info?.depth ?? 0,
        ...(f.seldepth !== undefined ? { seldepth: f.seldepth } : {}),
        score: f.score,
        nodes: f.nodes ?? info?.nodes ?? 0,
        nps: f.nps ?? info?.nps ?? 0,
        timeMs: f.timeMs ?? info?.timeMs ?? 0,
        pv: f.pv ?? [],
        ...(f.hashfull !== undefined ? { hashfull: f.hashfull } : {}),
      };
      onSearchInfo?.(info);
    };
    const isBest = (l: string): boolean => l.startsWith('bestmove');
    try {
      this.proc.send(positionCommand(this.protocol, req.start, req.moves));
      const t0 = performance.now();
      this.proc.send(goCommand(this.protocol, req, this.opts.spec.swapClocks === true));
      const r = await this.proc.waitFor(isBest, req.deadlineMs ?? 2 ** 31 - 1, onOther);
      if ('line' in r) {
        const t = r.line.trim().split(/\s+/);
        const move = t[1] ?? '(none)';
        const ponder = t[2] === 'ponder' ? t[3] : undefined;
        return { kind: 'move', move, ...(ponder !== undefined ? { ponder } : {}), ...(info ? { info } : {}), elapsedMs: r.atMs - t0 };
      }
      if ('exit' in r) {
        return { kind: 'crash', elapsedMs: performance.now() - t0, detail: `the engine ended during its search (${describeExit(r.exit)})`, ...(info ? { info } : {}) };
      }
      // Deadline passed: ask it to stop, give it graceMs, then kill it.
      const elapsedMs = performance.now() - t0;
      this.stop();
      const late = await this.proc.waitFor(isBest, this.opts.graceMs ?? 1000, onOther);
      const responsive = 'line' in late;
      if (!responsive) await this.proc.kill();
      return { kind: 'timeout', elapsedMs, responsive, ...(info ? { info } : {}) };
    } finally {
      this.searching = false;
    }
  }

  /** Ends the current search (`stop`, once); the pending `go` resolves with the engine's `bestmove`. */
  stop(): void {
    if (!this.searching || this.stopSent) return;
    this.stopSent = true;
    this.proc.send('stop');
  }

  /** The opponent played the pondered move: `ponderhit` (the search goes on, now on our clock). */
  ponderhit(): void {
    if (!this.searching || !this.pondering) return;
    this.pondering = false;
    this.proc.send('ponderhit');
  }

  /** Whether a `go` is in progress. */
  get busy(): boolean {
    return this.searching;
  }

  gameOver(result: 'win' | 'lose' | 'draw'): void {
    if (this.protocol === 'usi' && this.proc.alive()) this.proc.send(`gameover ${result}`);
  }

  lastLines(): string[] {
    return this.proc.lastLines();
  }

  /** Step 5. */
  async close(): Promise<void> {
    if (!this.proc.alive()) return;
    this.proc.send('quit');
    await this.proc.waitExitOrKill(1000);
  }

  /** Kills at once (after a hang, or when the match is interrupted). */
  kill(): Promise<void> {
    return this.proc.kill();
  }
}
