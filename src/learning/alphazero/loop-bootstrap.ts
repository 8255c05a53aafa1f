/**
 * The bootstrap phase's data (issue 10, item 4; Giraffe-style): games of the alpha-beta engine
 * against itself at a fixed node budget per move, every position labelled with the engine's move
 * (one-hot policy target) and its score (value target, mapped to [-1, 1]) plus the game result,
 * as tools/nn/make-bootstrap-data.ts does, but counted in games and written like self-play:
 * whole games per chunk `sp-<first>-<last>.knr` (atomic), `meta.phase = "bootstrap-alphabeta"`,
 * in the loop's `bootstrap/` directory. So the phase is resumable the same way (count the games on
 * disk, go on at the next index) and kept apart from self-play in the records.
 *
 * Diversity: chess games start from a line of data/openings/chess-balanced.epd, shogi games from
 * the start position; the first plies (random count) are random legal moves and 3% of later moves
 * are random (the label stays the engine's move). Deterministic for (seed, game index).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../../player/alphabeta-engine.js';
import { loadWeightsFile } from '../../player/weights-file.js';
import { packageRoot } from '../../core/package-path.js';
import { ChessMctsBoard } from '../../search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../search/mcts/mcts-board.js';
import { Rng } from '../../search/mcts/rng.js';
import { ShogiMctsBoard } from '../../search/mcts/shogi-mcts-board.js';
import { removeStaleChunkTemps, scanSelfplayChunks, selfplayChunkBytes, selfplayChunkName, writeBytesAtomic } from './selfplay-chunks.js';
import { gameSeed, type SelfplayGameRecord, type SelfplayGameSummary } from './selfplay-game.js';
import { scoreToValue } from './value-target.js';

export const BOOTSTRAP_PHASE = 'bootstrap-alphabeta';

export interface BootstrapOptions {
  readonly game: GameKind;
  readonly outDir: string;
  /** Games to play in this call, from `firstGameIndex`. */
  readonly games: number;
  readonly firstGameIndex: number;
  /** Alpha-beta nodes per move. */
  readonly nodes: number;
  readonly gamesPerChunk: number;
  readonly seed: number;
  readonly maxPlies?: number;
  readonly signal?: AbortSignal;
  readonly onGame?: (g: SelfplayGameSummary) => void;
}

export interface BootstrapReport {
  readonly games: number;
  readonly positions: number;
  readonly files: string[];
  readonly seconds: number;
  readonly gamesPerHour: number;
  readonly aborted: boolean;
  readonly nextGameIndex: number;
}

export type BootstrapRunner = (o: BootstrapOptions) => Promise<Result<BootstrapReport, KishiError>>;

/** The start positions of the bootstrap games (chess: data/openings/chess-balanced.epd as FENs). */
export const bootstrapOpenings = (game: GameKind): string[] => {
  if (game !== 'chess') return ['startpos'];
  const file = join(packageRoot(), 'data/openings/chess-balanced.epd');
  if (!existsSync(file)) return ['startpos'];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const f = l.split(' ');
      const hm = /hmvc (\d+)/.exec(l)?.[1] ?? '0';
      const fm = /fmvn (\d+)/.exec(l)?.[1] ?? '1';
      return `${f[0]} ${f[1]} ${f[2]} ${f[3]} ${hm} ${fm}`;
    });
};

const makeBoard = (game: GameKind, start: string): MctsBoard =>
  game === 'chess' ? ChessMctsBoard.fromText(start, []).unwrap() : ShogiMctsBoard.fromText(start, []).unwrap();

