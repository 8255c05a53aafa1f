/**
 * The engine side of UCI and USI: one state machine for both protocols, fed one line at a time
 * (`handleLine`, from line-reader.ts) and writing protocol lines through `write`. What differs
 * between the protocols (options, `position` syntax, game, `bestmove` words) is in a `Dialect`.
 *
 * Threads and ordering:
 * - `handleLine` never waits: the search runs in the Player's worker thread, so the main thread keeps
 *   reading, and `stop`, `ponderhit`, `isready`, `gameover` and `quit` act at once, mid-search.
 * - Commands that touch the Player (`setoption` effects, `ucinewgame`/`usinewgame`, `go`, `isready`
 *   when idle) run in arrival order on one promise chain; `position` is parsed at once and `go` takes
 *   the position current at the time it arrives.
 * - `isready` during a search answers `readyok` at once; otherwise it waits for earlier work (for
 *   example loading a new weights file) and creates the Player on first use (heavy set-up belongs to
 *   `isready`, as USI says).
 * - `go infinite` and `go ponder` hold their `bestmove` until `stop` (or `ponderhit`), even when the
 *   search ends early, as UCI requires.
 * - A `stop` that arrives before the worker has received the search (same input chunk as `go`) is
 *   re-sent every few milliseconds until the search answers, so it can never be lost.
 *
 * Errors: a malformed or illegal `position` answers `info string error: ...` and keeps the previous
 * position; unknown commands and option names are logged and reported with `info string`. The
 * Player's answer is checked by the Thinker's decision (src/bot/thinker/thinker.ts, as a lichess or
 * CSA move is): a move that is not legal, or a declaration the rules do not allow, becomes the
 * Thinker's fallback move (the first PV move when legal, else the first legal move), and so does the
 * answer of a Player that fails, so a GUI never waits forever. The GUI keeps the clock and the game:
 * the session asks the Thinker for no time plan, draw offer or resignation by score.
 */
import { gameStatePosition } from '../../bot/thinker/game-state-position.js';
import { Thinker } from '../../bot/thinker/thinker.js';
import type { Decision } from '../../bot/thinker/thinker.js';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { PlayerConfig } from '../../player/factory.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../player/player.js';
import type { Dialect, EngineSettings, PositionState } from './dialect.js';
import type { EngineOption, OptionValue } from './engine-options.js';
import { findOption, optionLine, optionValue, parseSetOption } from './engine-options.js';
import { goRequestOf, parseGoCommand } from './go-command.js';
import { infoLine, infoString } from './info-line.js';
import { parsePosition, startPosition } from './position-command.js';
import { sessionTuningText } from './tuning-options.js';
import { cpuTuningFromText } from '../../player/mcts-cpu-tuning.js';
import { parseTuningPairs } from '../../search/alphabeta/tuning.js';

/** Builds the Player (factory.ts's `createPlayer` in production, loaded on first use; a mock in tests). */
export type PlayerMaker = (config: PlayerConfig, game: GameKind) => Result<Player, KishiError> | Promise<Result<Player, KishiError>>;

/** Optional setters a Player may have (the alpha-beta player does); without them the Player is rebuilt. */
interface TunablePlayer extends Player {
  setHashMb?(mb: number): Promise<void>;
  setMoveOverheadMs?(ms: number): Promise<void>;
}

export interface SessionLogger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export interface EngineSessionOptions {
  readonly dialect: Dialect;
  /** Writes one protocol line (without the newline). */
  readonly write: (line: string) => void;
  readonly makePlayer: PlayerMaker;
  /** Option defaults (from the engine config). */
  readonly settings: EngineSettings;
  /** Checks a weights file before `EvalFile` switches to it. */
  readonly checkEvalFile: (path: string, game: GameKind) => Result<unknown, KishiError>;
  /** Checks a network file before `NnueFile` switches the alpha-beta evaluation to it (loaded lazily: not before `uciok`). */
  readonly checkNnueFile: (path: string, game: GameKind) => Promise<Result<unknown, KishiError>>;
  readonly idName: string;
  readonly idAuthor: string;
  /** Called once after `quit` (or end of input) has released the Player. */
  readonly onQuit?: () => void;
  readonly logger?: SessionLogger;
}

