/**
 * What the watch view shows of a running bot, read from the game logs every server writes under
 * `records.dir` (src/records/game-log.ts): a game in progress is a `.jsonl.part` file, a finished one
 * a `.jsonl`. So the games need no hook into the lichess or CSA front-ends and show exactly what
 * learning will read: per game the players, the position after the last move, both clocks, Kishi's
 * last search (depth, score, PV, nodes/s) and the result; and our rating game after game, per server.
 * Files are parsed again only when they change. Beside the logs: the running servers' own status
 * (lichess challenge queue, CSA connection; src/bot/server-status.ts, handed in by `kishi run`) and the
 * learning curves of AlphaZero loops (`web.watchAlphazeroDirs`: each state directory's `curve-games.json`,
 * src/learning/alphazero/curve.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { ServerStatus, ServerStatusSource } from '../bot/server-status.js';
import type { GameKind, GameState, Side } from '../core/game.js';
import { ChessGame } from '../games/chess/index.js';
import { ShogiGame } from '../games/shogi/index.js';
import type { CurvePoint } from '../plot/series.js';
import { curvePoints, parseResultFile } from '../plot/series.js';
import { parseGameLog } from '../records/game-log.js';
import type { GameLog, GameLogHeader, GameLogSearch } from '../records/game-log.js';

/** One game as the watch view draws it. */
export interface WatchedGame {
  /** The log's path under the records directory. */
  readonly file: string;
  readonly server: string;
  readonly gameId: string;
  readonly game: GameKind;
  readonly url?: string;
  readonly players: GameLogHeader['players'];
  readonly ourSide: Side;
  readonly plies: number;
  /** FEN/SFEN after the last move. */
  readonly position: string;
  readonly lastMove?: string;
  readonly clockMs?: { readonly first: number; readonly second: number };
  /** Kishi's last search in this game. */
  readonly search?: GameLogSearch;
  /** FEN/SFEN the last search started from (its PV's first move is played there), for the page's notation. */
  readonly searchPosition?: string;
  readonly result?: { readonly winner: Side | null; readonly status: string };
  readonly startedAt: string;
  /** Last change of the log file, ms since the epoch. */
  readonly updatedMs: number;
}

/** Our rating after a finished rated game, as the server reported it in the log's header. */
export interface RatingPoint {
  readonly server: string;
  readonly game: number;
  readonly rating: number;
  readonly endedAt: string;
}

/** One online TD-Leaf update of the live weights (the weights file's `.tdleaf-history.jsonl` line). */
export interface TdLeafPoint {
  readonly game: GameKind;
  /** 1, 2, ... in the history's order. */
  readonly update: number;
  /** Largest change of one weight, centipawns. */
  readonly largestChange: number;
  /** Weights changed. */
  readonly changed: number;
}

export interface WatchSnapshot {
  readonly live: readonly WatchedGame[];
  readonly finished: readonly WatchedGame[];
  readonly ratings: readonly RatingPoint[];
  readonly tdleaf: readonly TdLeafPoint[];
  /** Finished games per server: wins, draws, losses from Kishi's view. */
  readonly tally: Readonly<Record<string, { wins: number; draws: number; losses: number }>>;
  /** Each running server's own status (empty when `kishi run` serves only the page). */
  readonly servers: readonly ServerStatus[];
  /** The AlphaZero loops' curves: promoted nets' Elo against self-play games, one series per state directory. */
  readonly alphazero: readonly CurvePoint[];
  /** Why a configured AlphaZero state directory shows no curve (not started yet, unreadable file). */
  readonly alphazeroNotes: readonly string[];
  /**
   * This server's clock when the snapshot was taken, ms since the epoch: the page runs the side to
   * move's clock from the last move's log line (`updatedMs`) without trusting its own clock to agree.
   */
  readonly nowMs: number;
}

/** What the watch view reads besides the game logs. */
export interface WatchSources {
  /** The TD-Leaf history file of each game's live weights (src/learning/tdleaf/online.ts). */
  readonly tdleafHistories?: readonly { readonly game: GameKind; readonly file: string }[];
  /** The running servers' status (`kishi run`). */
  readonly serverStatus?: ServerStatusSource;
  /** State directories of `kishi train alphazero` (`web.watchAlphazeroDirs`). */
  readonly alphazeroDirs?: readonly string[];
}

const MAX_DEPTH = 4;

const START: Record<GameKind, () => GameState<unknown>> = {
  chess: () => ChessGame.standard() as GameState<unknown>,
  shogi: () => ShogiGame.startpos() as GameState<unknown>,
};

const stateOf = (game: GameKind, text: string): GameState<unknown> | undefined => {
  if (text === 'startpos') return START[game]();
  const parsed = game === 'chess' ? ChessGame.fromFen(text) : ShogiGame.fromSfen(text);
  return parsed.isOk ? (parsed.value as GameState<unknown>) : undefined;
};

/** The position after the log's last move (its line holds the position before it). */
function positionAfter(log: GameLog): string {
  const game = log.header.game;
  const last = log.moves[log.moves.length - 1];
  const state = stateOf(game, last ? last.position : log.header.start);
  if (state === undefined) return last?.position ?? log.header.start;
  if (last) {
    const move = state.parseMove(last.move);
    if (move.isOk) state.play(move.value);
  }
  return state.toText();
}

