/**
 * One self-play game (AlphaZero: Silver et al., Science 2018): MCTS from both sides with one net, root
 * Dirichlet noise, moves drawn by visit count for the opening plies, resignation with
 * false-positive checks, and the training records of the game.
 *
 * Per ply:
 *   Step 1. The rules: a position the rules end (mate, stalemate, repetition, fifty moves,
 *           material, sennichite) ends the game; so does the ply limit (a draw).
 *   Step 2. Playout-cap randomisation (KataGo, Wu 2019): with `fastPlayouts` set, a move is searched
 *           fully (`playouts`, with root noise) with probability `fullSearchShare`, otherwise fast
 *           (`fastPlayouts`, no noise). Only fully searched positions become records: the policy
 *           target is the root visit distribution over the legal moves (with `gumbelActions`, Gumbel
 *           AlphaZero's improved policy), the value target the root Q (side to move's view). A
 *           position with one legal move is played at once, unrecorded.
 *   Step 3. Resignation: when the side to move's root Q is below `-resignValue` and the opponent's
 *           root Q one ply earlier was above `resignValue` (both sides agree), the side to move
 *           resigns. In a game drawn for a false-positive check (probability `resignPlayoutShare`,
 *           decided at the start) the game goes on instead; if the side that would have resigned
 *           then does not lose, the resignation would have been a false positive.
 *   Step 4. The move: drawn with probability proportional to visits for the first
 *           `temperatureMoves` plies, else the most visited (a proven win first); with
 *           `gumbelActions`, Sequential Halving's choice after a full search (its Gumbel noise is the
 *           sampling) and after a fast one past the opening plies. The tree is kept for the next ply
 *           (re-rooted at the new position, tree-reuse.ts).
 *
 * Every random choice comes from seeds derived from (`seed`, game index), so a game is
 * reproducible given the net's outputs.
 */
import type { GameKind } from '../../core/game.js';
import type { Evaluator } from '../../nn/evaluator.js';
import type { LeafEvaluator } from '../../search/mcts/leaf-evaluator.js';
import { ChessMctsBoard } from '../../search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../search/mcts/mcts-board.js';
import { selfPlayMctsOptions, type MctsOptions } from '../../search/mcts/options.js';
import { Rng } from '../../search/mcts/rng.js';
import { bestChild, MctsSearch, type RootChild } from '../../search/mcts/search.js';
import { ShogiMctsBoard } from '../../search/mcts/shogi-mcts-board.js';
import { TreeRecycler } from './tree-reuse.js';

/** The settings of self-play games (the per-game part of `SelfplayOptions`, resolved). */
export interface SelfplayGameSettings {
  readonly game: GameKind;
  readonly playouts: number;
  /** Playouts of a fast search; undefined: every move is a full search. */
  readonly fastPlayouts: number | undefined;
  readonly fullSearchShare: number;
  readonly temperatureMoves: number;
  readonly dirichletAlpha: number;
  readonly dirichletFrac: number;
  /** Undefined: never resign. */
  readonly resignValue: number | undefined;
  readonly resignPlayoutShare: number;
  readonly maxPlies: number;
  /** Leaves one search collects per net call. */
  readonly searchBatch: number;
  readonly seed: number;
  /** MCTS draw score (`MctsOptions.drawScore`; undefined: 0). The records' root values stay raw W/N. */
  readonly drawScore?: number;
  /**
   * Gumbel AlphaZero (`MctsOptions.gumbelActions`, src/search/mcts/gumbel.ts): the root samples this
   * many moves and shares the playouts by Sequential Halving; the policy target is the improved
   * policy, and a fully searched move is Sequential Halving's choice. Undefined or 0: PUCT with
   * Dirichlet noise.
   */
  readonly gumbelActions?: number;
}

/** What happened in one game (`result` from the first player's view). */
export interface SelfplayGameSummary {
  readonly index: number;
  readonly plies: number;
  readonly result: 1 | 0 | -1;
  /** `mate`, `stalemate`, `draw-rule` (chess repetition, fifty moves, material), `sennichite`, `perpetual-check`, `max-plies`, `resign`. */
  readonly reason: string;
  /** Records written (fully searched positions). */
  readonly positions: number;
  readonly resigned: boolean;
  /** The game would have been resigned but was played out as a check. */
  readonly falsePositiveCheck?: boolean;
  /** With `falsePositiveCheck`: the side that would have resigned did not lose. */
  readonly falsePositive?: boolean;
}

