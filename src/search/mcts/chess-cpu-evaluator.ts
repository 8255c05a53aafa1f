/**
 * The CPU leaf evaluator of chess (cpu-evaluator.ts) over the internal board and the chess NNUE.
 */
import { ChessNnue } from '../../eval/nnue/chess-nnue.js';
import type { NnueNetwork } from '../../eval/nnue/network.js';
import { ChessAttackMap } from '../../games/chess/fast/attack-map.js';
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import { SEE_VALUE, see, seeGe } from '../../games/chess/fast/see.js';
import { to88 } from '../../games/chess/fast/tables.js';
import { ChessMctsBoard } from './chess-mcts-board.js';
import { CpuEvaluator, type CpuEvaluatorSettings } from './cpu-evaluator.js';
import type { MctsBoard } from './mcts-board.js';

const VALUE = Int32Array.from(SEE_VALUE);

export class ChessCpuEvaluator extends CpuEvaluator<FastChessBoard, ChessNnue> {
  /** The squares the opponent of the side to move attacks (set by `beginExchanges`). */
  private readonly threats = new ChessAttackMap();

  /** Throws when `net` is not a chess network (the loader checks that first). `simd`: as ChessNnue's. */
  constructor(net: NnueNetwork, settings: CpuEvaluatorSettings, simd?: boolean) {
    super(settings, new ChessNnue(net, simd), 256);
  }

  protected gameBoard(board: MctsBoard): FastChessBoard {
    if (!(board instanceof ChessMctsBoard)) throw new Error('the chess CPU evaluator needs a chess board');
    return board.board;
  }

  protected captures(list: Int32Array): number {
    return this.board!.generateMoves(list, true, 0);
  }

  protected isCapture(m: number): boolean {
    // A victim, a promotion (captures-only generation writes every promotion), or en passant.
    return ((m >> 17) & 7) !== 0 || ((m >> 12) & 7) !== 0 || ((m >> 15) & 3) === 3;
  }

  protected order(m: number): number {
    // Victim (promotions count as winning a queen's worth less a pawn), then the cheaper attacker.
    const victim = (m >> 17) & 7;
    const promo = (m >> 12) & 7;
    return (victim + (promo !== 0 ? promo - 1 : 0)) * 8 + 7 - ((m >> 20) & 7);
  }

  protected seeNonNegative(m: number): boolean {
    return seeGe(this.board!, m, 0);
  }

  protected beginExchanges(): void {
    this.threats.compute(this.board!, this.board!.turn ^ 1);
  }

  protected exchangeLoss(m: number): number {
    // Unattacked origin and destination: nothing can take back (attack-map.ts), SEE = the gain. En
    // passant also opens the captured pawn's square, so it takes the exchange evaluation.
    if (((m >> 15) & 3) !== 3 && !this.threats.has(to88((m >> 6) & 63)) && !this.threats.has(to88(m & 63))) return 0;
    const loss = see(this.board!, m) - this.gain(m);
    return loss < 0 ? loss : 0;
  }

  private gain(m: number): number {
    const promo = (m >> 12) & 7;
    return VALUE[(m >> 17) & 7]! + (promo !== 0 ? VALUE[promo]! - VALUE[1]! : 0);
  }
}
