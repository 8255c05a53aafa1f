/**
 * Training records from the logs of our online games (issue 10, deliverable 5: "the training loop
 * on logs of its online games"): finished lichess and floodgate games in the game-log format
 * (src/records/game-log-reader.ts) become training chunks with `meta.phase = "online"`,
 * which the AlphaZero loop can mix into its training window.
 *
 * Per position (the position before each move):
 * - policy target: the move played, one-hot over the legal moves. By default for both sides
 *   (`sides: 'both'`): the opponents on lichess and floodgate are mostly other engines, often
 *   stronger than ours, and the games they won against us are exactly where our policy was wrong;
 *   `sides: 'ours'` keeps only the positions where we moved (then the records hold only our own
 *   choices, like a distillation of the engine that played).
 * - value target: our logged search score for the position, squashed to [-1, 1] from the side to
 *   move's view (`scoreToValue`), NaN where there is none (opponent moves, moves without search);
 * - result: the game result from the side to move's view, from the log's result line.
 *
 * Which games: finished games of this game kind whose result line says they were played out
 * (aborted, unfinished, lost to the network and damaged logs are skipped, by
 * src/learning/tdleaf/game-filter.ts); chess variants other than standard, from-position and
 * Chess960 are skipped. Every move is replayed on the board and the logged position is compared
 * with the board's, so a log that does not replay is reported (`file:line: ...`) and skipped, and
 * the conversion carries on with the next file.
 *
 * Output: one chunk per game, `on-<server>-<gameId>.knr`, written atomically; a game whose chunk
 * is already there is not converted again, so the conversion can run before every training step.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { GameLogSearch } from '../../records/game-log.js';
import { formatGameLogProblem, listGameLogs, readGameLogFile, type ReadGameLog } from '../../records/game-log-reader.js';
import { ChunkWriter } from '../../nn/training-chunk.js';
import { ChessMctsBoard } from '../../search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../search/mcts/mcts-board.js';
import { ShogiMctsBoard } from '../../search/mcts/shogi-mcts-board.js';
import { skipReason, type GameFilter } from '../tdleaf/game-filter.js';
import { writeBytesAtomic } from './selfplay-chunks.js';
import { scoreToValue as engineScoreToValue } from './value-target.js';

export const ONLINE_SIDES = ['both', 'ours'] as const;
export type OnlineSides = (typeof ONLINE_SIDES)[number];

export interface LogRecordsOptions {
  readonly game: GameKind;
  /** Directory of game logs (searched recursively for finished `*.jsonl` files). */
  readonly logs: string;
  readonly outDir: string;
  /** Whose moves become policy targets (default `both`; see the module comment). */
  readonly sides?: OnlineSides;
  /** Chunk meta phase (default `online`). */
  readonly phase?: string;
  /** Rating, time-control and date filters of TD-Leaf's game filter; `networkTimeLossMs` defaults to 2000. */
  readonly filter?: Partial<Omit<GameFilter, 'game'>>;
}

export interface LogRecordsReport {
  /** Chunks written by this call. */
  readonly files: string[];
  readonly games: number;
  readonly positions: number;
  /** Games whose chunk was already there. */
  readonly alreadyConverted: number;
  /** Games left out, by reason (game-filter reasons, `variant`, `does-not-replay`). */
  readonly skipped: Readonly<Record<string, number>>;
  /** `file:line: message` for every problem found in the logs. */
  readonly problems: string[];
}

/**
 * A logged score as a value in [-1, 1] for the mover, on the bootstrap data's scale
 * (value-target.ts): exact for MCTS logs, whose centipawns came from Lc0's Q -> cp map.
 */
export const scoreToValue = (score: GameLogSearch['score'], game: GameKind, engine: string | undefined): number =>
  engineScoreToValue(game, score, (engine ?? '').toLowerCase().includes('mcts'));

/** The file name of a game's chunk. */
export const onlineChunkName = (server: string, gameId: string): string => `on-${`${server}-${gameId}`.replace(/[^A-Za-z0-9_.-]/g, '_')}.knr`;

/** The board of a log's start position, or why there is none. */
const startOf = (log: ReadGameLog): Result<MctsBoard, KishiError> => {
  const h = log.header;
  const variant = Result.err(new KishiError('ERR_VARIANT', `variant ${h.variant}`));
  if (h.game === 'chess') {
    if (!['standard', 'fromPosition', 'chess960'].includes(h.variant)) return variant;
    const b = ChessMctsBoard.fromText(h.start, [], h.variant === 'chess960');
    return b.isOk ? Result.ok(b.value) : Result.err(b.error);
  }
  if (h.variant !== 'standard') return variant;
  const b = ShogiMctsBoard.fromText(h.start, []);
  return b.isOk ? Result.ok(b.value) : Result.err(b.error);
};

/** The fields of a FEN/SFEN a replay must reproduce: placement and side to move (and shogi hands). */
const essential = (text: string, game: GameKind): string =>
  text
    .trim()
    .split(/\s+/)
    .slice(0, game === 'chess' ? 2 : 3)
    .join(' ');

