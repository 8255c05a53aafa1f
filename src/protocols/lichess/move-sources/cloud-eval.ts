/**
 * The lichess cloud evaluation (lichess-bot `online_moves.lichess_cloud_analysis`):
 * GET /api/cloud-eval?fen&multiPv&variant through the lichess client (one request at a time, 429s
 * honoured). The answer is `CloudEval` of the lichess OpenAPI spec (`schemas/CloudEval.yaml`):
 * `{fen, knodes, depth, pvs:[{moves:"e2e4 e7e5 ...", cp} | {moves, mate}]}`, scores from White's view; a
 * position not in the cloud is a 404 `{"error":"No cloud evaluation available for that position"}`.
 * Move quality `best` plays the first line; `good` asks for 5 lines and plays a random one within
 * `maxScoreDifferenceCp` of the best. The eval must reach `minDepth` and `minKnodes`.
 */
import type { OnlineMovesConfig } from '../../../config/sections/lichess.js';
import type { SearchInfo } from '../../../player/player.js';
import type { LichessClient } from '../client.js';
import type { MoveQuery, MoveSource, MoveSuggestion } from './move-source.js';
import { enoughTime, mateFromWhite, sourceInfo } from './info.js';

interface CloudPv {
  readonly moves: string;
  readonly cp?: number;
  readonly mate?: number;
}

interface CloudEval {
  readonly depth: number;
  readonly knodes: number;
  readonly pvs: readonly CloudPv[];
}

/** A line's value from White's view on one scale (mates beyond every centipawn score). */
const whiteValue = (pv: CloudPv): number => (pv.cp !== undefined ? pv.cp : pv.mate !== undefined ? Math.sign(pv.mate) * (100_000 - Math.abs(pv.mate)) : 0);

export class CloudEvalSource implements MoveSource {
  readonly name = 'cloud-eval';
  readonly kind = 'opening';

  constructor(
    private readonly config: OnlineMovesConfig['lichessCloudAnalysis'],
    private readonly client: LichessClient,
    private readonly maxRetries: number,
    private readonly random: () => number = Math.random,
  ) {}

  async suggest(q: MoveQuery): Promise<MoveSuggestion | undefined> {
    const cfg = this.config;
    if (!cfg.enabled || !enoughTime(q.timeLeftMs, cfg.minTimeS)) return undefined;
    const variant = q.line.variant === 'fromPosition' ? 'standard' : q.line.variant;
    const query = { fen: q.line.fen(), multiPv: cfg.moveQuality === 'best' ? 1 : 5, variant };
    let data: CloudEval | undefined;
    for (let attempt = 0; attempt <= this.maxRetries && data === undefined; attempt++) {
      const r = await this.client.request<CloudEval>('cloudEval', { query, retryUnknown: false });
      if (r.isOk) data = r.value.data;
      else if (!r.error.unknownOutcome) return undefined;
    }
    if (data === undefined || !Array.isArray(data.pvs) || data.pvs.length === 0) return undefined;
    if (data.depth < cfg.minDepth || data.knodes < cfg.minKnodes) return undefined;
    const white = q.line.turn() === 'white';
    const ours = (pv: CloudPv): number => (white ? whiteValue(pv) : -whiteValue(pv));
    let pv: CloudPv | undefined = data.pvs[0];
    if (cfg.moveQuality === 'good') {
      const best = Math.max(...data.pvs.map(ours));
      const good = data.pvs.filter((p) => ours(p) >= best - cfg.maxScoreDifferenceCp);
      pv = good[Math.min(good.length - 1, Math.floor(this.random() * good.length))];
    }
    const moves = pv?.moves.trim().split(/\s+/) ?? [];
    const move = moves[0];
    if (pv === undefined || move === undefined || move === '') return undefined;
    const score: SearchInfo['score'] = pv.cp !== undefined ? { cp: white ? pv.cp : -pv.cp } : mateFromWhite(pv.mate ?? 0, white);
    return { move, source: `lichess cloud eval (depth ${data.depth})`, info: sourceInfo(score, data.depth, moves, data.knodes * 1000) };
  }
}
