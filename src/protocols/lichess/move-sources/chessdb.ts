/**
 * chessdb.cn as an opening book (lichess-bot `online_moves.chessdb_book`), standard chess only.
 * GET `cdb.php?action=<querypv|querybest|query>&board=<fen>&json=1`. Answers (chessdb's JSON API, as
 * lichess-bot reads them in `get_chessdb_move`): `{"status":"ok","score":12,"depth":35,"pv":["e2e4",...],
 * "pvSAN":[...]}` for querypv, `{"status":"ok","move":"e2e4"}` for querybest/query; any other `status`
 * (`unknown`, `checkmate`, `invalid board`...) means no move. With move quality `best` the line must reach
 * `minDepth`; its score (centipawns from the side to move) goes to the records.
 */
import type { OnlineMovesConfig } from '../../../config/sections/lichess.js';
import type { MoveQuery, MoveSource, MoveSuggestion } from './move-source.js';
import type { OnlineHttp } from './online-http.js';
import { enoughTime, sourceInfo } from './info.js';

const ACTIONS = { best: 'querypv', good: 'querybest', all: 'query' } as const;

interface ChessdbAnswer {
  readonly status?: string;
  readonly move?: string;
  readonly score?: number;
  readonly depth?: number;
  readonly pv?: readonly string[];
}

export class ChessdbBookSource implements MoveSource {
  readonly name = 'chessdb';
  readonly kind = 'opening';

  constructor(
    private readonly config: OnlineMovesConfig['chessdbBook'],
    private readonly http: OnlineHttp,
  ) {}

  async suggest(q: MoveQuery): Promise<MoveSuggestion | undefined> {
    const cfg = this.config;
    const variant = q.line.variant;
    if (!cfg.enabled || !enoughTime(q.timeLeftMs, cfg.minTimeS) || (variant !== 'standard' && variant !== 'fromPosition')) return undefined;
    const r = await this.http.getJson(cfg.url, { action: ACTIONS[cfg.moveQuality], board: q.line.fen(), json: 1 });
    if (!r.ok) return undefined;
    const data = r.data as ChessdbAnswer;
    if (data.status !== 'ok') return undefined;
    if (cfg.moveQuality === 'best') {
      const move = data.pv?.[0];
      if (move === undefined || typeof data.depth !== 'number' || data.depth < cfg.minDepth) return undefined;
      return { move, source: `chessdb.cn (depth ${data.depth})`, info: sourceInfo({ cp: data.score ?? 0 }, data.depth, data.pv ?? []) };
    }
    return typeof data.move === 'string' ? { move: data.move, source: 'chessdb.cn' } : undefined;
  }
}