/** Plays one alpha-beta self-play game (the records of every position). */
function playBootstrapGame(engine: AlphaBetaEngine, signalWords: Int32Array, game: GameKind, index: number, o: BootstrapOptions, openings: string[]): SelfplayGameRecord {
  const rng = new Rng(gameSeed(o.seed, index));
  const start = openings[Math.floor(rng.next() * openings.length)]!;
  const board = makeBoard(game, start);
  const maxPlies = o.maxPlies ?? (game === 'chess' ? 300 : 320);
  const randomPlies = game === 'chess' ? Math.floor(rng.next() * 5) : 2 + Math.floor(rng.next() * 9);
  const size = board.spec.inputSize;
  const planes: number[] = [];
  const polStart: number[] = [0];
  const polIndex: number[] = [];
  const polProb: number[] = [];
  const values: number[] = [];
  const sides: number[] = [];
  const texts: string[] = [];
  const moves: string[] = [];
  const list = new Int32Array(board.maxMoves);
  const buf = new Float32Array(size);
  engine.newGame();
  let resultFirst = 0;
  let reason = 'max-plies';
  let extreme = 0;
  for (let ply = 0; ; ply++) {
    const n = board.generate(list);
    const tv = board.gameResult(n);
    if (!Number.isNaN(tv) && ply > 0) {
      resultFirst = board.sideToMove() === 0 ? tv : -tv;
      reason = tv === 0 ? 'draw-rule' : 'mate';
      break;
    }
    if (n === 0 || ply >= maxPlies) break;
    const r = engine.go({ game, variant: 'standard', start, moves, limits: { nodes: o.nodes } }, signalWords).unwrap();
    if (r.move === 'resign' || r.move === 'win') {
      resultFirst = (r.move === 'win' ? 1 : -1) * (board.sideToMove() === 0 ? 1 : -1);
      reason = 'resign';
      break;
    }
    const best = board.parseMove(r.move);
    if (best === 0) throw new Error(`engine move ${r.move} not legal in ${board.toText()}`);
    const score = r.info?.score;
    const value = score === undefined ? Number.NaN : scoreToValue(game, score);
    board.encode(buf, 0);
    for (let i = 0; i < size; i++) planes.push(buf[i]!);
    const idx = new Int32Array(n);
    board.moveIndices(list, n, idx);
    const at = list.subarray(0, n).indexOf(best);
    for (let i = 0; i < n; i++) {
      polIndex.push(idx[i]!);
      polProb.push(i === at ? 1 : 0);
    }
    polStart.push(polIndex.length);
    values.push(value);
    sides.push(board.sideToMove());
    texts.push(`${board.toText()}|moves=${moves.length}`);
    if (Math.abs(value) >= 0.95) {
      const s = Math.sign(board.sideToMove() === 0 ? value : -value);
      extreme = Math.sign(extreme) === s ? extreme + s : s;
      if (Math.abs(extreme) >= 8) {
        resultFirst = Math.sign(extreme);
        reason = 'adjudicated';
        break;
      }
    } else extreme = 0;
    const move = ply < randomPlies || rng.next() < 0.03 ? list[Math.floor(rng.next() * n)]! : best;
    moves.push(board.moveToText(move));
    board.make(move);
  }
  const summary: SelfplayGameSummary = {
    index,
    plies: moves.length,
    result: (resultFirst > 0 ? 1 : resultFirst < 0 ? -1 : 0) as 1 | 0 | -1,
    reason,
    positions: values.length,
    resigned: reason === 'resign',
  };
  return {
    summary,
    planes: Float32Array.from(planes),
    polStart: Uint32Array.from(polStart),
    polIndex: Uint16Array.from(polIndex),
    polProb: Float32Array.from(polProb),
    value: Float32Array.from(values),
    side: Uint8Array.from(sides),
    texts,
  };
}

/** Plays `games` bootstrap games and writes them as chunks; an abort keeps the whole chunks written so far. */
export const runAlphaBetaBootstrap: BootstrapRunner = async (o) => {
  mkdirSync(o.outDir, { recursive: true });
  removeStaleChunkTemps(o.outDir);
  const disk = scanSelfplayChunks(o.outDir);
  if (disk.nextGameIndex > o.firstGameIndex) {
    return Result.err(new KishiError('ERR_BOOTSTRAP', `${o.outDir} already holds games up to ${disk.nextGameIndex - 1}; cannot start at ${o.firstGameIndex}`));
  }
  const weights = loadWeightsFile(o.game === 'chess' ? 'models/chess-linear.json' : 'models/shogi-linear.json', o.game);
  if (weights.isErr) return Result.err(weights.error);
  const engine = new AlphaBetaEngine({ game: o.game, theta: weights.value.theta, hashMb: 32, moveOverheadMs: 0 });
  const signalWords = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  const openings = bootstrapOpenings(o.game);
  const spec = makeBoard(o.game, 'startpos').spec;
  const started = performance.now();
  const files: string[] = [];
  let pending: SelfplayGameRecord[] = [];
  let games = 0;
  let positions = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const first = pending[0]!.summary.index;
    const last = pending[pending.length - 1]!.summary.index;
    const file = join(o.outDir, selfplayChunkName(first, last));
    writeBytesAtomic(file, selfplayChunkBytes(spec, pending, { phase: BOOTSTRAP_PHASE, generator: 'src/learning/alphazero/loop-bootstrap.ts', nodes: o.nodes, seed: o.seed }));
    files.push(file);
    games += pending.length;
    positions += pending.reduce((a, g) => a + g.summary.positions, 0);
    pending = [];
  };
  let aborted = false;
  for (let i = 0; i < o.games; i++) {
    if (o.signal?.aborted === true) {
      aborted = true;
      break;
    }
    const rec = playBootstrapGame(engine, signalWords, o.game, o.firstGameIndex + i, o, openings);
    o.onGame?.(rec.summary);
    pending.push(rec);
    if (pending.length >= o.gamesPerChunk) flush();
    // Let timers and signals through between games.
    await new Promise((r) => setImmediate(r));
  }
  if (!aborted) flush();
  const seconds = (performance.now() - started) / 1000;
  return Result.ok({ games, positions, files, seconds, gamesPerHour: seconds > 0 ? (games * 3600) / seconds : 0, aborted, nextGameIndex: o.firstGameIndex + games });
};
