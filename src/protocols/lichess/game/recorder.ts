/**
 * The records of one game: the JSON-lines game log (src/records/game-log.ts: header, each ply with our
 * search and the clocks, takebacks, the result), and what the PGN needs (game/pgn.ts): our search per ply,
 * the mover's clock after each ply, the plies where we offered a draw. After a restart the game log gives
 * back our earlier searches (eval history, PGN comments).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type winston from 'winston';
import type { GameKind, Side } from '../../../core/game.js';
import type { GameLogMove } from '../../../records/game-log.js';
import { GameLogWriter } from '../../../records/game-log.js';
import type { GoResult, SearchInfo } from '../../../player/player.js';
import type { Color, GameFullEvent, GameStatus } from '../types.js';
import type { GameLine } from '../game-line.js';

const sideOf = (c: Color): Side => (c === 'white' ? 'first' : 'second');

/** Our search of one ply, with the position at the end of its PV (TD-Leaf). */
export type PlySearch = SearchInfo & { pvLeaf?: string };

export interface RecorderDeps {
  readonly game: GameKind;
  /** The server's name in the header (`lichess`, `lishogi`). */
  readonly server: string;
  readonly gameId: string;
  /** The game's page (`<server>/<id>`). */
  readonly url: string;
  readonly engineName: string;
  /** The folder of this server's records; undefined: no game log. */
  readonly dir: string | undefined;
  /** Config `records.gameLog`. */
  readonly enabled: boolean;
  readonly log: winston.Logger;
}

export class GameRecorder {
  /** Our search per ply (eval history, PGN comments, game log). */
  readonly searches = new Map<number, PlySearch>();
  /** The clocks after each ply, when the server told us. */
  readonly clocks = new Map<number, { first: number; second: number }>();
  /** The plies where our move offered a draw. */
  readonly drawOffers = new Set<number>();
  private gameLog: GameLogWriter | undefined;

  constructor(private readonly deps: RecorderDeps) {}

  /** The game log's file, once open. */
  get file(): string | undefined {
    return this.gameLog?.file;
  }

  /** Opens the game log (or reopens it after a restart); returns the moves it recovered. */
  open(full: GameFullEvent, color: Color): readonly GameLogMove[] {
    const { dir, gameId: id, log } = this.deps;
    if (dir === undefined || !this.deps.enabled) return [];
    try {
      mkdirSync(dir, { recursive: true });
      const player = (p: GameFullEvent['white']): { name: string; rating?: number; title?: string | null } => ({
        name: p.name,
        ...(p.rating !== undefined ? { rating: p.rating } : {}),
        ...(p.title !== undefined ? { title: p.title } : {}),
      });
      this.gameLog = GameLogWriter.open(join(dir, `${id}.jsonl`), {
        type: 'header',
        version: 1,
        game: this.deps.game,
        variant: full.variant.key,
        server: this.deps.server,
        gameId: id,
        url: this.deps.url,
        start: full.initialFen,
        ourSide: sideOf(color),
        players: { first: player(full.white), second: player(full.black) },
        ...(full.clock
          ? { clock: { initialMs: full.clock.initial, incrementMs: full.clock.increment, ...(full.clock.byoyomi ? { byoyomiMs: full.clock.byoyomi } : {}) } }
          : {}),
        ...(full.daysPerTurn !== undefined ? { daysPerTurn: full.daysPerTurn } : {}),
        rated: full.rated,
        speed: full.speed,
        engine: this.deps.engineName,
        startedAt: new Date(full.createdAt).toISOString(),
      });
      const recovered = this.gameLog.recoveredMoves();
      for (const m of recovered) {
        if (m.search) this.searches.set(m.ply, { ...m.search, nps: m.search.nps ?? 0, pv: [...m.search.pv] } as PlySearch);
        if (m.clockMs) this.clocks.set(m.ply, { ...m.clockMs });
        if (m.offeredDraw) this.drawOffers.add(m.ply);
      }
      return recovered;
    } catch (e) {
      log.warn(`game ${id}: cannot open the game log: ${(e as Error).message}`);
      return [];
    }
  }

  /** The clocks lichess gave after ply `ply`. */
  noteClock(ply: number, first: number, second: number): void {
    this.clocks.set(ply, { first, second });
  }

  /** Our answer for the ply `ply` (its search, when it has one). */
  noteSearch(ply: number, result: GoResult): void {
    if (result.info) this.searches.set(ply, { ...result.info, ...(result.pvLeaf !== undefined ? { pvLeaf: result.pvLeaf } : {}) });
  }

  noteDrawOffer(ply: number): void {
    this.drawOffers.add(ply);
  }

  /** A takeback to `plies` plies. */
  takeback(plies: number): void {
    for (const ply of [...this.searches.keys()]) if (ply >= plies) this.searches.delete(ply);
    for (const ply of [...this.clocks.keys()]) if (ply >= plies) this.clocks.delete(ply);
    this.gameLog?.takeback(plies);
  }

  /** Writes ply `ply` of `line` to the game log; `mover` made it, `ours` tells whether that was us. */
  logMove(line: GameLine, ply: number, mover: Color, ours: boolean): void {
    if (this.gameLog === undefined) return;
    const search = this.searches.get(ply);
    const clock = this.clocks.get(ply);
    try {
      this.gameLog.move({
        ply,
        side: sideOf(mover),
        move: line.moves()[ply] ?? '',
        ours,
        position: line.fenAt(ply),
        ...(clock ? { clockMs: clock } : {}),
        ...(search && ours
          ? {
              search: {
                score: search.score,
                depth: search.depth,
                ...(search.seldepth !== undefined ? { seldepth: search.seldepth } : {}),
                nodes: search.nodes,
                nps: search.nps,
                timeMs: search.timeMs,
                pv: search.pv,
                ...(search.pvLeaf !== undefined ? { pvLeaf: search.pvLeaf } : {}),
              },
            }
          : {}),
        ...(this.drawOffers.has(ply) ? { offeredDraw: true } : {}),
      });
    } catch (e) {
      this.deps.log.warn(`game ${this.deps.gameId}: game log write failed: ${(e as Error).message}`);
    }
  }

  /** The game log's result line. */
  finish(status: GameStatus, winner: Color | undefined, plies: number): void {
    try {
      this.gameLog?.finish({
        winner: winner === undefined ? null : sideOf(winner),
        status,
        plies,
        endedAt: new Date().toISOString(),
      });
    } catch (e) {
      this.deps.log.warn(`game ${this.deps.gameId}: game log finish failed: ${(e as Error).message}`);
    }
  }
}
