/**
 * TEST DOUBLES for the Player interface, used where the real engine is not needed (or not built yet).
 * None of these play well; they exist to drive the CSA client through its states deterministically.
 */
import type { GameKind } from '../../../src/core/game.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../../../src/player/player.js';
import { legalUsiMoves, parseUsiMove, positionFromSfen } from '../../../src/protocols/csa/shogi-rules.js';
import type { ShogiPosition } from '../../../src/protocols/csa/shogi-rules.js';

export function positionOf(req: GoRequest): ShogiPosition {
  const pos = positionFromSfen(req.start).unwrap();
  for (const u of req.moves) pos.play(parseUsiMove(pos, u).unwrap().md);
  return pos;
}

/** Base: records every request, supports nothing but shogi. */
abstract class DoublePlayer implements Player {
  readonly requests: GoRequest[] = [];
  stops = 0;
  ponderhits = 0;
  newGames = 0;
  closed = false;
  abstract readonly name: string;
  supports(game: GameKind): boolean {
    return game === 'shogi';
  }
  abstract go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult>;
  stop(): void {
    this.stops++;
  }
  ponderhit(): void {
    this.ponderhits++;
  }
  async newGame(): Promise<void> {
    this.newGames++;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** TEST DOUBLE: plays a seeded pseudo-random legal move after `delayMs`, reporting a fake info line. */
export class RandomMover extends DoublePlayer {
  readonly name = 'random-mover (test double)';
  private seed: number;
  constructor(
    seed = 1,
    private readonly delayMs = 0,
  ) {
    super();
    this.seed = seed;
  }
  async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    this.requests.push(request);
    const pos = positionOf(request);
    const legal = legalUsiMoves(pos);
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (legal.length === 0) return { move: 'resign' };
    this.seed = (this.seed * 1103515245 + 12345) % 2147483648;
    const move = legal[this.seed % legal.length]!;
    const info: SearchInfo = { depth: 1, score: { cp: 0 }, nodes: legal.length, nps: 0, timeMs: this.delayMs, pv: [move] };
    onInfo?.(info);
    return { move, info };
  }
}

/** TEST DOUBLE: plays the given USI moves in order (then resigns), with the given infos. */
export class ScriptedPlayer extends DoublePlayer {
  readonly name = 'scripted (test double)';
  private i = 0;
  constructor(
    private readonly moves: readonly string[],
    private readonly infos: readonly (SearchInfo | undefined)[] = [],
    private readonly delaysMs: readonly number[] = [],
  ) {
    super();
  }
  async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    this.requests.push(request);
    const k = this.i++;
    const delay = this.delaysMs[k] ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const move = this.moves[k] ?? 'resign';
    const info = this.infos[k];
    if (info) onInfo?.(info);
    return { move, ...(info ? { info } : {}) };
  }
}

/**
 * TEST DOUBLE: thinks until `stop` (then answers the first legal move), like a search with no time
 * management at all; with `ignoreStop` it never answers, like a hung engine.
 */
export class ForeverThinker extends DoublePlayer {
  readonly name = 'forever-thinker (test double)';
  private pending: (() => void) | undefined;
  goAt: number[] = [];
  stopAt: number[] = [];
  constructor(private readonly ignoreStop = false) {
    super();
  }
  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    this.requests.push(request);
    this.goAt.push(Date.now());
    const pos = positionOf(request);
    const move = legalUsiMoves(pos)[0] ?? 'resign';
    onInfo?.({ depth: 3, score: { cp: 12 }, nodes: 100, nps: 1000, timeMs: 0, pv: [move] });
    return new Promise((resolve) => {
      this.pending = () => resolve({ move });
    });
  }
  override stop(): void {
    super.stop();
    this.stopAt.push(Date.now());
    if (this.ignoreStop) return;
    const p = this.pending;
    this.pending = undefined;
    p?.();
  }
}

/** Finds the legal USI move that corresponds to a CSA move in the request's position. */
export function usiOfCsa(req: GoRequest, csa: string): string {
  const pos = positionOf(req);
  for (const u of legalUsiMoves(pos)) if (parseUsiMove(pos, u).unwrap().csa === csa) return u;
  throw new Error(`no legal move ${csa}`);
}

/**
 * TEST DOUBLE: plays a transcript's moves as sent (`+7776FU,'* 30 -3334FU +2726FU`, `%TORYO`), turning a
 * floodgate comment back into the search info that produces it.
 */
export class CsaScriptPlayer extends DoublePlayer {
  readonly name = 'csa-script (test double)';
  private i = 0;
  constructor(private readonly lines: readonly string[]) {
    super();
  }
  async go(request: GoRequest): Promise<GoResult> {
    this.requests.push(request);
    const line = this.lines[this.i++] ?? '%TORYO';
    if (line === '%TORYO') return { move: 'resign' };
    if (line === '%KACHI') return { move: 'win' };
    const [csa, comment] = line.split(',');
    const move = usiOfCsa(request, csa!);
    if (comment === undefined) return { move };
    const [, cp, ...pvCsa] = comment.split(' ');
    const pos = positionOf(request);
    const blackToMove = pos.turn === 'sente';
    const pv = [move];
    pos.play(parseUsiMove(pos, move).unwrap().md);
    for (const c of pvCsa) {
      const u = legalUsiMoves(pos).find((x) => parseUsiMove(pos, x).unwrap().csa === c)!;
      pv.push(u);
      pos.play(parseUsiMove(pos, u).unwrap().md);
    }
    const info: SearchInfo = { depth: 1, score: { cp: (blackToMove ? 1 : -1) * Number(cp) }, nodes: 1, nps: 1, timeMs: 1, pv };
    return { move, info };
  }
}

/**
 * TEST DOUBLE: a random mover with a simple time manager, to use its clock the way an engine would:
 * it thinks `remaining/20 + increment/2` (or 30% of the byoyomi once the main time is gone), then plays.
 */
export class PacedRandomMover extends RandomMover {
  override readonly name = 'paced-random-mover (test double)';
  readonly thinkMs: number[] = [];
  override async go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    const c = request.clock;
    if (c) {
      const black = positionOf(request).turn === 'sente';
      const main = black ? c.firstMs : c.secondMs;
      const inc = black ? c.firstIncMs : c.secondIncMs;
      const ms = Math.floor(main > 0 ? main / 20 + inc / 2 : 0.3 * (inc + c.byoyomiMs));
      this.thinkMs.push(ms);
      await new Promise((r) => setTimeout(r, ms));
    }
    return super.go(request, onInfo);
  }
}