/**
 * A finished game's records, column by column (transferable between threads). Position `i` has
 * planes `planes[i*inputSize ..]`, legal moves `polStart[i] .. polStart[i+1]` of `polIndex` /
 * `polProb`, root Q `value[i]` and side to move `side[i]` (0 first player).
 */
export interface SelfplayGameRecord {
  readonly summary: SelfplayGameSummary;
  readonly planes: Float32Array;
  readonly polStart: Uint32Array;
  readonly polIndex: Uint16Array;
  readonly polProb: Float32Array;
  readonly value: Float32Array;
  readonly side: Uint8Array;
  readonly texts: string[];
}

/** The seed of game `index` (a 32-bit mix of both). */
export const gameSeed = (seed: number, index: number): number => {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 0x632be5ab, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
};

/** MCTS options of the full (root noise) or fast (no noise) searches of the game with seed `seed` (`gameSeed`). */
export const selfplaySearchOptions = (s: SelfplayGameSettings, seed: number, full: boolean): MctsOptions => ({
  ...selfPlayMctsOptions(s.game),
  batchSize: s.searchBatch,
  temperature: 0,
  temperaturePlies: 0,
  maxEdges: 4_000_000,
  noiseEpsilon: full ? s.dirichletFrac : 0,
  noiseAlpha: s.dirichletAlpha,
  drawScore: s.drawScore ?? 0,
  gumbelActions: s.gumbelActions ?? 0,
  seed: (seed ^ (full ? 0x5bd1e995 : 0x1b873593)) >>> 0,
});

/** The start position of a self-play game. */
export const startBoard = (game: GameKind): MctsBoard =>
  game === 'chess' ? ChessMctsBoard.fromText('startpos', []).unwrap() : ShogiMctsBoard.fromText('startpos', []).unwrap();

/** Growable column buffers of a game's records. */
class RecordBuffer {
  count = 0;
  planes: Float32Array;
  polStart: number[] = [0];
  polIndex: number[] = [];
  polProb: number[] = [];
  value: number[] = [];
  side: number[] = [];
  texts: string[] = [];

  constructor(private readonly inputSize: number) {
    this.planes = new Float32Array(inputSize * 64);
  }

  /** Room for one more position; returns its planes offset. */
  next(): number {
    if ((this.count + 1) * this.inputSize > this.planes.length) {
      const p = new Float32Array(this.planes.length * 2);
      p.set(this.planes);
      this.planes = p;
    }
    return this.count * this.inputSize;
  }
}

/**
 * Plays game `index`; undefined when `signal` aborted it. `evaluator` may be shared with other
 * games running concurrently (a batching evaluator turns their leaves into one net call; a leaf
 * evaluator, the CPU networks, is attached to the board at the start of each search, and a search
 * on it runs without pausing, so the games take turns search by search).
 */
