/**
 * Adjudication: ending a game early when the engines agree it is decided or dead drawn (the rules
 * of cutechess-cli's `-resign`/`-draw` and fastchess's twosided resign), plus a move cap.
 *
 * Scores are the engines' own, from the mover's view; they are turned into the first player's view
 * and a mate score counts as beyond any threshold. A move without a score resets both counters.
 * - resign: when for `moveCount` consecutive moves of each engine (2 * moveCount plies) both
 *   engines agree that the same side is worse than -`score` centipawns, that side loses.
 *   With `twoSided: false`, cutechess's one-sided rule: one engine's own score at or below -`score`
 *   for `moveCount` of its consecutive moves makes it lose.
 * - draw: from full move `moveNumber` on, when both engines score within +-`score` for
 *   `moveCount` consecutive moves each, the game is a draw.
 * - max moves: after `maxMoves` full moves (2 * maxMoves plies from the start of the game), a draw.
 */
import type { Side } from '../core/game.js';
import { otherSide } from '../core/game.js';

export interface ResignRule {
  readonly moveCount: number;
  /** Centipawns. */
  readonly score: number;
  readonly twoSided: boolean;
}

export interface DrawRule {
  readonly moveNumber: number;
  readonly moveCount: number;
  /** Centipawns. */
  readonly score: number;
}

export interface AdjudicationRules {
  readonly resign?: ResignRule;
  readonly draw?: DrawRule;
  /** Full moves (both sides) after which the game is drawn; 0/undefined: no cap. */
  readonly maxMoves?: number;
}

export type Adjudication =
  | { readonly kind: 'resign'; readonly loser: Side }
  | { readonly kind: 'draw' }
  | { readonly kind: 'max-moves' };

/** A score a mate turns into for threshold checks. */
const MATE_CP = 100_000;

export type Score = { readonly cp: number } | { readonly mate: number };

/** Centipawns of a score, mate as +-100000 (`mate 0` or `-0`: the mover is mated). */
export function scoreCp(s: Score): number {
  if ('cp' in s) return s.cp;
  return s.mate > 0 ? MATE_CP : -MATE_CP;
}

/** Tracks one game. Mutable. */
export class Adjudicator {
  private resignRun = 0;
  private resignLoser: Side | undefined;
  private readonly ownRun: Record<Side, number> = { first: 0, second: 0 };
  private drawRun = 0;

  constructor(private readonly rules: AdjudicationRules) {}

  /**
   * Called after each engine move: `mover` played it, `score` is its own (undefined: none reported),
   * `plies` the plies played in the game so far (book included), `fullMove` the number of the move
   * just made (1 for the first move of the game). Returns a verdict or undefined.
   */
  afterMove(mover: Side, score: Score | undefined, plies: number, fullMove: number): Adjudication | undefined {
    const r = this.rules;
    if (score === undefined) {
      this.resignRun = 0;
      this.resignLoser = undefined;
      this.ownRun[mover] = 0;
      this.drawRun = 0;
    } else {
      const own = scoreCp(score);
      if (r.resign !== undefined) {
        if (r.resign.twoSided) {
          // The side that is worse, by this engine's score; both engines must name the same one.
          const loser = own <= -r.resign.score ? mover : own >= r.resign.score ? otherSide(mover) : undefined;
          if (loser !== undefined && (this.resignLoser === undefined || this.resignLoser === loser)) {
            this.resignRun++;
            this.resignLoser = loser;
          } else {
            this.resignRun = loser === undefined ? 0 : 1;
            this.resignLoser = loser;
          }
          if (this.resignRun >= 2 * r.resign.moveCount && this.resignLoser !== undefined) return { kind: 'resign', loser: this.resignLoser };
        } else {
          this.ownRun[mover] = own <= -r.resign.score ? this.ownRun[mover] + 1 : 0;
          if (this.ownRun[mover] >= r.resign.moveCount) return { kind: 'resign', loser: mover };
        }
      }
      if (r.draw !== undefined) {
        if (fullMove >= r.draw.moveNumber && Math.abs(own) <= r.draw.score) this.drawRun++;
        else this.drawRun = 0;
        if (this.drawRun >= 2 * r.draw.moveCount) return { kind: 'draw' };
      }
    }
    if (r.maxMoves !== undefined && r.maxMoves > 0 && plies >= 2 * r.maxMoves) return { kind: 'max-moves' };
    return undefined;
  }
}
