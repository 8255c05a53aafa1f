/**
 * The messages between the page and the server (JSON over one WebSocket per tab), and the check of
 * every message the page sends: anything malformed or forged is refused with a clear error and
 * changes nothing.
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { SearchLimits } from '../player/player.js';
import type { TimeControl } from './game-clock.js';

/** The engines the page offers (`engine.search` kinds of src/config/sections/engine.ts). */
export const WEB_ENGINES = ['alphabeta', 'mcts'] as const;
export type WebEngine = (typeof WEB_ENGINES)[number];

/**
 * Strength levels: a node budget per move (alpha-beta nodes, MCTS playouts), weakest first; the last
 * level has no budget and plays on the clock alone. Node counts keep the strength the same on any
 * machine (time would not).
 */
export const LEVEL_NODES: readonly (number | undefined)[] = [100, 400, 1500, 6000, 25_000, 100_000, 400_000, undefined];

/** A new game as the page asks for it. */
export interface NewGameRequest {
  readonly t: 'new';
  readonly game: GameKind;
  readonly side: 'first' | 'second' | 'random';
  readonly control: TimeControl;
  readonly engine: WebEngine;
  /** 1 .. LEVEL_NODES.length */
  readonly level: number;
  readonly name?: string;
}

export type ClientMessage =
  | NewGameRequest
  | { readonly t: 'join'; readonly id: string }
  | { readonly t: 'move'; readonly ply: number; readonly move: string }
  | { readonly t: 'resign' }
  | { readonly t: 'draw' }
  | { readonly t: 'takeback' }
  /**
   * Kishi's review (src/web/game-analysis.ts): of the tab's finished game, or of a pasted one (`game`,
   * its `start` FEN/SFEN and its UCI/USI `moves`); the graph, then lines on request.
   */
  | { readonly t: 'analyse'; readonly game?: GameKind; readonly start?: string; readonly moves?: readonly string[] }
  | { readonly t: 'lines'; readonly ply: number };

/** Longest accepted message, bytes: a page sends a few hundred, a pasted game for analysis a few thousand. */
export const MAX_MESSAGE_BYTES = 8192;

/** Most moves of a pasted game Kishi analyses. */
export const MAX_ANALYSIS_MOVES = 600;

const MOVE_TEXT = /^[a-zA-Z0-9*+]{4,6}$/;

const bad = (message: string): Result<never, KishiError> => Result.err(new KishiError('ERR_BAD_MESSAGE', message));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const intIn = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

const HOUR_MS = 3_600_000;

/** Parses and checks one message from the page. */
export function parseClientMessage(raw: string): Result<ClientMessage, KishiError> {
  if (raw.length > MAX_MESSAGE_BYTES) return bad(`message too long (${raw.length} bytes)`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return bad('message is not JSON');
  }
  if (!isObject(v)) return bad('message is not an object');
  switch (v.t) {
    case 'new': {
      if (v.game !== 'chess' && v.game !== 'shogi') return bad('game must be chess or shogi');
      if (v.side !== 'first' && v.side !== 'second' && v.side !== 'random') return bad('side must be first, second or random');
      if (!WEB_ENGINES.includes(v.engine as WebEngine)) return bad(`engine must be one of ${WEB_ENGINES.join(', ')}`);
      if (!intIn(v.level, 1, LEVEL_NODES.length)) return bad(`level must be an integer from 1 to ${LEVEL_NODES.length}`);
      const c = v.control;
      if (!isObject(c)) return bad('control must be an object');
      if (!intIn(c.initialMs, 0, 3 * HOUR_MS) || !intIn(c.incrementMs, 0, 180_000) || !intIn(c.byoyomiMs, 0, 180_000)) {
        return bad('control needs initialMs (0..3 h), incrementMs and byoyomiMs (0..180 s), integers in milliseconds');
      }
      if (c.initialMs + c.incrementMs + c.byoyomiMs < 1000) return bad('the time control must give at least one second');
      if (v.game === 'chess' && c.byoyomiMs !== 0) return bad('byoyomi is for shogi only');
      if (v.name !== undefined && (typeof v.name !== 'string' || v.name.length > 40 || !/^[\p{L}\p{N} _.-]*$/u.test(v.name))) {
        return bad('name: up to 40 letters, digits, spaces, _ . -');
      }
      return Result.ok({
        t: 'new',
        game: v.game,
        side: v.side,
        control: { initialMs: c.initialMs, incrementMs: c.incrementMs, byoyomiMs: c.byoyomiMs },
        engine: v.engine as WebEngine,
        level: v.level,
        ...(typeof v.name === 'string' && v.name.trim() !== '' ? { name: v.name.trim() } : {}),
      });
    }
    case 'join':
      if (typeof v.id !== 'string' || !/^[a-z0-9]{1,32}$/.test(v.id)) return bad('join needs a game id');
      return Result.ok({ t: 'join', id: v.id });
    case 'move':
      if (!intIn(v.ply, 0, 100_000)) return bad('move needs the ply it was made on');
      if (typeof v.move !== 'string' || !MOVE_TEXT.test(v.move)) return bad('move must be in UCI (chess) or USI (shogi)');
      return Result.ok({ t: 'move', ply: v.ply, move: v.move });
    case 'resign':
    case 'draw':
    case 'takeback':
      return Result.ok({ t: v.t });
    case 'analyse': {
      if (v.game === undefined && v.start === undefined && v.moves === undefined) return Result.ok({ t: 'analyse' });
      if (v.game !== 'chess' && v.game !== 'shogi') return bad('analyse: game must be chess or shogi');
      if (typeof v.start !== 'string' || v.start.length > 120 || !/^[A-Za-z0-9/+ -]+$/.test(v.start)) return bad('analyse: start must be a FEN or SFEN');
      const moves = v.moves;
      if (!Array.isArray(moves) || moves.length > MAX_ANALYSIS_MOVES || !moves.every((m) => typeof m === 'string' && MOVE_TEXT.test(m))) {
        return bad(`analyse: moves must be up to ${MAX_ANALYSIS_MOVES} moves in UCI (chess) or USI (shogi)`);
      }
      return Result.ok({ t: 'analyse', game: v.game, start: v.start, moves: moves as string[] });
    }
    case 'lines':
      if (!intIn(v.ply, 0, 100_000)) return bad('lines needs the ply of the position');
      return Result.ok({ t: 'lines', ply: v.ply });
    default:
      return bad(`unknown message type ${JSON.stringify(v.t)}`);
  }
}

/**
 * The limits of one search at a level: the level's node budget, and a time cap so that a budget
 * larger than the clock allows never spends the whole clock on one move (a thirtieth of the time
 * left plus most of the increment or byoyomi). The top level leaves time planning to the Player.
 */
export function limitsFor(level: number): SearchLimits {
  const nodes = LEVEL_NODES[level - 1];
  return nodes === undefined ? {} : { nodes };
}

/** The time cap of one search at a level with a node budget (see `limitsFor`), milliseconds. */
export function moveTimeCap(timeLeftMs: number, control: TimeControl): number {
  return Math.max(50, Math.floor(timeLeftMs / 30 + 0.8 * control.incrementMs + 0.8 * control.byoyomiMs));
}
