/**
 * TEST DOUBLE, not an engine: a Player that plays its scripted moves while they are legal, then the first
 * legal move in sorted UCI order. Scores are scripted too, so draw/resign policies can be tested.
 * Deterministic and instant (it never thinks), so tests assert exact games.
 */
import type { GameKind } from '../../../../src/core/game.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../../../src/player/player.js';
import { ChessLine } from '../../../../src/protocols/lichess/chess-line.js';
import type { VariantKey } from '../../../../src/protocols/lichess/types.js';

export interface TestPlayerOptions {
  /** Our moves in order (index = our move number); an illegal or missing entry falls back to the first legal move. */
  readonly script?: readonly string[];
  /** The score reported for our n-th move (centipawns from our view), default 0. */
  readonly score?: (ourMoveIndex: number) => SearchInfo['score'];
  /** Pretend to think this long (resolves early on `stop`), milliseconds. */
  readonly thinkMs?: number;
  /** Answer `resign` instead of a move from this move index on. */
  readonly resignAt?: number;
  /** Every search fails (a crashing engine). */
  readonly fail?: boolean;
}

export class FirstLegalPlayer implements Player {
  readonly name = 'first-legal test double';
  readonly requests: GoRequest[] = [];
  newGames = 0;
  closed = false;
  private wake: (() => void) | undefined;
  private hit: (() => void) | undefined;
  ponderhits = 0;
  ponderStops = 0;

  constructor(private readonly opts: TestPlayerOptions = {}) {}

  supports(game: GameKind, variant: string): boolean {
    return game === 'chess' && ['standard', 'chess960', 'fromPosition'].includes(variant);
  }

  async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    this.requests.push(request);
    if (this.opts.fail) throw new Error('test double: search failed');
    const line = ChessLine.create(request.variant as VariantKey, request.start).unwrap();
    line.sync(request.moves).unwrap();
    const index = Math.floor(request.moves.length / 2);
    if (request.ponder) {
      // Ponder until the game says the guess was right (ponderhit) or wrong (stop).
      await new Promise<void>((resolve) => {
        this.wake = () => {
          this.ponderStops++;
          resolve();
        };
        this.hit = () => {
          this.ponderhits++;
          resolve();
        };
      });
      this.wake = this.hit = undefined;
    } else if (this.opts.thinkMs) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.opts.thinkMs);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
    if (this.opts.resignAt !== undefined && index >= this.opts.resignAt) return { move: 'resign' };
    const scripted = this.opts.script?.[index];
    const legal = line.legalMoves().sort();
    const move = scripted !== undefined && line.isLegal(scripted) ? scripted : legal[0];
    if (move === undefined) throw new Error('FirstLegalPlayer: no legal move');
    line.play(move).unwrap();
    // The reply we expect: the opponent's first legal move in sorted order.
    const reply = line.legalMoves().sort()[0];
    const info: SearchInfo = { depth: 1, score: this.opts.score?.(index) ?? { cp: 0 }, nodes: legal.length, nps: 0, timeMs: 0, pv: [move] };
    onInfo?.(info);
    return { move, info, pvLeaf: line.fen(), ...(reply !== undefined ? { ponder: reply } : {}) };
  }

  stop(): void {
    this.wake?.();
  }

  ponderhit(): void {
    this.hit?.();
  }

  async newGame(): Promise<void> {
    this.newGames++;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
