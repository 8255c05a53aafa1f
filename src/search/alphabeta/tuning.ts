/**
 * The numeric margins of the tournament search (reductions, pruning, extensions, windows) in one
 * typed table per game, so that they can be tuned by matches without rebuilding: the engine
 * config's `searchTuning` (`name=value;name=value`; UCI/USI `SearchTuning`, and one spin option per
 * integer parameter; read by the player factory and passed to the search worker and its Lazy SMP
 * helpers) overrides single entries of the game's `DEFAULT_TUNING`.
 * The chess values are the hand-set ones the search was built with (neither the matches tried by
 * hand nor an SPSA run of `kishi tune` beat them); shogi's differ where a fixed-node match showed a
 * gain (docs/search-tuning.md lists the matches and the SPSA runs). Each entry says what it
 * scales. Centipawn margins mean the same in both games (the shogi evaluations are scaled to about
 * 100 per pawn).
 */
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';

/** Each parameter's chess default and allowed range; `integer` ones take whole numbers only. */
const SPEC = {
  /** Late-move reduction table: reduction = floor(lmrBase + ln(depth) ln(moveNumber) / lmrDivisor). */
  lmrBase: { value: 0.5, min: -2, max: 4, integer: false },
  lmrDivisor: { value: 2.25, min: 0.5, max: 10, integer: false },
  /** One ply less reduction per this much (history + continuation history) of a quiet move. */
  lmrHistoryDivisor: { value: 8000, min: 500, max: 1e6, integer: true },
  /** Move-count pruning: quiets after `lmpBase + depth^2` moves (half that when not improving), up to `lmpMaxDepth`. */
  lmpBase: { value: 3, min: 0, max: 64, integer: true },
  lmpMaxDepth: { value: 8, min: 0, max: 64, integer: true },
  /** Reverse futility: static eval - margin * depth >= beta, margins per ply when improving or not, up to `rfpMaxDepth`. */
  rfpMargin: { value: 110, min: 0, max: 2000, integer: true },
  rfpMarginImproving: { value: 80, min: 0, max: 2000, integer: true },
  rfpMaxDepth: { value: 7, min: 0, max: 64, integer: true },
  /** Razoring up to depth 3: static eval + razorBase + razorDepth2 * depth^2 < alpha drops into quiescence. */
  razorBase: { value: 200, min: 0, max: 5000, integer: true },
  razorDepth2: { value: 200, min: 0, max: 5000, integer: true },
  /** Futility pruning of quiet moves: static eval + futilityBase + futilityPerDepth * lmrDepth <= alpha, lmrDepth <= futilityMaxDepth. */
  futilityBase: { value: 120, min: 0, max: 5000, integer: true },
  futilityPerDepth: { value: 100, min: 0, max: 5000, integer: true },
  futilityMaxDepth: { value: 6, min: 0, max: 64, integer: true },
  /** History pruning of quiet moves at lmrDepth <= 3: history below -historyPruning * depth. */
  historyPruning: { value: 3000, min: 0, max: 1e6, integer: true },
  /** SEE pruning: quiet moves losing more than seeQuiet * lmrDepth^2, losing captures more than seeCapture * depth. */
  seeQuiet: { value: 30, min: 0, max: 5000, integer: true },
  seeCapture: { value: 120, min: 0, max: 5000, integer: true },
  /** Null move: R = nullBase + depth / nullDepthDivisor + min(3, (eval - beta) / nullEvalDivisor). */
  nullBase: { value: 3, min: 1, max: 10, integer: true },
  nullDepthDivisor: { value: 3, min: 1, max: 64, integer: true },
  nullEvalDivisor: { value: 200, min: 1, max: 5000, integer: true },
  /** Aspiration window half-width at the root (centipawns), doubled after each fail. */
  aspirationDelta: { value: 30, min: 1, max: 1000, integer: true },
  /** Singular extension (when switched on in options.ts): the table move's bound less singularMargin * depth. */
  singularMargin: { value: 2, min: 0, max: 200, integer: false },
  singularMinDepth: { value: 7, min: 2, max: 64, integer: true },
  /** Internal iterative reduction from this depth on. */
  iirMinDepth: { value: 4, min: 1, max: 64, integer: true },
  /**
   * Mate in one (options.mateIn1, shogi) tested at nodes of at least this depth; 128: never. At
   * depth 1 the search finds the mate itself (the check is never pruned, quiescence generates every
   * evasion), so there the test would only cost time.
   */
  mate1MinDepth: { value: 2, min: 1, max: 128, integer: true },
  /**
   * Shogi: 1 tests, before reverse futility pruning or a null move cuts a node, whether the
   * opponent would mate in one were we to pass, and cuts nothing then (YaneuraOu's and Apery's
   * mate-threat guard: a drop mate is invisible to the static evaluation); 0: no test. Boards
   * without the mate-in-one test (chess) ignore it.
   */
  mateThreat: { value: 0, min: 0, max: 1, integer: true },
  /**
   * Shogi, searches under a clock: the df-pn mate solver (mate-solver.ts) runs at the root for this
   * many nodes before the alpha-beta search, and a mate it proves is played at once; 0: never. Off:
   * 20000 against 0 at 5 s + 0.05 s scored 102-6-92 in 200 games (about +17 [-31, +66], seeds 8701
   * and 8711), no gain shown (a fixed-node match cannot charge its nodes).
   */
  rootMateNodes: { value: 0, min: 0, max: 10_000_000, integer: true },
  /**
   * Ordering: a quiet move (drops included) that gives check gets this added to its history key
   * (histories are about +-50000 together), as Stockfish's move picker favours quiet checks; 0: no
   * bonus. Boards without `givesCheck` ignore it.
   */
  checkBonus: { value: 0, min: 0, max: 1_000_000, integer: true },
  /**
   * Shogi: centipawns added per piece in either hand to the futility and reverse futility margins
   * (`SearchBoard.handCount`): every piece in hand is a drop that can threaten anywhere, so the static
   * evaluation is a looser bound the more pieces are in hand; 0: the margins ignore the hands.
   */
  handMargin: { value: 0, min: 0, max: 1000, integer: true },
  /** Quiescence delta pruning margin (centipawns above the victim's nominal value). */
  deltaMargin: { value: 200, min: 0, max: 5000, integer: true },
  /**
   * Time: no new iteration once the elapsed time passes timeSoftRatio x the planned soft time x
   * the stability factor (best-move changes, score drop, best move's node share); the hard limit
   * still aborts an iteration wherever it is. Chess 1.0 (0.55 before session 6 left half of a
   * 10 s + 0.1 s clock unused): +28 [-18, +75] and +67 [+20, +116] at 10 s + 0.1 s, 100 games each (seeds 120, 125).
   */
  timeSoftRatio: { value: 1.0, min: 0.1, max: 3, integer: false },
} as const;