const SILENT: SessionLogger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

/** How often an unanswered stop/ponderhit is re-sent to the Player, ms. */
const REASSERT_MS = 5;

/** One `go`, from arrival to `bestmove`. */
class SearchJob {
  /** `stop` (or `gameover`/`quit`) arrived. */
  stop = false;
  /** `ponderhit` arrived (ponder searches only). */
  ponderhit = false;
  /** Print nothing more (`gameover`, `quit`). */
  silent = false;
  player: Player | undefined;
  lastInfo: SearchInfo | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The Player has answered: signals would reach the next search. */
  private settled = false;
  private releaseFn: (() => void) | undefined;
  /** Resolves when a held `bestmove` may be printed. */
  readonly released: Promise<void>;

  constructor(
    readonly request: GoRequest,
    /** USI `go mate`: answered with `checkmate ...`. */
    readonly mate: boolean,
  ) {
    this.released = new Promise((resolve) => (this.releaseFn = resolve));
  }

  get infinite(): boolean {
    return this.request.limits?.infinite === true;
  }

  get ponder(): boolean {
    return this.request.ponder === true;
  }

  /** Whether the answer must wait for `stop` / `ponderhit` before it is printed. */
  held(): boolean {
    if (this.stop) return false;
    if (this.infinite) return true;
    return this.ponder && !this.ponderhit;
  }

  release(): void {
    this.releaseFn?.();
  }

  /** Sends the control words to the Player now and keeps re-sending them until `settle`. */
  signal(): void {
    const p = this.player;
    if (p === undefined || this.settled) return;
    const send = (): void => {
      if (this.stop) p.stop();
      else if (this.ponderhit) p.ponderhit();
    };
    send();
    if (this.timer === undefined) this.timer = setInterval(send, REASSERT_MS);
  }

