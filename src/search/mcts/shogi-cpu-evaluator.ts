/**
 * The CPU leaf evaluator of shogi (cpu-evaluator.ts) over the internal board and the shogi NNUE.
 * Drops are moves like any other: the one-ply policy values them by the network after the drop
 * and the exchange evaluation of the dropped piece.
 */
import { ShogiNnue } from '../../eval/nnue/shogi-nnue.js';
import type { NnueNetwork } from '../../eval/nnue/network.js';
import { ShogiAttackMap } from '../../games/shogi/fast/attack-map.js';
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import { SEE_BOARD_VALUE, SEE_CAPTURE_VALUE, see, seeGe } from '../../games/shogi/fast/see.js';
import { MAX_MOVES } from '../../games/shogi/fast/board.js';
import { BLACK, BLACK_BIT, WHITE_BIT } from '../../games/shogi/fast/pieces.js';
import { CpuEvaluator, type CpuEvaluatorSettings } from './cpu-evaluator.js';
import type { MctsBoard } from './mcts-board.js';
import { ShogiMctsBoard } from './shogi-mcts-board.js';

const CAPTURE = Int32Array.from(SEE_CAPTURE_VALUE);
const PROMO_GAIN = Int32Array.from(SEE_BOARD_VALUE.map((v, t) => (t >= 1 && t <= 6 ? SEE_BOARD_VALUE[t + 8]! - v : 0)));
const PROMOTE_FLAG = 1 << 16;

export class ShogiCpuEvaluator extends CpuEvaluator<FastShogiBoard, ShogiNnue> {
  /** The cells the opponent of the side to move attacks (set by `beginExchanges`). */
  private readonly threats = new ShogiAttackMap();

  /** Throws when `net` is not a shogi network (the loader checks that first). `simd`: as ShogiNnue's. */
  constructor(net: NnueNetwork, settings: CpuEvaluatorSettings, simd?: boolean) {
    super(settings, new ShogiNnue(net, simd), MAX_MOVES);
  }

  protected gameBoard(board: MctsBoard): FastShogiBoard {
    if (!(board instanceof ShogiMctsBoard)) throw new Error('the shogi CPU evaluator needs a shogi board');
    return board.board;
  }

  protected captures(list: Int32Array): number {
    return this.board!.generateMoves(list, true);
  }

  protected isCapture(m: number): boolean {
    return m >>> 17 === 0 && this.board!.board[(m >>> 8) & 255]! !== 0;
  }

  protected order(m: number): number {
    const b = this.board!.board;
    const victim = b[(m >>> 8) & 255]! & 15;
    const attacker = m >>> 17 !== 0 ? 0 : b[m & 255]! & 15;
    return victim * 16 + 15 - attacker;
  }

  protected seeNonNegative(m: number): boolean {
    return seeGe(this.board!, m, 0);
  }

  protected beginExchanges(): void {
    const b = this.board!;
    this.threats.compute(b, b.turn === BLACK ? WHITE_BIT : BLACK_BIT);
  }

  protected exchangeLoss(m: number): number {
    // Unattacked destination (and origin, for a board move): nothing can take back (attack-map.ts),
    // SEE = the gain.
    if (!this.threats.has((m >>> 8) & 255) && (m >>> 17 !== 0 || !this.threats.has(m & 255))) return 0;
    const loss = see(this.board!, m) - this.gain(m);
    return loss < 0 ? loss : 0;
  }

  private gain(m: number): number {
    if (m >>> 17 !== 0) return 0;
    const b = this.board!.board;
    const victim = b[(m >>> 8) & 255]! & 15;
    return CAPTURE[victim]! + ((m & PROMOTE_FLAG) !== 0 ? PROMO_GAIN[b[m & 255]! & 15]! : 0);
  }
}
