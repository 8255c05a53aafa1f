/**
 * Running results of a two-engine match from engine A's point of view (A is the first engine given):
 * W/D/L, the pentanomial over game pairs (games 2k and 2k+1 share an opening, colours swapped),
 * end reasons, forfeits per engine, and the estimates from src/match/stats.
 */
import type { Side } from '../core/game.js';
import { EMPTY_PENTANOMIAL, EMPTY_WDL, addGame, addPair, estimatePentanomial, estimateWdl } from './stats/index.js';
import type { GameScore, Pentanomial, PentanomialEstimate, Wdl, WdlEstimate } from './stats/index.js';
import type { GameRecord } from './game-record.js';
import { FORFEIT_REASONS, scoreFor } from './game-record.js';

export interface TallySnapshot {
  readonly games: number;
  readonly wdl: Wdl;
  readonly pentanomial: Pentanomial;
  /** Points of engine A. */
  readonly points: number;
  readonly trinomial: WdlEstimate;
  readonly pentanomialEstimate: PentanomialEstimate;
  readonly endReasons: Readonly<Record<string, number>>;
  /** Forfeits per engine name and reason. */
  readonly forfeits: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export class MatchTally {
  private wdl: Wdl = EMPTY_WDL;
  private penta: Pentanomial = EMPTY_PENTANOMIAL;
  private readonly halfPairs = new Map<number, GameScore>();
  private readonly reasons: Record<string, number> = {};
  private readonly forfeitCounts: Record<string, Record<string, number>> = {};
  private games = 0;

  /** `aSide`: the side engine A played in this game. Returns true when the game completed a pair. */
  add(record: GameRecord, aSide: Side): boolean {
    const score = scoreFor(record.end, aSide);
    this.games++;
    this.wdl = addGame(this.wdl, score);
    this.reasons[record.end.reason] = (this.reasons[record.end.reason] ?? 0) + 1;
    if (FORFEIT_REASONS.includes(record.end.reason) && record.forfeit !== undefined) {
      const byEngine = (this.forfeitCounts[record.forfeit.engine] ??= {});
      byEngine[record.end.reason] = (byEngine[record.end.reason] ?? 0) + 1;
    }
    const other = this.halfPairs.get(record.pair);
    if (other === undefined) {
      this.halfPairs.set(record.pair, score);
      return false;
    }
    this.halfPairs.delete(record.pair);
    this.penta = addPair(this.penta, other, score);
    return true;
  }

  snapshot(): TallySnapshot {
    return {
      games: this.games,
      wdl: this.wdl,
      pentanomial: this.penta,
      points: this.wdl.wins + this.wdl.draws / 2,
      trinomial: estimateWdl(this.wdl),
      pentanomialEstimate: estimatePentanomial(this.penta),
      endReasons: { ...this.reasons },
      forfeits: structuredClone(this.forfeitCounts),
    };
  }
}
