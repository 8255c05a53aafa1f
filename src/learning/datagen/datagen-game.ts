/**
 * One datagen game: a varied start (a book position, then a few uniformly random legal plies, all
 * drawn from the game's own seeded generator), then self-play by the alpha-beta search at a fixed
 * node or depth budget, greedily. Every position whose side to move is not in check, whose best
 * move is quiet (no capture or promotion) and whose score is not near mate is recorded with the
 * search score; the game result is filled in when the game ends.
 *
 * Ending: the rules (mate, stalemate, repetition, fifty moves, insufficient material, sennichite),
 * a ply cap (draw), and adjudication as in the usual self-play data generators (Stockfish's
 * `gensfen`, bullet's `datagen`): a score beyond `resignCp` for both sides' last `resignPlies` plies
 * gives the game to that side; a score within ±`drawCp` for `drawPlies` plies after ply `drawAfter`
 * is a draw. The search is deterministic for a fixed node budget (the table and heuristics are
 * cleared per game), so a game depends only on the seed and the game index.
 */
import type { GameKind } from '../../core/game.js';
import type { Opening } from '../../books/openings.js';
import { randomInt, seededRng, type Rng } from '../../core/rng.js';
import { isMateScore } from '../../search/alphabeta/score.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { RULE_DRAW, RULE_LOSS, RULE_NONE, RULE_WIN } from '../../search/alphabeta/search-board.js';
import type { AlphaBetaSearch } from '../../search/alphabeta/search.js';
import { RECORD_BYTES, RESULT_DRAW, RESULT_LOSS, RESULT_WIN } from './position-record.js';

export interface DatagenGameSettings {
  readonly game: GameKind;
  /** Node budget per move (deterministic); `depth` may be given instead or as well. */
  readonly nodes?: number;
  readonly depth?: number;
  /** Random plies after the book position: drawn uniformly in [min, max]. */
  readonly randomPliesMin: number;
  readonly randomPliesMax: number;
  readonly maxPlies: number;
  /** Positions with |score| at or above this (or a mate score) are not recorded. */
  readonly maxScoreCp: number;
  readonly resignCp: number;
  readonly resignPlies: number;
  readonly drawCp: number;
  readonly drawPlies: number;
  readonly drawAfter: number;
  /** What evaluates (recorded in the shard's settings file): absent means the linear evaluation. */
  readonly evaluation?: string;
}

/** Default settings by game (the CLI may override the budget). */
export const defaultGameSettings = (game: GameKind): DatagenGameSettings => ({
  game,
  nodes: game === 'chess' ? 5000 : 5000,
  randomPliesMin: game === 'chess' ? 2 : 4,
  randomPliesMax: game === 'chess' ? 8 : 14,
  maxPlies: game === 'chess' ? 400 : 320,
  maxScoreCp: 3000,
  resignCp: 2500,
  resignPlies: 4,
  drawCp: 8,
  drawPlies: 16,
  drawAfter: game === 'chess' ? 80 : 400,
});

/** Writes the record of the current position (result left 0; filled in at the end). */
export type RecordWriter = (board: SearchBoard, out: Uint8Array, off: number, score: number) => void;

/**
 * Sees every searched position of the game, recorded or not, with the search's move and score,
 * before the move is played (policy labels: tools/data/label-policy.ts `--selfplay`).
 */
export type SearchObserver = (board: SearchBoard, bestMove: number, score: number) => void;

export interface DatagenGameResult {
  /** `count * RECORD_BYTES[game]` bytes. */
  readonly records: Uint8Array;
  readonly count: number;
  readonly plies: number;
  /** From the first player's view: 1 win, 0 draw, -1 loss. */
  readonly outcome: number;
  readonly nodes: number;
}

/** The seed of game `index`: a splitmix-style mix, so neighbouring indices get unrelated streams. */
export const gameSeed = (seed: number, index: number): number => {
  let z = (Math.imul(index + 1, 0x9e3779b9) ^ seed) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
};

/** Byte offset of the result field inside a record. */
export const RESULT_OFFSET: Readonly<Record<GameKind, number>> = { chess: 30, shogi: 56 };
/** Byte offset of the side-to-move field inside a record. */
const STM_OFFSET: Readonly<Record<GameKind, number>> = { chess: 24, shogi: 50 };

