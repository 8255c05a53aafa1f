/**
 * "Did you mean" for unknown config keys: lichess-bot's config.yml names (snake_case, other sections) map
 * to the Kishi key that does the same, and any other unknown key is matched to the nearest key of its
 * section (case, `_`/`-` and unit suffixes ignored). Pure.
 */

/**
 * lichess-bot keys (path inside its config.yml, whether pasted at the top level or under `lichess:`) whose
 * Kishi key has another name or lives in another section, with the advice to give.
 */
const LICHESS_BOT_KEYS: Readonly<Record<string, string>> = {
  token: 'set LICHESS_TOKEN in the environment',
  engine: 'the top-level engine section (engine.search, engine.ponder, engine.moveOverheadMs)',
  challenge: 'lichess.challenge',
  correspondence: 'lichess.correspondence',
  greeting: 'lichess.greeting',
  matchmaking: 'lichess.matchmaking',
  url: 'lichess.url',
  abort_time: 'lichess.abortTimeS',
  move_overhead: 'engine.moveOverheadMs',
  fake_think_time: 'lichess.fakeThinkTime',
  rate_limiting_delay: 'lichess.rateLimitingDelayMs',
  max_takebacks_accepted: 'lichess.maxTakebacks',
  quit_after_all_games_finish: 'lichess.onShutdown: finish (on Ctrl-C, finish the games in progress, then quit)',
  pgn_directory: 'records.dir (PGNs go to <records.dir>/lichess)',
  pgn_file_grouping: 'lichess.records.pgnFileGrouping',
  'engine.dir': 'engine.search (Kishi plays with its built-in engine)',
  'engine.name': 'engine.search (Kishi plays with its built-in engine)',
  'engine.working_dir': 'engine.search (Kishi plays with its built-in engine)',
  'engine.protocol': 'engine.search (Kishi plays with its built-in engine)',
  'engine.ponder': 'engine.ponder',
  'engine.polyglot': 'lichess.polyglot',
  'engine.draw_or_resign': 'lichess.drawOrResign',
  'engine.online_moves': 'lichess.onlineMoves',
  'engine.lichess_bot_tbs': 'lichess.onlineMoves (online tablebases)',
  'engine.uci_options': 'engine.hashMb, engine.ponder, engine.moveOverheadMs (the built-in engine\'s options)',
  'engine.go_commands': 'lichess.goOverrides.<speed>.nodes / .depth / .movetimeMs (per game speed: bullet, blitz, ...)',
  'challenge.concurrency': 'lichess.concurrency',
  'challenge.time_controls': 'lichess.challenge.speeds',
  'challenge.max_simultaneous_games_per_user': 'lichess.challenge.maxGamesPerOpponent',
  'correspondence.ponder': 'lichess.correspondence.ponder',
  'matchmaking.allow_matchmaking': 'lichess.matchmaking.enabled',
  'matchmaking.challenge_variant': 'lichess.matchmaking.variants',
  'matchmaking.challenge_initial_time': 'lichess.matchmaking.initialTimesS',
  'matchmaking.challenge_increment': 'lichess.matchmaking.incrementsS',
  'matchmaking.challenge_mode': 'lichess.matchmaking.mode',
  'matchmaking.opponent_min_rating': 'lichess.matchmaking.minRating',
  'matchmaking.opponent_max_rating': 'lichess.matchmaking.maxRating',
  'matchmaking.opponent_rating_difference': 'lichess.matchmaking.maxRatingDifference',
};

/** Lower case without `_`/`-` and without a unit suffix (`abort_time` and `abortTimeS` both become `aborttime`). */
const normalise = (key: string): string =>
  key
    .replace(/(Ms|S|H|Sec|Cp|Mb|MB)$/, '')
    .toLowerCase()
    .replace(/[_-]/g, '');

/** Edit distance with adjacent transpositions (optimal string alignment): `prot` is one edit from `port`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Advice for the unknown key at `path` (dotted), given the keys its section knows: a Kishi key to use
 * instead, or undefined when nothing is close.
 */
export function keyHint(path: string, known: readonly string[]): string | undefined {
  const inside = path.replace(/^lichess\./, '');
  const mapped = LICHESS_BOT_KEYS[inside];
  if (mapped !== undefined) return mapped;
  const key = path.slice(path.lastIndexOf('.') + 1);
  const parent = path.includes('.') ? `${path.slice(0, path.lastIndexOf('.'))}.` : '';
  const n = normalise(key);
  let best: { key: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(n, normalise(k));
    if (d <= Math.max(1, Math.min(2, Math.floor(n.length / 4))) && (best === undefined || d < best.d)) best = { key: k, d };
  }
  return best === undefined ? undefined : `${parent}${best.key}`;
}