  settle(): void {
    this.settled = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

export class EngineSession {
  private readonly dialect: Dialect;
  private readonly settings: EngineSettings;
  private readonly options: EngineOption[];
  private readonly log: SessionLogger;
  /** The decision on each answer (legality, declaration, fallback move); never asked to search. */
  private readonly thinker: Thinker;
  private position: PositionState;
  private player: TunablePlayer | undefined;
  /** The Player must be rebuilt before the next use (weights file or search kind changed). */
  private rebuild = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly jobs: SearchJob[] = [];
  /** `quit` (or end of input) arrived: no more input is read, searches are silenced. */
  private quitting = false;
  /** The work queued before `quit` has run: nothing more is written. */
  private closed = false;

  constructor(private readonly opts: EngineSessionOptions) {
    this.dialect = opts.dialect;
    this.settings = { ...opts.settings };
    this.options = opts.dialect.options(this.settings);
    this.log = opts.logger ?? SILENT;
    // No `drawOrResign`: UCI and USI have no draw offers, and the GUI resigns for its engine.
    // graceMs is the guard's, and the session never asks the Thinker to search.
    this.thinker = new Thinker({ game: opts.dialect.game, log: this.log, graceMs: 0 });
    this.position = startPosition(opts.dialect, this.settings);
  }

  /** Whether a search is queued or running. */
  searching(): boolean {
    return this.jobs.length > 0;
  }

  /** The current option values (for tests and logs). */
  currentSettings(): Readonly<EngineSettings> {
    return this.settings;
  }

  /** The current position (for tests). */
  currentPosition(): PositionState {
    return this.position;
  }

  /** Resolves when every command queued so far has run (for tests). */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Handles one input line; never blocks on a search. */
  handleLine(raw: string): void {
    if (this.quitting) return;
    const line = raw.trim();
    if (line === '') return;
    this.log.debug(`<< ${line}`);
    const tokens = line.split(/\s+/);
    const word = tokens[0]!;
    const rest = tokens.slice(1);
    const p = this.dialect.protocol;
    switch (word) {
      case 'uci':
      case 'usi':
        if (word !== p) return this.unknown(line);
        this.hello();
        return;
      case 'debug':
      case 'register':
        return;
      case 'isready':
        this.isready();
        return;
      case 'setoption':
        this.setOption(rest);
        return;
      case 'ucinewgame':
      case 'usinewgame':
        if (word !== `${p}newgame`) return this.unknown(line);
        this.enqueue('new game', async () => {
          const player = await this.ensurePlayer();
          if (player.isOk) await player.value.newGame();
          else if (!this.quitting) this.error(player.error.message);
        });
        return;
      case 'position':
        this.setPosition(rest);
        return;
      case 'go':
        this.go(rest);
        return;
      case 'stop':
        this.stop();
        return;
      case 'ponderhit':
        // YaneuraOu's `ponderhit btime ...` extension: the times are not needed, the Player keeps its plan.
        this.ponderhit();
        return;
      case 'gameover':
        if (p !== 'usi') return this.unknown(line);
        this.gameover(rest[0] ?? '');
        return;
      case 'quit':
        void this.quit();
        return;
      default:
        this.unknown(line);
    }
  }

  /**
   * Stops everything, releases the Player and calls `onQuit` (also on end of input). Commands queued
   * before `quit` finish first, so an `isready` still waiting is answered `readyok`: GUIs and scripts
   * send `isready` then `quit` and wait for the answer (Stockfish, reading commands in order, gives it).
   */
  async quit(): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    for (const job of this.jobs) this.silence(job);
    await this.chain;
    this.closed = true;
    const player = this.player;
    this.player = undefined;
    try {
      await player?.close();
    } catch (e) {
      this.log.warn(`closing the player: ${(e as Error).message}`);
    }
    this.opts.onQuit?.();
  }

  // ---- Commands ----------------------------------------------------------------------------------

  private hello(): void {
    const p = this.dialect.protocol;
    this.write(`id name ${this.opts.idName}`);
    this.write(`id author ${this.opts.idAuthor}`);
    for (const o of this.options) this.write(optionLine(o, p));
    this.write(`${p}ok`);
  }

  private isready(): void {
    if (this.searching()) {
      this.write('readyok');
      return;
    }
    this.enqueue('isready', async () => {
      // After `quit` no Player is made only to be closed: the commands before this one have run.
      if (this.quitting) {
        this.write('readyok');
        return;
      }
      const player = await this.ensurePlayer();
      if (player.isErr) this.error(player.error.message);
      this.write('readyok');
    });
  }

  private setOption(tokens: readonly string[]): void {
    const parsed = parseSetOption(tokens);
    if (parsed.isErr) return this.error(parsed.error.message);
    const { name, value } = parsed.value;
    const option = findOption(this.options, name);
    if (option === undefined) {
      this.log.warn(`setoption: no option named ${JSON.stringify(name)}; ignored`);
      this.write(infoString(`unknown option ${name}; ignored`));
      return;
    }
    const checked = optionValue(option, value);
    if (checked.isErr) return this.error(checked.error.message);
    this.applyOption(option, checked.value);
  }

  private applyOption(option: EngineOption, value: OptionValue): void {
    const s = this.settings;
    this.log.info(`option ${option.name} = ${String(value)}`);
    switch (option.key) {
      case 'hashMb': {
        const mb = value as number;
        if (mb === s.hashMb) return;
        s.hashMb = mb;
        this.enqueue('hash size', async () => {
          const p = this.player;
          if (p === undefined) return;
          if (p.setHashMb !== undefined) await p.setHashMb(mb);
          else this.rebuild = true;
        });
        return;
      }
      case 'clearHash':
        this.enqueue('clear hash', async () => {
          await this.player?.newGame();
        });
        return;
      case 'ponder':
        s.ponder = value as boolean;
        return;
      case 'moveOverheadMs': {
        const ms = value as number;
        if (ms === s.moveOverheadMs) return;
        s.moveOverheadMs = ms;
        this.enqueue('move overhead', async () => {
          const p = this.player;
          if (p === undefined) return;
          if (p.setMoveOverheadMs !== undefined) await p.setMoveOverheadMs(ms);
          else this.rebuild = true;
        });
        return;
      }
      case 'evalFile': {
        // An empty value means the default file.
        const path = (value as string) === '' ? this.opts.settings.evalFile : (value as string);
        const ok = this.opts.checkEvalFile(path, this.dialect.game);
        if (ok.isErr) return this.error(`EvalFile not changed: ${ok.error.message}`);
        if (path === s.evalFile) return;
        s.evalFile = path;
        this.rebuild = true;
        return;
      }
      case 'nnueFile': {
        // The alpha-beta network (config engine.chessNnue / shogiNnue); `ModelFile` is MCTS's. Empty: the default.
        const path = (value as string) === '' ? this.opts.settings.nnueFile : (value as string);
        if (path === s.nnueFile) return;
        this.enqueue('nnue file', async () => {
          const ok = await this.opts.checkNnueFile(path, this.dialect.game);
          if (ok.isErr) return this.error(`NnueFile not changed: ${ok.error.message}`);
          s.nnueFile = path;
          this.rebuild = true;
        });
        return;
      }
      case 'modelFile':
        // Checked when the player is built: with Search auto a missing or corrupt net falls back to alpha-beta.
        if (value === s.modelFile) return;
        s.modelFile = value as string;
        this.rebuild = true;
        return;
      case 'drawScore':
        if (value === s.drawScore) return;
        s.drawScore = value as number;
        this.rebuild = true;
        return;
      case 'multiPv':
        s.multiPv = value as number;
        return;
      case 'threads':
        if (value === s.threads) return;
        s.threads = value as number;
        this.rebuild = true;
        return;
      case 'search':
        if (value === s.search) return;
        s.search = value as string;
        this.rebuild = true;
        return;
      case 'evalKind':
        if (value === s.evalKind) return;
        s.evalKind = value as string;
        this.rebuild = true;
        return;
      case 'chess960':
        s.chess960 = value as boolean;
        return;
      case 'searchTuning': {
        const text = value as string;
        const checked = parseTuningPairs(text);
        if (checked.isErr) return this.error(`SearchTuning not changed: ${checked.error.message}`);
        if (text === s.searchTuning) return;
        s.searchTuning = text;
        this.rebuild = true;
        return;
      }
      case 'tuningParam':
        if (option.param === undefined || s.tuningValues[option.param] === value) return;
        s.tuningValues = { ...s.tuningValues, [option.param]: value as number };
        this.rebuild = true;
        return;
      case 'mctsTuning': {
        const text = value as string;
        const checked = cpuTuningFromText(text);
        if (checked.isErr) return this.error(`MctsTuning not changed: ${checked.error.message}`);
        if (text === s.mctsTuning) return;
        s.mctsTuning = text;
        this.rebuild = true;
        return;
      }
      case 'policyFile':
        if (value === s.policyFile) return;
        s.policyFile = value as string;
        this.rebuild = true;
        return;
      case 'nnueSimd':
        if (value === s.nnueSimd) return;
        s.nnueSimd = value as boolean;
        this.rebuild = true;
        return;
    }
  }

  private setPosition(tokens: readonly string[]): void {
    const parsed = parsePosition(this.dialect, tokens, this.settings, this.position);
    if (parsed.isErr) {
      this.log.warn(`position refused: ${parsed.error.message}`);
      this.error(`${parsed.error.message}; the previous position is kept`);
      return;
    }
    this.position = parsed.value;
    const refused = parsed.value.refused;
    if (refused !== undefined) {
      this.log.warn(`position: ${refused.message}`);
      this.error(`${refused.message}; the moves before it are played, the rest ignored`);
    }
  }

  private go(tokens: readonly string[]): void {
    const { command, warnings } = parseGoCommand(tokens);
    for (const w of warnings) this.write(infoString(w));
    if (command.searchmoves !== undefined) this.write(infoString('searchmoves is not supported; searching every move'));
    const position = this.position;
    if (command.perft !== undefined) {
      const depth = command.perft;
      this.enqueue('perft', async () => {
        for (const l of this.dialect.perft(position, depth, this.settings)) this.write(l);
      });
      return;
    }
    // The GUI's clock runs from this line on (GoRequest.sentAt).
    const sentAt = Date.now();
    const plain = goRequestOf(
      command,
      { game: this.dialect.game, variant: position.variant, start: position.start, moves: position.moves },
      this.dialect.clockWords,
    );
    const request = { ...(this.settings.multiPv > 1 && command.mate === undefined ? { ...plain, multiPv: this.settings.multiPv } : plain), sentAt };
    const job = new SearchJob(request, this.dialect.protocol === 'usi' && command.mate !== undefined);
    this.jobs.push(job);
    this.enqueue('go', () => this.run(job, position));
  }

  private stop(): void {
    for (const job of this.jobs) {
      job.stop = true;
      job.release();
      job.signal();
    }
  }

  private ponderhit(): void {
    for (const job of this.jobs) {
      if (!job.ponder || job.ponderhit) continue;
      job.ponderhit = true;
      job.release();
      job.signal();
    }
  }

  private gameover(result: string): void {
    this.log.info(`gameover ${result}`);
    for (const job of this.jobs) this.silence(job);
  }

  private silence(job: SearchJob): void {
    job.silent = true;
    job.stop = true;
    job.release();
    job.signal();
  }

  private unknown(line: string): void {
    this.log.warn(`unknown command: ${line}`);
    this.write(infoString(`unknown command: ${line}`));
  }

  // ---- Searching ---------------------------------------------------------------------------------

  private async run(job: SearchJob, position: PositionState): Promise<void> {
    try {
      let result: GoResult;
      const made = await this.ensurePlayer();
      if (made.isErr) {
        if (!job.silent) this.error(made.error.message);
        result = this.fallback(job, position);
      } else {
        const player = made.value;
        job.player = player;
        const pending = player.go(job.request, (info) => {
          if (job.silent) return;
          job.lastInfo = info;
          this.write(infoLine(info, this.dialect.protocol));
        });
        // A stop or ponderhit that came before the search started.
        if (job.stop || job.ponderhit) job.signal();
        try {
          result = await pending;
        } catch (e) {
          if (!job.silent) this.error(`search failed: ${(e as Error).message}`);
          result = this.fallback(job, position);
        } finally {
          job.settle();
        }
      }
      if (job.held()) await job.released;
      if (job.silent) return;
      this.answer(job, result, position);
    } finally {
      const i = this.jobs.indexOf(job);
      if (i >= 0) this.jobs.splice(i, 1);
    }
  }

  private answer(job: SearchJob, found: GoResult, position: PositionState): void {
    if (job.mate) {
      this.write(checkmateLine(found));
      return;
    }
    const result = answerOf(this.thinker.decide(position.moves.length, gameStatePosition(position.game), found), found);
    const info = result.info;
    if (info !== undefined && (job.lastInfo === undefined || info.nodes !== job.lastInfo.nodes || info.pv[0] !== job.lastInfo.pv[0])) {
      this.write(infoLine(info, this.dialect.protocol));
    }
    const final = info ?? job.lastInfo;
    if (position.game.legalMoves().length === 0 && !(final !== undefined && 'mate' in final.score && final.score.mate === 0)) {
      // No move at the root: say why before the null move, as Stockfish does (`score mate 0` when mated,
      // `score cp 0` when stalemated), so that a GUI does not take `bestmove 0000` for a failure.
      this.write(`info depth 0 score ${position.game.isCheck() ? 'mate 0' : 'cp 0'}`);
    }
    this.write(`bestmove ${this.dialect.bestmove(result)}`);
  }

  /** An answer without the Player's: `checkmate timeout` for a mate search, else the Thinker's fallback move. */
  private fallback(job: SearchJob, position: PositionState): GoResult {
    if (job.mate) return { move: 'timeout' };
    return answerOf(this.thinker.fallback(gameStatePosition(position.game), job.lastInfo, 'failed'), { move: 'resign' });
  }

  /** The Player, created (or rebuilt after an option change) on first use. */
  private async ensurePlayer(): Promise<Result<TunablePlayer, KishiError>> {
    if (this.player !== undefined && !this.rebuild) return Result.ok(this.player);
    if (this.quitting) return Result.err(new KishiError('ERR_CLOSED', 'the session has quit'));
    if (this.player !== undefined) {
      const old = this.player;
      this.player = undefined;
      await old.close();
    }
    this.rebuild = false;
    const s = this.settings;
    const config: PlayerConfig = {
      search: s.search as PlayerConfig['search'],
      hashMb: s.hashMb,
      moveOverheadMs: s.moveOverheadMs,
      chessWeights: s.evalFile,
      shogiWeights: s.evalFile,
      chessEval: s.evalKind === 'nnue' ? 'nnue' : 'linear',
      shogiEval: s.evalKind === 'nnue' ? 'nnue' : 'linear',
      chessNnue: s.nnueFile,
      shogiNnue: s.nnueFile,
      ...(s.modelFile !== '' ? { chessModel: s.modelFile, shogiModel: s.modelFile } : {}),
      mctsDrawScore: s.drawScore,
      threads: s.threads,
      searchTuning: sessionTuningText(s),
      mctsTuning: s.mctsTuning,
      mctsPolicy: s.policyFile,
      nnueSimd: s.nnueSimd,
      ...s.td,
    };
    let made = await this.opts.makePlayer(config, this.dialect.game);
    if (made.isErr && made.error.code === 'ERR_MODEL' && config.search !== 'alphabeta') {
      // No usable model for MCTS: search with alpha-beta rather than answer with an unsearched move.
      this.write(infoString(`${made.error.message}; searching with alpha-beta instead of ${config.search}`));
      this.log.warn(`${made.error.message}; falling back to alpha-beta`);
      made = await this.opts.makePlayer({ ...config, search: 'alphabeta' }, this.dialect.game);
    }
    if (made.isErr) return Result.err(made.error);
    const player: TunablePlayer = made.value;
    if (this.quitting) {
      await player.close();
      return Result.err(new KishiError('ERR_CLOSED', 'the session has quit'));
    }
    this.player = player;
    // Start the worker and allocate the table now (isready), not on the clock of the first move.
    await player.newGame();
    return Result.ok(player);
  }

  // ---- Output and queue --------------------------------------------------------------------------

  private enqueue(what: string, work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((e: unknown) => {
      this.log.error(`${what}: ${(e as Error).stack ?? String(e)}`);
      if (!this.quitting) this.write(infoString(`error: ${what}: ${(e as Error).message}`));
    });
  }

  private error(message: string): void {
    this.write(infoString(`error: ${message}`));
  }

  private write(line: string): void {
    if (this.closed) return;
    this.log.debug(`>> ${line}`);
    this.opts.write(line);
  }
}

/**
 * The answer the Thinker's decision `d` on `found` gives: the Player's own answer when it stands (its
 * ponder move and last `info` with it), the fallback move alone, or `resign` (the null move when
 * no move is legal: the dialect writes it).
 */
function answerOf(d: Decision, found: GoResult): GoResult {
  switch (d.kind) {
    case 'move':
      return d.fallback === undefined ? d.result : { move: d.move };
    case 'declare':
      return d.result;
    case 'resign':
      return { move: 'resign', ...(found.info ? { info: found.info } : {}) };
    default:
      // `decide` and `fallback` give neither `failed` nor `cancelled`; nothing is better than no answer.
      return found;
  }
}

/** USI `checkmate` answer of a mate search (the Player's `move` is `nomate`/`timeout` when not mate). */
export function checkmateLine(result: GoResult): string {
  switch (result.move) {
    case 'nomate':
    case 'resign':
    case 'win':
      return 'checkmate nomate';
    case 'timeout':
      return 'checkmate timeout';
    case 'notimplemented':
      return 'checkmate notimplemented';
    default: {
      const pv = result.info?.pv;
      return `checkmate ${pv !== undefined && pv.length > 0 ? pv.join(' ') : result.move}`;
    }
  }
}
