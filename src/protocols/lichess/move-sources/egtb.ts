/**
 * Online endgame tablebases (lichess-bot `online_moves.online_egtb`), asked when no castling right is
 * left and at most `maxPieces` pieces stand on the board:
 * - source `lichess`: GET `<url>/<standard|atomic|antichess>?fen` (lila-tablebase, README "HTTP API"):
 *   `{category, dtz, dtm, ..., moves:[{uci, san, category, dtz, dtm, zeroing, ...}]}`, moves best first,
 *   each move's `category` from the opponent's view after it (`loss` for them is a win for us). At most 7
 *   pieces in standard chess, 6 in the variants.
 * - source `chessdb`: chessdb.cn `querypv` (standard only): the score maps to win/draw/loss as lichess-bot's
 *   `get_chessdb_egtb_move` does (below -20000 lost, below 0 blessed loss, 0 drawn, up to 20000 cursed
 *   win, above that won).
 * The result (win 2, cursed win 1, draw 0, blessed loss -1, loss -2) sets the score in the records
 * (±9900, ±500, 0) and, per `drawOrResign`, offers a draw on 0 or resigns on -2.
 */
import type { DrawOrResignConfig } from '../../../config/sections/draw-or-resign.js';
import type { OnlineMovesConfig } from '../../../config/sections/lichess.js';
import type { MoveQuery, MoveSource, MoveSuggestion } from './move-source.js';
import type { OnlineHttp } from './online-http.js';
import { enoughTime, sourceInfo } from './info.js';

/** WDL of a lila-tablebase category, from the view of the side it describes. */
const CATEGORY_WDL: Readonly<Record<string, number>> = {
  win: 2,
  'syzygy-win': 2,
  'maybe-win': 1,
  'cursed-win': 1,
  draw: 0,
  'blessed-loss': -1,
  'maybe-loss': -1,
  'syzygy-loss': -2,
  loss: -2,
};

const WDL_SCORE: Readonly<Record<number, number>> = { 2: 9900, 1: 500, 0: 0, [-1]: -500, [-2]: -9900 };

export function chessdbScoreToWdl(score: number): number {
  if (score < -20000) return -2;
  if (score < 0) return -1;
  if (score === 0) return 0;
  if (score <= 20000) return 1;
  return 2;
}

const TABLEBASE_VARIANTS = new Set(['standard', 'fromPosition', 'chess960', 'atomic', 'antichess']);

export class OnlineEgtbSource implements MoveSource {
  readonly name = 'egtb';
  readonly kind = 'tablebase';

  constructor(
    private readonly config: OnlineMovesConfig['onlineEgtb'],
    private readonly chessdbUrl: string,
    private readonly drawOrResign: DrawOrResignConfig,
    private readonly http: OnlineHttp,
  ) {}

  async suggest(q: MoveQuery): Promise<MoveSuggestion | undefined> {
    const cfg = this.config;
    const line = q.line;
    const pos = line.position();
    if (!cfg.enabled || !enoughTime(q.timeLeftMs, cfg.minTimeS) || !TABLEBASE_VARIANTS.has(line.variant)) return undefined;
    const standard = line.variant !== 'atomic' && line.variant !== 'antichess';
    const pieces = line.pieceCount();
    if (!pos.castles.castlingRights.isEmpty() || pieces > Math.min(cfg.maxPieces, standard ? 7 : 6)) return undefined;
    if (cfg.source === 'chessdb' && !standard) return undefined;
    const found = cfg.source === 'lichess' ? await this.lichess(q, standard ? 'standard' : line.variant) : await this.chessdb(q);
    if (found === undefined) return undefined;
    const dr = this.drawOrResign;
    return {
      move: found.move,
      source: `${cfg.source} tablebase (wdl ${found.wdl})`,
      info: sourceInfo({ cp: WDL_SCORE[found.wdl] ?? 0 }, 0, [found.move]),
      ...(dr.offerDrawEnabled && dr.offerDrawForEgtbZero && found.wdl === 0 ? { offerDraw: true } : {}),
      ...(dr.resignEnabled && dr.resignForEgtbMinusTwo && found.wdl === -2 ? { resign: true } : {}),
    };
  }

  private async lichess(q: MoveQuery, variant: string): Promise<{ move: string; wdl: number } | undefined> {
    const r = await this.http.getJson(`${this.config.url.replace(/\/+$/, '')}/${variant}`, { fen: q.line.fen() });
    if (!r.ok) return undefined;
    const best = (r.data as { moves?: readonly { uci: string; category: string }[] }).moves?.[0];
    const theirs = best === undefined ? undefined : CATEGORY_WDL[best.category];
    return best === undefined || theirs === undefined ? undefined : { move: best.uci, wdl: -theirs };
  }

  private async chessdb(q: MoveQuery): Promise<{ move: string; wdl: number } | undefined> {
    const r = await this.http.getJson(this.chessdbUrl, { action: 'querypv', board: q.line.fen(), json: 1 });
    if (!r.ok) return undefined;
    const data = r.data as { status?: string; score?: number; pv?: readonly string[] };
    const move = data.pv?.[0];
    if (data.status !== 'ok' || move === undefined || typeof data.score !== 'number') return undefined;
    return { move, wdl: chessdbScoreToWdl(data.score) };
  }
}
