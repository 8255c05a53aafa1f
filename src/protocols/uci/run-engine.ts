/**
 * Runs `kishi uci` / `kishi usi`: an `EngineSession` between stdin and stdout. Only protocol lines
 * go to stdout; logs go to stderr (the winston root logger) and, with `--config`, to the log file.
 *
 * Option defaults: hash size, ponder, search kind and weights files come from the engine config
 * (its schema defaults without `--config`); the move overhead does not, because the config's value
 * is for network play (lichess, floodgate) while a GUI measures the clock locally, so it defaults to
 * `DEFAULT_MOVE_OVERHEAD_MS` (a GUI or `--move-overhead` changes it).
 */
import type { Readable, Writable } from 'node:stream';
import { checkLogDir } from '../../config/log-dir.js';
import { defaultConfig } from '../../config/defaults.js';
import type { KishiConfig } from '../../config/schema.js';
import { KishiError, Result } from '../../core/result.js';
import { childLogger, configureLogging } from '../../log/logger.js';
import { loadWeightsFile } from '../../player/weights-file.js';
import type { Dialect, EngineSettings } from './dialect.js';
import { EngineSession } from './engine-session.js';
import { readLines } from './line-reader.js';

/**
 * 100 ms, not Stockfish's 10: a Node engine answers through a worker thread and a garbage collector,
 * and at 10 s + 0.1 s against Stockfish on a loaded 2-core machine 50 ms lost 2 games of 30 on time
 * in the last seconds of the clock (moves 350 ms late where 335 ms were allowed).
 */
export const DEFAULT_MOVE_OVERHEAD_MS = 100;
export const ENGINE_NAME = 'Kishi 0.1.0';
export const ENGINE_AUTHOR = 'the Kishi authors';

export interface RunEngineOptions {
  /** A config file for the option defaults and logging. */
  readonly config?: string;
  readonly moveOverheadMs?: number;
  readonly input?: Readable;
  readonly output?: Writable;
}

/** The option defaults for a game from a config. */
export function engineSettings(config: KishiConfig, dialect: Dialect, moveOverheadMs: number): EngineSettings {
  const e = config.engine;
  return {
    search: e.search,
    hashMb: e.hashMb,
    moveOverheadMs,
    ponder: e.ponder,
    evalFile: dialect.game === 'chess' ? e.chessWeights : e.shogiWeights,
    modelFile: dialect.game === 'chess' ? e.chessModel : e.shogiModel,
    drawScore: e.mctsDrawScore,
    evalKind: dialect.game === 'chess' ? e.chessEval : e.shogiEval,
    nnueFile: dialect.game === 'chess' ? e.chessNnue : e.shogiNnue,
    chess960: false,
    multiPv: 1,
    threads: e.threads,
    searchTuning: e.searchTuning,
    tuningValues: {},
    mctsTuning: e.mctsTuning,
    policyFile: e.mctsPolicy,
    nnueSimd: e.nnueSimd,
    td: { tdLambda: e.tdLambda, tdStepSize: e.tdStepSize, tdEpsilon: e.tdEpsilon, tdEpisodePlies: e.tdEpisodePlies, tdSimulations: e.tdSimulations, tdTimeShare: e.tdTimeShare, tdCarry: e.tdCarry, tdQuiet: e.tdQuiet },
  };
}

/**
 * Reads the config (schema defaults when none is named). The loader (ajv, yaml) is imported only
 * when a file is named, so that an engine started without `--config` answers `uciok` at once.
 */
export async function engineConfig(file: string | undefined): Promise<Result<KishiConfig, KishiError>> {
  if (file === undefined) return Result.ok(defaultConfig());
  const r = (await import('../../config/load.js')).loadConfig(file);
  return r.isOk ? Result.ok(r.value) : Result.err(new KishiError('ERR_CONFIG', r.error.message));
}

/** Serves the protocol until `quit` or end of input; resolves then. A bad config or log directory is an error before any line is read. */
export async function runEngine(dialect: Dialect, opts: RunEngineOptions = {}): Promise<Result<void, KishiError>> {
  const config = await engineConfig(opts.config);
  if (config.isErr) return Result.err(config.error);
  if (opts.config !== undefined) {
    // As `kishi run` and `kishi csa`: a log directory we cannot write is bad config (one line, exit 2).
    const logDir = checkLogDir(config.value.log.dir);
    if (logDir.isErr) return Result.err(logDir.error);
    configureLogging({ level: config.value.log.level, dir: config.value.log.dir });
  }
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stdout;
  const log = childLogger(dialect.protocol);
  return new Promise((resolve) => {
    output.on('error', (e) => {
      // The GUI went away (EPIPE): nothing more can be said.
      log.warn(`stdout: ${e.message}`);
      void session.quit();
    });
    const session = new EngineSession({
      dialect,
      write: (line) => output.write(`${line}\n`),
      // The players' code loads on the first `isready` (or `go`), not before `uciok`.
      makePlayer: async (c, game) => (await import('../../player/factory.js')).createPlayer(c, game),
      settings: engineSettings(config.value, dialect, opts.moveOverheadMs ?? DEFAULT_MOVE_OVERHEAD_MS),
      checkEvalFile: loadWeightsFile,
      checkNnueFile: async (path, game) => (await import('../../player/nnue-file.js')).loadNnueFile(path, game),
      idName: ENGINE_NAME,
      idAuthor: ENGINE_AUTHOR,
      logger: log,
      onQuit: () => {
        stopReading();
        resolve(Result.ok(undefined));
      },
    });
    const stopReading = readLines(input, (line) => session.handleLine(line), () => void session.quit());
  });
}
