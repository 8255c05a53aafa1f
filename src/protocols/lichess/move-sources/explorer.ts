/**
 * The lichess opening explorer (lichess-bot `online_moves.lichess_opening_explorer`), sent with our token:
 * GET `<url>/masters?fen&moves=100` (standard only), `<url>/lichess?fen&moves=100&variant&topGames=0&recentGames=0`
 * or `<url>/player?player&fen&moves=100&variant&recentGames=0&color` (an ndjson stream of growing
 * snapshots; the last is complete). Answer shape (lila-openingexplorer, as in lichess-bot's
 * `get_opening_explorer_move`): `{white, draws, black, moves:[{uci, san, averageRating, white, draws, black}],
 * topGames, opening}`. A move needs `minGames` games; the best by `sort` (win rate for the mover, or games
 * played; the other breaks ties) is played.
 */
import type { OnlineMovesConfig } from '../../../config/sections/lichess.js';
import type { MoveQuery, MoveSource, MoveSuggestion } from './move-source.js';
import type { OnlineHttp } from './online-http.js';
import { enoughTime } from './info.js';

interface ExplorerMove {
  readonly uci: string;
  readonly white: number;
  readonly draws: number;
  readonly black: number;
}

export class ExplorerSource implements MoveSource {
  readonly name = 'explorer';
  readonly kind = 'opening';

  constructor(
    private readonly config: OnlineMovesConfig['lichessOpeningExplorer'],
    private readonly http: OnlineHttp,
    /** Our lichess user name (source `player` without `playerName`). */
    private readonly me: () => string,
  ) {}

  async suggest(q: MoveQuery): Promise<MoveSuggestion | undefined> {
    const cfg = this.config;
    const standard = q.line.variant === 'standard' || q.line.variant === 'fromPosition';
    if (!cfg.enabled || !enoughTime(q.timeLeftMs, cfg.minTimeS) || (cfg.source === 'masters' && !standard)) return undefined;
    const variant = standard ? 'standard' : q.line.variant;
    const fen = q.line.fen();
    const white = q.line.turn() === 'white';
    const base = cfg.url.replace(/\/+$/, '');
    const params: Record<string, string | number> =
      cfg.source === 'masters'
        ? { fen, moves: 100 }
        : cfg.source === 'player'
          ? { player: cfg.playerName || this.me(), fen, moves: 100, variant, recentGames: 0, color: white ? 'white' : 'black' }
          : { fen, moves: 100, variant, topGames: 0, recentGames: 0 };
    const r = await this.http.getJson(`${base}/${cfg.source}`, params, { auth: true, ndjson: cfg.source === 'player' });
    if (!r.ok) return undefined;
    const moves = (r.data as { moves?: readonly ExplorerMove[] }).moves;
    if (!Array.isArray(moves)) return undefined;
    const ranked = moves
      .map((m) => {
        const games = m.white + m.draws + m.black;
        const whiteRate = games > 0 ? (m.white + m.draws / 2) / games : 0;
        return { uci: m.uci, games, winrate: white ? whiteRate : 1 - whiteRate };
      })
      .filter((m) => m.games > 0 && m.games >= cfg.minGames)
      .sort((a, b) => (cfg.sort === 'winrate' ? b.winrate - a.winrate || b.games - a.games : b.games - a.games || b.winrate - a.winrate));
    const best = ranked[0];
    return best === undefined ? undefined : { move: best.uci, source: `opening explorer (${cfg.source}, ${best.games} games)` };
  }
}