export async function playSelfplayGame(index: number, s: SelfplayGameSettings, evaluator: Evaluator | LeafEvaluator, signal?: AbortSignal): Promise<SelfplayGameRecord | undefined> {
  const seed = gameSeed(s.seed, index);
  const aborted = (): boolean => signal?.aborted === true;
  const rng = new Rng(seed);
  const board = startBoard(s.game);
  // Two searches over one tree: full searches with root noise, fast ones without.
  const full = new MctsSearch(evaluator, selfplaySearchOptions(s, seed, true));
  const fast = new MctsSearch(evaluator, selfplaySearchOptions(s, seed, false));
  fast.tree = full.tree;
  const trees = new TreeRecycler(full.options.maxEdges);
  const checkGame = s.resignValue !== undefined && rng.next() < s.resignPlayoutShare;
  const records = new RecordBuffer(board.spec.inputSize);
  const list = new Int32Array(board.maxMoves);
  const moves = new Int32Array(board.maxMoves);
  const indices = new Int32Array(board.maxMoves);

  let resultFirst = 0;
  let reason = '';
  let resigned = false;
  /** Side (0/1) that would have resigned in a check game. */
  let wouldResign = -1;
  /** The previous mover's root Q from its own view (NaN: no search). */
  let prevQ = NaN;
  let ply = 0;
  for (; ; ply++) {
    if (aborted()) return undefined;
    // Step 1.
    const n = board.generate(list);
    const tv = board.gameResult(n);
    const stm = board.sideToMove();
    if (!Number.isNaN(tv)) {
      resultFirst = stm === 0 ? tv : -tv;
      if (n === 0) reason = s.game === 'chess' && !board.inCheck() ? 'stalemate' : 'mate';
      else if (s.game === 'shogi') reason = tv === 0 ? 'sennichite' : 'perpetual-check';
      else reason = 'draw-rule'; // repetition, fifty moves or material
      break;
    }
    if (ply >= s.maxPlies) {
      resultFirst = 0;
      reason = 'max-plies';
      break;
    }
    if (n === 1) {
      // Nothing to search or learn: play the only move.
      const only = list[0]!;
      full.tree = fast.tree = trees.reroot(full.tree, only);
      board.make(only);
      prevQ = NaN;
      continue;
    }
    // Step 2.
    const isFull = s.fastPlayouts === undefined || rng.next() < s.fullSearchShare;
    const search = isFull ? full : fast;
    await search.run(board, { playouts: isFull ? s.playouts : s.fastPlayouts! });
    if (aborted()) return undefined;
    let children = search.rootChildren();
    if (children.length === 0) {
      // A reused root the tree had scored as terminal (a first repetition) found no move: search afresh.
      search.reset();
      await search.run(board, { playouts: isFull ? s.playouts : s.fastPlayouts! });
      children = search.rootChildren();
      if (children.length === 0) throw new Error(`self-play game ${index}: the search found no move in ${board.toText()}`);
    }
    const q = search.tree.visits[0]! > 0 ? -search.tree.q(0) : 0;
    // Gumbel: the improved policy is the target, and Sequential Halving (with its noise in a full
    // search) picks the move.
    const improved = search.improvedPolicy();
    if (isFull) recordPosition(board, children, q, ply, records, moves, indices, improved);
    // Step 3.
    if (s.resignValue !== undefined && q < -s.resignValue && prevQ > s.resignValue) {
      if (!checkGame) {
        resultFirst = stm === 0 ? -1 : 1;
        reason = 'resign';
        resigned = true;
        break;
      }
      if (wouldResign < 0) wouldResign = stm;
    }
    prevQ = q;
    // Step 4.
    const move =
      improved !== undefined && (isFull || ply >= s.temperatureMoves)
        ? search.chooseMove()
        : ply < s.temperatureMoves
          ? sampleByVisits(children, rng)
          : bestChild(children).move;
    full.tree = fast.tree = trees.reroot(search.tree, move);
    board.make(move);
  }
  const summary: SelfplayGameSummary = {
    index,
    plies: ply,
    result: (resultFirst > 0 ? 1 : resultFirst < 0 ? -1 : 0) as 1 | 0 | -1,
    reason,
    positions: records.count,
    resigned,
    ...(wouldResign >= 0 ? { falsePositiveCheck: true, falsePositive: (wouldResign === 0 ? resultFirst : -resultFirst) > -1 } : {}),
  };
  return {
    summary,
    planes: records.planes.slice(0, records.count * board.spec.inputSize),
    polStart: Uint32Array.from(records.polStart),
    polIndex: Uint16Array.from(records.polIndex),
    polProb: Float32Array.from(records.polProb),
    value: Float32Array.from(records.value),
    side: Uint8Array.from(records.side),
    texts: records.texts,
  };
}

/** A move drawn with probability proportional to its visits (the most visited if none has any). */
const sampleByVisits = (children: readonly RootChild[], rng: Rng): number => {
  const win = children.find((c) => c.proven === 1);
  if (win !== undefined) return win.move;
  let sum = 0;
  for (const c of children) sum += c.visits;
  if (sum <= 0) return bestChild(children).move;
  let r = rng.next() * sum;
  for (const c of children) {
    r -= c.visits;
    if (r < 0) return c.move;
  }
  return bestChild(children).move;
};

/** Adds the root position with its visit distribution and root Q to `out`. */
const recordPosition = (
  board: MctsBoard,
  children: readonly RootChild[],
  q: number,
  ply: number,
  out: RecordBuffer,
  moves: Int32Array,
  indices: Int32Array,
  policy?: Float32Array,
): void => {
  const n = children.length;
  let total = 0;
  for (let i = 0; i < n; i++) {
    moves[i] = children[i]!.move;
    total += children[i]!.visits;
  }
  board.moveIndices(moves, n, indices);
  const at = out.next();
  board.encode(out.planes, at);
  for (let i = 0; i < n; i++) {
    out.polIndex.push(indices[i]!);
    out.polProb.push(policy !== undefined ? policy[i]! : total > 0 ? children[i]!.visits / total : 1 / n);
  }
  out.polStart.push(out.polIndex.length);
  out.value.push(q);
  out.side.push(board.sideToMove());
  out.texts.push(`${board.toText()}|ply=${ply}|visits=${total}`);
  out.count++;
};
