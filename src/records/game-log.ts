/**
 * The JSON-lines game log: one file per game, written while the game is played and read by the learners
 * (TD-Leaf, training) and the floodgate client. Format, version 1 (one JSON object per line):
 *
 *   {"type":"header","version":1,"game":"chess","variant":"standard","server":"lichess","gameId":"abcd1234",
 *    "start":"startpos","ourSide":"first","players":{"first":{"name":"kishi","rating":1500},"second":{...}},
 *    "clock":{"initialMs":60000,"incrementMs":1000},"rated":false,"speed":"bullet","engine":"kishi-ab 0.1",
 *    "startedAt":"2026-01-01T00:00:00.000Z"}
 *   {"type":"move","ply":0,"side":"first","move":"e2e4","ours":true,"position":"<FEN/SFEN before the move>",
 *    "clockMs":{"first":59000,"second":60000},
 *    "search":{"score":{"cp":31},"depth":12,"nodes":123456,"nps":800000,"timeMs":150,
 *              "pv":["e2e4","e7e5"],"pvLeaf":"<FEN/SFEN at the end of the PV>"}}
 *   {"type":"move","ply":1,"side":"second","move":"e7e5","ours":false,"position":"..."}
 *   {"type":"takeback","plies":1}          (the game went back to 1 ply: later move lines are void)
 *   {"type":"result","winner":"first","status":"mate","plies":37,"endedAt":"..."}   (winner null: draw/none)
 *
 * - Sides are `first`/`second` (chess white/black, shogi sente/gote) as in src/core/game.ts.
 * - `search` appears on our moves only; `score` is from the mover's view (centipawns or mate in plies).
 * - The file is `<name>.jsonl.part` while the game runs and is renamed to `<name>.jsonl` once the result
 *   line is written, so readers take only `.jsonl` files as finished games. A process restarted mid-game
 *   reopens the `.part` file and goes on appending (moves already logged are not written twice).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { GameKind, Side } from '../core/game.js';
import { Result } from '../core/result.js';
import { KishiError } from '../core/result.js';

export const GAME_LOG_VERSION = 1;

export interface GameLogPlayer {
  readonly name: string;
  readonly rating?: number;
  readonly title?: string | null;
}

export interface GameLogHeader {
  readonly type: 'header';
  readonly version: typeof GAME_LOG_VERSION;
  readonly game: GameKind;
  /** lichess variant key for chess; `standard` for shogi. */
  readonly variant: string;
  /** `lichess`, `floodgate`, `selfplay`... */
  readonly server: string;
  readonly gameId: string;
  readonly url?: string;
  /** `startpos` or the FEN/SFEN of the initial position. */
  readonly start: string;
  readonly ourSide: Side;
  readonly players: { readonly first: GameLogPlayer; readonly second: GameLogPlayer };
  readonly clock?: { readonly initialMs: number; readonly incrementMs: number; readonly byoyomiMs?: number };
  readonly daysPerTurn?: number;
  readonly rated?: boolean;
  readonly speed?: string;
  /** The Player's name. */
  readonly engine?: string;
  readonly startedAt: string;
}

export interface GameLogSearch {
  readonly score: { readonly cp: number } | { readonly mate: number };
  readonly depth: number;
  readonly seldepth?: number;
  readonly nodes: number;
  readonly nps?: number;
  readonly timeMs: number;
  readonly pv: readonly string[];
  /** FEN/SFEN at the end of the principal variation (TD-Leaf's leaf). */
  readonly pvLeaf?: string;
}

export interface GameLogMove {
  readonly type: 'move';
  /** 0-based ply since `start`. */
  readonly ply: number;
  readonly side: Side;
  /** UCI (chess) or USI (shogi). */
  readonly move: string;
  readonly ours: boolean;
  /** FEN/SFEN before the move. */
  readonly position: string;
  /** Both clocks after the move as the server reported them, milliseconds. */
  readonly clockMs?: { readonly first: number; readonly second: number };
  readonly search?: GameLogSearch;
  readonly offeredDraw?: boolean;
}

export interface GameLogTakeback {
  readonly type: 'takeback';
  /** Plies left after the takeback. */
  readonly plies: number;
}

export interface GameLogResult {
  readonly type: 'result';
  readonly winner: Side | null;
  /** The server's status (`mate`, `resign`, `outoftime`, `draw`, `aborted`...). */
  readonly status: string;
  readonly plies: number;
  readonly endedAt: string;
}

