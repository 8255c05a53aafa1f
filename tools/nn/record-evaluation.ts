/**
 * Records a measured match result in model manifests, so that a net's claimed strength is always
 * a measurement: appends `{ date, opponent, timeControl, games, wins, draws, losses, score, elo
 * (95% interval), endings, summary }` from a `kishi match` summary.json to `training.evaluation`
 * of each manifest given (fp32 and INT8 share the measurement of the variant that played).
 *
 *   node dist/tools/nn/record-evaluation.js --summary matches/x/summary.json \
 *     --played models/shogi-int8.onnx --manifest models/shogi.manifest.json --manifest models/shogi-int8.manifest.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';

const opts = new Command()
  .requiredOption('--summary <file>', 'summary.json of kishi match')
  .requiredOption('--played <model>', 'the model file the MCTS engine used')
  .option('--manifest <file>', 'manifest to update (repeat)', (v: string, prev: string[]) => [...prev, v], [] as string[])
  .option('--note <text>', 'free text', '')
  .parse()
  .opts<{ summary: string; played: string; manifest: string[]; note: string }>();

interface Summary {
  game: string;
  engines: { name: string; options: Record<string, string>; timeControl: string }[];
  results: {
    games: number;
    wdl: { wins: number; draws: number; losses: number };
    trinomial: { score: number; elo: number; eloLow: number | string; eloHigh: number | string };
    endReasons: Record<string, number>;
    forfeits?: Record<string, Record<string, number>>;
  };
  startedAt: string;
}
const s = JSON.parse(readFileSync(opts.summary, 'utf8')) as Summary;
const [ours, them] = s.engines;
const r = s.results;
const round = (x: number | string): number | string => (typeof x === 'number' ? Math.round(x) : x);
const entry = {
  date: s.startedAt,
  played: opts.played,
  engine: `${ours!.name} (${JSON.stringify(ours!.options)})`,
  opponent: `${them!.name} (${JSON.stringify(them!.options)})`,
  timeControl: ours!.timeControl,
  games: r.games,
  wins: r.wdl.wins,
  draws: r.wdl.draws,
  losses: r.wdl.losses,
  score: +r.trinomial.score.toFixed(3),
  elo: round(r.trinomial.elo),
  elo95: [round(r.trinomial.eloLow), round(r.trinomial.eloHigh)],
  endings: r.endReasons,
  ...(r.forfeits !== undefined ? { forfeits: r.forfeits } : {}),
  summary: opts.summary,
  ...(opts.note !== '' ? { note: opts.note } : {}),
};
for (const file of opts.manifest) {
  const m = JSON.parse(readFileSync(file, 'utf8')) as { training: { evaluation?: unknown[] } };
  m.training.evaluation = [...(m.training.evaluation ?? []), entry];
  writeFileSync(file, JSON.stringify(m, null, 1) + '\n');
  console.log(`recorded in ${file}: ${entry.wins}-${entry.draws}-${entry.losses} vs ${them!.name}`);
}