export class GameWatcher {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; game: WatchedGame | undefined }>();
  private readonly curves = new Map<string, { mtimeMs: number; size: number; points: CurvePoint[]; note?: string }>();

  /**
   * @param recordsDir where every server writes its game logs (`records.dir`)
   * @param sources the TD-Leaf histories, the servers' status and the AlphaZero state directories
   */
  constructor(
    private readonly recordsDir: string,
    private readonly sources: WatchSources = {},
  ) {}

  /** Every game log under the records directory, summarised; newest first. */
  snapshot(finishedLimit = 20): WatchSnapshot {
    const files = this.logFiles();
    const seen = new Set(files);
    for (const f of [...this.cache.keys()]) if (!seen.has(f)) this.cache.delete(f);
    const games = files.map((f) => this.summary(f)).filter((g): g is WatchedGame => g !== undefined);
    games.sort((a, b) => b.updatedMs - a.updatedMs);
    const finished = games.filter((g) => g.result !== undefined);
    const ratings: RatingPoint[] = [];
    const counts = new Map<string, number>();
    const tally: Record<string, { wins: number; draws: number; losses: number }> = {};
    for (const g of [...finished].sort((a, b) => a.startedAt.localeCompare(b.startedAt))) {
      const t = (tally[g.server] ??= { wins: 0, draws: 0, losses: 0 });
      if (g.result!.winner === null) t.draws++;
      else if (g.result!.winner === g.ourSide) t.wins++;
      else t.losses++;
      const rating = g.players[g.ourSide].rating;
      if (rating === undefined) continue;
      const n = (counts.get(g.server) ?? 0) + 1;
      counts.set(g.server, n);
      ratings.push({ server: g.server, game: n, rating, endedAt: g.startedAt });
    }
    const alphazero: CurvePoint[] = [];
    const alphazeroNotes: string[] = [];
    for (const dir of this.sources.alphazeroDirs ?? []) {
      const c = this.curve(dir);
      alphazero.push(...c.points);
      if (c.note !== undefined) alphazeroNotes.push(c.note);
    }
    return {
      live: games.filter((g) => g.result === undefined),
      finished: finished.slice(0, finishedLimit),
      ratings,
      tdleaf: this.tdleaf(),
      tally,
      servers: this.sources.serverStatus?.() ?? [],
      alphazero,
      alphazeroNotes,
      nowMs: Date.now(),
    };
  }

  /**
   * One AlphaZero state directory's curve against self-play games, series named after the directory
   * (the loop writes `curve-games.json` atomically each time a net is promoted).
   */
  private curve(dir: string): { points: CurvePoint[]; note?: string } {
    const file = join(dir, 'curve-games.json');
    const series = basename(dir) || dir;
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return { points: [], note: `${series}: no curve yet (${file} not written)` };
    }
    const cached = this.curves.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    let entry: { mtimeMs: number; size: number; points: CurvePoint[]; note?: string };
    try {
      const parsed = parseResultFile(readFileSync(file, 'utf8'), file);
      if (parsed.isErr) entry = { mtimeMs: stat.mtimeMs, size: stat.size, points: [], note: `${series}: ${parsed.error.message}` };
      else if (parsed.value.kind !== 'kishi-curve') entry = { mtimeMs: stat.mtimeMs, size: stat.size, points: [], note: `${series}: ${file} is not a kishi-curve file` };
      else entry = { mtimeMs: stat.mtimeMs, size: stat.size, points: curvePoints(parsed.value.data).map((p) => ({ ...p, series })) };
    } catch (e) {
      entry = { mtimeMs: stat.mtimeMs, size: stat.size, points: [], note: `${series}: ${(e as Error).message}` };
    }
    this.curves.set(file, entry);
    return entry;
  }

  private tdleaf(): TdLeafPoint[] {
    const out: TdLeafPoint[] = [];
    for (const { game, file } of this.sources.tdleafHistories ?? []) {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      let update = 0;
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        try {
          const j = JSON.parse(line) as { largestChange?: unknown; changed?: unknown };
          if (typeof j.largestChange !== 'number' || typeof j.changed !== 'number') continue;
          out.push({ game, update: ++update, largestChange: j.largestChange, changed: j.changed });
        } catch {
          // A torn last line (the learner was stopped mid-write): skipped.
        }
      }
    }
    return out;
  }

  private logFiles(): string[] {
    const out: string[] = [];
    const walk = (dir: string, depth: number): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
        else if (e.isFile() && (e.name.endsWith('.jsonl') || e.name.endsWith('.jsonl.part'))) out.push(path);
      }
    };
    walk(this.recordsDir, 0);
    return out;
  }

  private summary(file: string): WatchedGame | undefined {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.game;
    let game: WatchedGame | undefined;
    try {
      const parsed = parseGameLog(readFileSync(file, 'utf8'));
      if (parsed.isOk) {
        const log = parsed.value;
        const h = log.header;
        const last = log.moves[log.moves.length - 1];
        const searched = [...log.moves].reverse().find((m) => m.ours && m.search);
        const search = searched?.search;
        const clockMs = [...log.moves].reverse().find((m) => m.clockMs)?.clockMs;
        game = {
          file: relative(this.recordsDir, file),
          server: h.server,
          gameId: h.gameId,
          game: h.game,
          ...(h.url !== undefined ? { url: h.url } : {}),
          players: h.players,
          ourSide: h.ourSide,
          plies: log.moves.length,
          position: positionAfter(log),
          ...(last ? { lastMove: last.move } : {}),
          ...(clockMs ? { clockMs } : {}),
          ...(search ? { search, searchPosition: searched!.position } : {}),
          ...(log.result ? { result: { winner: log.result.winner, status: log.result.status } } : {}),
          startedAt: h.startedAt,
          updatedMs: stat.mtimeMs,
        };
      }
    } catch {
      game = undefined;
    }
    this.cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, game });
    return game;
  }
}