export type TuningName = keyof typeof SPEC;

/** One value per parameter (see the table above for meaning and range). */
export type SearchTuning = { readonly [K in TuningName]: number };

/** The parameter names, in table order. */
export const TUNING_NAMES = Object.keys(SPEC) as TuningName[];

const CHESS_TUNING: SearchTuning = Object.freeze(Object.fromEntries(TUNING_NAMES.map((k) => [k, SPEC[k].value])) as SearchTuning);

/**
 * Where shogi's defaults differ from chess's. The evaluation swings more in shogi (a capture
 * moves the piece to the hand, and drops make threats everywhere), so the static evaluation is a
 * looser bound: the futility, reverse futility and razoring margins scaled by 1.8 won
 * +56 [+8, +106] Elo (200 games, 5000 nodes a move, seed 202; x1.4 had won +26 [-22, +75]).
 */
const SHOGI_CHANGES: Partial<SearchTuning> = {
  // 1.0 did not gain in shogi: -7 [-75, +60] at 5 s + 0.05 s (100 games, seed 121).
  timeSoftRatio: 0.55,
  rfpMargin: 200,
  rfpMarginImproving: 145,
  futilityBase: 215,
  futilityPerDepth: 180,
  razorBase: 360,
  razorDepth2: 360,
  // +15.6 [+7.5, +23.8] at 2000 nodes (1200 games, seeds 9001-9031); 2.5% more time to depth 10.
  mateThreat: 1,
};

/** The shipped values per game. */
export const DEFAULT_TUNING: Readonly<Record<GameKind, SearchTuning>> = Object.freeze({
  chess: CHESS_TUNING,
  shogi: Object.freeze({ ...CHESS_TUNING, ...SHOGI_CHANGES }),
});