/** The records of one game, or the problem that stops it from replaying. */
const gameChunk = (log: ReadGameLog, board: MctsBoard, sides: OnlineSides, meta: Record<string, unknown>): Result<{ bytes: Uint8Array; positions: number }, KishiError> => {
  const replay = (m: string): Result<never, KishiError> => Result.err(new KishiError('ERR_REPLAY', m));
  const h = log.header;
  const winner = log.result!.winner;
  const writer = new ChunkWriter(board.spec, meta);
  const list = new Int32Array(board.maxMoves);
  const indices = new Int32Array(board.maxMoves);
  for (const m of log.moves) {
    const text = board.toText();
    if (m.position !== '' && essential(m.position, h.game) !== essential(text, h.game)) {
      return replay(`${log.file}:${m.line}: position ${JSON.stringify(m.position)} is not the replayed ${JSON.stringify(text)}`);
    }
    const move = board.parseMove(m.move);
    if (move === 0) return replay(`${log.file}:${m.line}: illegal move ${JSON.stringify(m.move)} in ${text}`);
    if (sides === 'both' || m.ours) {
      const n = board.generate(list);
      board.moveIndices(list, n, indices);
      const planes = new Float32Array(board.spec.inputSize);
      board.encode(planes, 0);
      const policy = new Float32Array(n);
      policy[list.subarray(0, n).indexOf(move)] = 1;
      const value = m.ours && m.search !== undefined ? scoreToValue(m.search.score, h.game, h.engine) : NaN;
      writer.add({
        planes,
        moveIndices: indices.slice(0, n),
        policy,
        value,
        result: winner === null ? 0 : winner === m.side ? 1 : -1,
        text: `${text}|ply=${m.ply}|game=${h.server}/${h.gameId}|ours=${m.ours ? 1 : 0}`,
      });
    }
    board.make(move);
  }
  return Result.ok({ bytes: writer.toBytes(), positions: writer.count });
};

/** Converts the finished logs under `o.logs` into chunks in `o.outDir`; see the module comment. */
export function convertGameLogs(o: LogRecordsOptions): Result<LogRecordsReport, KishiError> {
  const sides = o.sides ?? 'both';
  if (!ONLINE_SIDES.includes(sides)) return Result.err(new KishiError('ERR_USAGE', `log records: sides must be ${ONLINE_SIDES.join(' or ')}, not ${JSON.stringify(sides)}`));
  try {
    mkdirSync(o.outDir, { recursive: true });
  } catch (e) {
    return Result.err(new KishiError('ERR_IO', `log records: cannot create ${o.outDir} (${(e as Error).message})`));
  }
  const filter: GameFilter = { networkTimeLossMs: 2000, ...o.filter, game: o.game };
  const files: string[] = [];
  const problems: string[] = [];
  const skipped: Record<string, number> = {};
  const skip = (why: string): void => void (skipped[why] = (skipped[why] ?? 0) + 1);
  let games = 0;
  let positions = 0;
  let alreadyConverted = 0;
  for (const file of listGameLogs(o.logs)) {
    const read = readGameLogFile(file);
    for (const p of read.problems) problems.push(formatGameLogProblem(p));
    const log = read.log;
    if (log === undefined) {
      skip('bad-log');
      continue;
    }
    const why = skipReason(log, filter);
    if (why !== undefined) {
      skip(why);
      continue;
    }
    const h = log.header;
    const out = join(o.outDir, onlineChunkName(h.server, h.gameId));
    if (existsSync(out)) {
      alreadyConverted++;
      continue;
    }
    const board = startOf(log);
    if (board.isErr) {
      if (board.error.code === 'ERR_VARIANT') skip('variant');
      else {
        problems.push(`${file}:1: start ${JSON.stringify(h.start)}: ${board.error.message}`);
        skip('does-not-replay');
      }
      continue;
    }
    const r = log.result!;
    const meta = {
      phase: o.phase ?? 'online',
      generator: 'kishi log-records',
      games: 1,
      sides,
      server: h.server,
      gameId: h.gameId,
      ourSide: h.ourSide,
      winner: r.winner,
      status: r.status,
      startedAt: h.startedAt,
      ...(h.engine !== undefined ? { engine: h.engine } : {}),
      players: h.players,
      log: file,
    };
    const chunk = gameChunk(log, board.value, sides, meta);
    if (chunk.isErr) {
      problems.push(chunk.error.message);
      skip('does-not-replay');
      continue;
    }
    if (chunk.value.positions === 0) {
      skip('too-short');
      continue;
    }
    try {
      writeBytesAtomic(out, chunk.value.bytes);
    } catch (e) {
      return Result.err(new KishiError('ERR_IO', `log records: cannot write ${out} (${(e as Error).message})`));
    }
    files.push(out);
    games++;
    positions += chunk.value.positions;
  }
  return Result.ok({ files, games, positions, alreadyConverted, skipped, problems });
}