const randomPlies = (board: SearchBoard, rng: Rng, n: number, list: Int32Array): boolean => {
  for (let i = 0; i < n; i++) {
    if (board.ruleState() !== RULE_NONE) return false;
    const count = board.generate(list, false);
    if (count === 0) return false;
    board.make(list[randomInt(rng, count)]!);
  }
  return true;
};

/**
 * Plays game `index` on a fresh board from `makeBoard(opening)`; `openings` is drawn from with the
 * game's generator. Returns no records when the random plies end the game.
 */
export const playDatagenGame = (
  index: number,
  seed: number,
  settings: DatagenGameSettings,
  openings: readonly Opening[],
  makeBoard: (o: Opening) => SearchBoard,
  search: AlphaBetaSearch,
  write: RecordWriter,
  observe?: SearchObserver,
): DatagenGameResult => {
  const rng = seededRng(gameSeed(seed, index));
  rng();
  const board = makeBoard(openings[randomInt(rng, openings.length)]!);
  const list = new Int32Array(board.maxMoves);
  const rb = RECORD_BYTES[settings.game];
  const plies0 = settings.randomPliesMin + randomInt(rng, settings.randomPliesMax - settings.randomPliesMin + 1);
  if (!randomPlies(board, rng, plies0, list)) return { records: new Uint8Array(0), count: 0, plies: plies0, outcome: 0, nodes: 0 };
  search.tt.clear();
  search.clearHeuristics();
  let buf = new Uint8Array(rb * 128);
  let count = 0;
  let nodes = 0;
  let ply = 0;
  let resignRun = 0;
  let resignSign = 0;
  let drawRun = 0;
  // Outcome from the side to move's view at the end, then turned into the first player's.
  let outcomeStm = 0;
  const limits = { ...(settings.nodes !== undefined ? { nodes: settings.nodes } : {}), ...(settings.depth !== undefined ? { depth: settings.depth } : {}) };
  for (;;) {
    const rule = board.ruleState();
    if (rule === RULE_DRAW) break;
    if (rule === RULE_WIN || rule === RULE_LOSS) {
      outcomeStm = rule === RULE_WIN ? 1 : -1;
      break;
    }
    if (board.generate(list, false) === 0) {
      const inCheck = board.inCheck();
      outcomeStm = board.noMovesIsLoss(inCheck) ? -1 : 0;
      break;
    }
    if (ply >= settings.maxPlies) break;
    const r = search.search(board, limits);
    nodes += r.nodes;
    const score = r.score;
    // Adjudication, counted in the first player's view so both sides' plies agree.
    const white = board.sideToMove() === 0 ? score : -score;
    const big = isMateScore(score) || Math.abs(score) >= settings.resignCp;
    const sign = white > 0 ? 1 : -1;
    if (big && sign === resignSign) resignRun++;
    else if (big) {
      resignSign = sign;
      resignRun = 1;
    } else resignRun = 0;
    if (resignRun >= settings.resignPlies) {
      outcomeStm = Math.sign(score);
      break;
    }
    drawRun = Math.abs(score) <= settings.drawCp ? drawRun + 1 : 0;
    if (ply >= settings.drawAfter && drawRun >= settings.drawPlies) break;
    observe?.(board, r.bestMove, score);
    if (!isMateScore(score) && Math.abs(score) < settings.maxScoreCp && !board.inCheck() && board.tacticalOrder(r.bestMove) === 0) {
      if ((count + 1) * rb > buf.length) {
        const grown = new Uint8Array(buf.length * 2);
        grown.set(buf);
        buf = grown;
      }
      write(board, buf, count * rb, score);
      count++;
    }
    board.make(r.bestMove);
    ply++;
  }
  // Results: the final side to move's outcome seen from each record's side to move.
  const finalStm = board.sideToMove();
  const ro = RESULT_OFFSET[settings.game];
  const so = STM_OFFSET[settings.game];
  for (let i = 0; i < count; i++) {
    const o = buf[i * rb + so] === finalStm ? outcomeStm : -outcomeStm;
    buf[i * rb + ro] = o > 0 ? RESULT_WIN : o < 0 ? RESULT_LOSS : RESULT_DRAW;
  }
  const outcome = finalStm === 0 ? outcomeStm : -outcomeStm;
  return { records: buf.subarray(0, count * rb), count, plies: ply, outcome, nodes };
};