/** A parameter's allowed range and whether it takes whole numbers only (for tuners: SPSA clamps and rounds by it). */
export const tuningRange = (name: TuningName): { readonly min: number; readonly max: number; readonly integer: boolean } => {
  const s = SPEC[name];
  return { min: s.min, max: s.max, integer: s.integer };
};

/** Whether `name` is a tuning parameter. */
export const isTuningName = (name: string): name is TuningName => Object.hasOwn(SPEC, name);

/**
 * `name=value;name=value` for `values`: the form {@link parseTuning} and the config's `searchTuning`
 * read, and the MCTS players' `mctsTuning` (src/player/mcts-cpu-tuning.ts) as well.
 */
export const formatTuning = (values: Readonly<Partial<Record<string, number>>>): string =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(';');

/** Checks one parameter value against its range; the error names the parameter and the range. */
export const checkTuningValue = (name: string, value: number): Result<number, KishiError> => {
  if (!Object.hasOwn(SPEC, name)) return Result.err(new KishiError('ERR_CONFIG', `unknown search tuning parameter '${name}' (known: ${TUNING_NAMES.join(', ')})`));
  const s = SPEC[name as TuningName];
  if (!Number.isFinite(value) || value < s.min || value > s.max || (s.integer && !Number.isInteger(value))) {
    return Result.err(new KishiError('ERR_CONFIG', `search tuning ${name}=${value}: expected ${s.integer ? 'an integer' : 'a number'} in [${s.min}, ${s.max}]`));
  }
  return Result.ok(value);
};

/**
 * The defaults with the overrides of `text` (`name=value` pairs separated by commas,
 * semicolons or whitespace; semicolons fit inside a `kishi match -e` spec, whose fields are
 * separated by commas; empty text: the defaults). Unknown names, malformed pairs, repeated names and
 * values outside a parameter's range are errors (`ERR_CONFIG`) that quote the bad part.
 */
export const parseTuning = (text: string, base: SearchTuning): Result<SearchTuning, KishiError> =>
  parseTuningPairs(text).map((pairs) => Object.freeze({ ...base, ...pairs }) as SearchTuning);

/** The overrides `text` names, checked as {@link parseTuning} checks them, without the defaults. */
export const parseTuningPairs = (text: string): Result<Partial<Record<TuningName, number>>, KishiError> => {
  const out: Partial<Record<TuningName, number>> = {};
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1) return Result.err(new KishiError('ERR_CONFIG', `search tuning: '${part}' is not name=value`));
    const name = part.slice(0, eq);
    const raw = part.slice(eq + 1);
    if (seen.has(name)) return Result.err(new KishiError('ERR_CONFIG', `search tuning: '${name}' is given twice`));
    seen.add(name);
    const value = Number(raw);
    if (raw.trim() === '' || Number.isNaN(value)) return Result.err(new KishiError('ERR_CONFIG', `search tuning ${name}=${raw}: not a number`));
    const checked = checkTuningValue(name, value);
    if (checked.isErr) return Result.err(checked.error);
    out[name as TuningName] = value;
  }
  return Result.ok(out);
};

/**
 * The tuning for `game` from the config's `searchTuning` text (the game's defaults with the
 * overrides): undefined when the text is absent or empty (the search then uses the defaults), an
 * `ERR_CONFIG` naming the key when invalid.
 */
export const tuningFromText = (raw: string | undefined, game: GameKind): Result<SearchTuning | undefined, KishiError> => {
  if (raw === undefined || raw.trim() === '') return Result.ok(undefined);
  const parsed = parseTuning(raw, DEFAULT_TUNING[game]);
  return parsed.isErr ? Result.err(new KishiError('ERR_CONFIG', `searchTuning: ${parsed.error.message}`)) : parsed;
};

/**
 * The late-move reduction table for `t`: entry [min(depth,63) * 64 + min(moveNumber,63)], in plies
 * (the usual log-log formula of Stockfish and most engines since).
 */
export const lmrTable = (t: SearchTuning): Int8Array => {
  const table = new Int8Array(64 * 64);
  for (let d = 1; d < 64; d++) {
    for (let m = 1; m < 64; m++) table[d * 64 + m] = Math.max(0, Math.floor(t.lmrBase + (Math.log(d) * Math.log(m)) / t.lmrDivisor));
  }
  return table;
};