export type GameLogLine = GameLogHeader | GameLogMove | GameLogTakeback | GameLogResult;

/** A parsed log: the header, the moves in force (takebacks applied), the result when finished. */
export interface GameLog {
  readonly header: GameLogHeader;
  readonly moves: readonly GameLogMove[];
  readonly result?: GameLogResult;
}

/** Parses a game log; a bad line is an error naming its line number. */
export function parseGameLog(text: string): Result<GameLog, KishiError> {
  let header: GameLogHeader | undefined;
  let moves: GameLogMove[] = [];
  let result: GameLogResult | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]?.trim() ?? '';
    if (raw === '') continue;
    let line: GameLogLine;
    try {
      line = JSON.parse(raw) as GameLogLine;
    } catch {
      // A process killed mid-write leaves a truncated last line: ignore it, refuse anything else.
      if (i >= lines.length - 2) continue;
      return Result.err(new KishiError('ERR_GAME_LOG', `line ${i + 1}: not JSON`));
    }
    if (line.type === 'header') {
      if (line.version !== GAME_LOG_VERSION) return Result.err(new KishiError('ERR_GAME_LOG', `line ${i + 1}: unsupported version ${String(line.version)}`));
      header = line;
    } else if (line.type === 'move') {
      moves = moves.filter((m) => m.ply < line.ply);
      moves.push(line);
    } else if (line.type === 'takeback') {
      moves = moves.filter((m) => m.ply < line.plies);
    } else if (line.type === 'result') {
      result = line;
    } else {
      return Result.err(new KishiError('ERR_GAME_LOG', `line ${i + 1}: unknown type ${JSON.stringify((line as { type?: unknown }).type)}`));
    }
  }
  if (header === undefined) return Result.err(new KishiError('ERR_GAME_LOG', 'no header line'));
  return Result.ok({ header, moves, ...(result ? { result } : {}) });
}

/** Reads a game log file. */
export function readGameLog(file: string): Result<GameLog, KishiError> {
  try {
    return parseGameLog(readFileSync(file, 'utf8'));
  } catch (e) {
    return Result.err(new KishiError('ERR_GAME_LOG', `${file}: ${(e as Error).message}`));
  }
}

/** Appends one game's log; see the module comment for the format and the `.part` convention. */
export class GameLogWriter {
  private readonly logged = new Map<number, string>();
  private finished = false;

  private constructor(
    /** The final file name (`….jsonl`). */
    readonly file: string,
    private readonly recovered: readonly GameLogMove[],
  ) {
    for (const m of recovered) this.logged.set(m.ply, m.move);
  }

  /** Opens (or, after a restart, reopens) the log of a game. */
  static open(file: string, header: GameLogHeader): GameLogWriter {
    const part = `${file}.part`;
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(part)) {
      const old = readGameLog(part);
      if (old.isOk && old.value.header.gameId === header.gameId && old.value.result === undefined) {
        return new GameLogWriter(file, old.value.moves);
      }
    }
    appendFileSync(part, JSON.stringify(header) + '\n');
    return new GameLogWriter(file, []);
  }

  /** Moves read back from an earlier run of this game (empty for a new game). */
  recoveredMoves(): readonly GameLogMove[] {
    return this.recovered;
  }

  /** Appends a move unless this ply was already logged with the same move. */
  move(line: Omit<GameLogMove, 'type'>): void {
    if (this.finished || this.logged.get(line.ply) === line.move) return;
    for (const ply of [...this.logged.keys()]) if (ply > line.ply) this.logged.delete(ply);
    this.logged.set(line.ply, line.move);
    this.write({ type: 'move', ...line });
  }

  /** The game went back to `plies` plies. */
  takeback(plies: number): void {
    if (this.finished) return;
    for (const ply of [...this.logged.keys()]) if (ply >= plies) this.logged.delete(ply);
    this.write({ type: 'takeback', plies });
  }

  /** Writes the result and publishes the file under its final name. */
  finish(result: Omit<GameLogResult, 'type'>): void {
    if (this.finished) return;
    this.finished = true;
    this.write({ type: 'result', ...result });
    renameSync(`${this.file}.part`, this.file);
  }

  private write(line: GameLogLine): void {
    appendFileSync(`${this.file}.part`, JSON.stringify(line) + '\n');
  }
}
