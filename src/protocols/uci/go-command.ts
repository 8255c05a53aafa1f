/**
 * The `go` command of UCI and USI: parsing its arguments (one lenient parser for both protocols)
 * and turning them into a Player `GoRequest`.
 *
 * UCI: `go [searchmoves m..] [ponder] [wtime x] [btime x] [winc x] [binc x] [movestogo x] [depth x]
 * [nodes x] [mate x] [movetime x] [infinite]`, plus Stockfish's debugging `go perft N`.
 * USI: the same words with `btime`/`wtime` for sente/gote (sente is "black", so `btime` is the first
 * player's clock), `byoyomi x`, `binc`/`winc`, and `go mate <ms>|infinite` (a mate search answered
 * with `checkmate ...`). Times are milliseconds. A plain `go` searches until `stop`, as in Stockfish.
 *
 * Bad values never drop the command (the GUI waits for a `bestmove`): the word is skipped and a
 * warning returned, which the session reports as `info string`.
 */
import type { GameKind } from '../../core/game.js';
import type { ClockState, GoRequest, SearchLimits } from '../../player/player.js';

/** The arguments of one `go`, as sent. */
export interface GoCommand {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  /** USI byoyomi, ms. */
  byoyomi?: number;
  depth?: number;
  nodes?: number;
  movetime?: number;
  infinite: boolean;
  ponder: boolean;
  /** UCI: mate in N moves; USI: a mate search with a time limit in ms, or `infinite`. */
  mate?: number | 'infinite';
  /** `go perft N`: count leaf nodes instead of searching. */
  perft?: number;
  /** UCI `searchmoves`: read but not supported by the engine (reported as a warning). */
  searchmoves?: string[];
}

export interface ParsedGo {
  readonly command: GoCommand;
  /** Words that were skipped, for `info string`. */
  readonly warnings: string[];
}

const NUMERIC = ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'byoyomi', 'depth', 'nodes', 'movetime', 'perft'] as const;
type NumericKey = (typeof NUMERIC)[number];
const KEYWORDS = new Set<string>([...NUMERIC, 'searchmoves', 'ponder', 'infinite', 'mate']);

/** Parses the tokens after `go`. */
export function parseGoCommand(tokens: readonly string[]): ParsedGo {
  const command: GoCommand = { infinite: false, ponder: false };
  const warnings: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    if (word === 'infinite') command.infinite = true;
    else if (word === 'ponder') command.ponder = true;
    else if (word === 'searchmoves') {
      const moves: string[] = [];
      while (i + 1 < tokens.length && !KEYWORDS.has(tokens[i + 1]!)) moves.push(tokens[++i]!);
      command.searchmoves = moves;
    } else if (word === 'mate') {
      const v = tokens[i + 1];
      if (v === 'infinite') {
        command.mate = 'infinite';
        i++;
      } else if (v !== undefined && /^\d+$/.test(v)) {
        command.mate = Number(v);
        i++;
      } else {
        // USI allows a bare `go mate` in some GUIs: search without a limit.
        command.mate = 'infinite';
      }
    } else if ((NUMERIC as readonly string[]).includes(word)) {
      const v = tokens[i + 1];
      if (v === undefined || !/^[+-]?\d+(\.\d+)?$/.test(v)) {
        warnings.push(`go: ${word} needs a number${v === undefined ? '' : `, got ${JSON.stringify(v)}`}; ignored`);
        if (v !== undefined && !KEYWORDS.has(v)) i++;
        continue;
      }
      i++;
      // Negative clocks happen (a GUI's own lag): they mean no time left.
      command[word as NumericKey] = Math.max(0, Math.floor(Number(v)));
    } else {
      warnings.push(`go: unknown word ${JSON.stringify(word)}; ignored`);
    }
  }
  return { command, warnings };
}

/** Which protocol's clock words: UCI `wtime` is the first player's, USI `btime` is. */
export type ClockWords = 'uci' | 'usi';

/** The clock of a `go`, when it has any time words. */
export function clockOf(cmd: GoCommand, words: ClockWords): ClockState | undefined {
  const hasClock = [cmd.wtime, cmd.btime, cmd.winc, cmd.binc, cmd.byoyomi].some((x) => x !== undefined);
  if (!hasClock) return undefined;
  const firstMs = words === 'uci' ? cmd.wtime : cmd.btime;
  const secondMs = words === 'uci' ? cmd.btime : cmd.wtime;
  const firstInc = words === 'uci' ? cmd.winc : cmd.binc;
  const secondInc = words === 'uci' ? cmd.binc : cmd.winc;
  // A side whose time is missing gets the other's (a GUI that only sends ours).
  return {
    firstMs: firstMs ?? secondMs ?? 0,
    secondMs: secondMs ?? firstMs ?? 0,
    firstIncMs: firstInc ?? 0,
    secondIncMs: secondInc ?? 0,
    byoyomiMs: words === 'usi' ? (cmd.byoyomi ?? 0) : 0,
    ...(cmd.movestogo !== undefined && cmd.movestogo > 0 ? { movesToGo: cmd.movestogo } : {}),
  };
}

/** The position part of a request. */
export interface RequestPosition {
  readonly game: GameKind;
  readonly variant: string;
  readonly start: string;
  readonly moves: readonly string[];
}

/**
 * The Player request for a `go` (not for `go perft`). UCI `go mate N` becomes a normal search to
 * depth 2N-1 (it finds a mate in N if one exists); USI `go mate` is a mate search.
 */
export function goRequestOf(cmd: GoCommand, position: RequestPosition, words: ClockWords): GoRequest {
  const limits: { -readonly [K in keyof SearchLimits]: SearchLimits[K] } = {};
  if (cmd.depth !== undefined) limits.depth = Math.max(1, cmd.depth);
  if (cmd.nodes !== undefined) limits.nodes = Math.max(1, cmd.nodes);
  if (cmd.movetime !== undefined) limits.movetimeMs = Math.max(1, cmd.movetime);
  const clock = clockOf(cmd, words);
  if (cmd.mate !== undefined) {
    if (words === 'usi') {
      limits.mate = true;
      if (cmd.mate !== 'infinite') limits.movetimeMs = Math.max(1, cmd.mate);
    } else if (cmd.mate !== 'infinite') {
      limits.depth = Math.min(limits.depth ?? Infinity, Math.max(1, 2 * cmd.mate - 1));
    }
  }
  const bounded = clock !== undefined || Object.keys(limits).length > 0;
  if (cmd.infinite || (!bounded && !cmd.ponder)) limits.infinite = true;
  return {
    game: position.game,
    variant: position.variant,
    start: position.start,
    moves: [...position.moves],
    ...(clock !== undefined ? { clock } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    ...(cmd.ponder ? { ponder: true } : {}),
  };
}
