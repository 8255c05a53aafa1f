/**
 * What the pages say, in plain words: results, strength levels, scores from White's / Sente's side
 * (as lichess and lishogi show them), the eval bar's share and clock times. Pure functions (no DOM),
 * so tests/web/wording.test.ts checks them in Node.
 */

export type Side = 'first' | 'second';
export type GameKind = 'chess' | 'shogi';
export type Score = { readonly cp: number } | { readonly mate: number };

/** White/Black in chess, Sente/Gote in shogi. */
export const sideName = (game: GameKind, side: Side): string =>
  game === 'chess' ? (side === 'first' ? 'White' : 'Black') : side === 'first' ? 'Sente' : 'Gote';

/**
 * The strength levels of the setup form, weakest first: a name and what it means. `nodes` must be
 * src/web/messages.ts's LEVEL_NODES (the test checks it): the node budget per move sets the strength.
 */
export const LEVELS: readonly { readonly name: string; readonly nodes: number | undefined; readonly means: string }[] = [
  { name: 'Beginner', nodes: 100, means: 'looks at 100 positions a move: blunders often' },
  { name: 'Novice', nodes: 400, means: 'looks at 400 positions a move: sees simple captures' },
  { name: 'Casual', nodes: 1500, means: 'looks at 1,500 positions a move' },
  { name: 'Club player', nodes: 6000, means: 'looks at 6,000 positions a move' },
  { name: 'Strong club player', nodes: 25_000, means: 'looks at 25,000 positions a move' },
  { name: 'Expert', nodes: 100_000, means: 'looks at 100,000 positions a move' },
  { name: 'Master', nodes: 400_000, means: 'looks at 400,000 positions a move' },
  { name: 'Full strength', nodes: undefined, means: 'thinks as long as its clock allows' },
];

/** A score from the searching side's view turned to the first side's (White's, Sente's). */
export function scoreForFirst(score: Score, searcher: Side): Score {
  if (searcher === 'first') return score;
  return 'mate' in score ? { mate: -score.mate } : { cp: -score.cp };
}

/** `+0.35`, `-1.20`, `#3` (mate in 3 moves for the side the score is for), `#-2`. Mate scores are in plies. */
export function formatScore(score: Score): string {
  if ('mate' in score) return `#${score.mate > 0 ? '' : '-'}${Math.ceil(Math.abs(score.mate) / 2)}`;
  const v = score.cp / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

/**
 * The first side's share of the eval bar, 0..1, from a score of the first side's view: lichess's
 * winning-chance curve for chess (2 / (1 + e^(-0.00368208 cp)) - 1); shogi scores run about five
 * times larger, so its curve is flatter (lishogi's 0.0007).
 */
export function evalShare(game: GameKind, score: Score): number {
  if ('mate' in score) return score.mate > 0 ? 1 : 0;
  const k = game === 'chess' ? 0.00368208 : 0.0007;
  const chance = 2 / (1 + Math.exp(-k * score.cp)) - 1;
  return Math.min(1, Math.max(0, 0.5 + chance / 2));
}

/** The page's end reasons (src/core/game.ts outcomes and the web game's own) in words. */
const PLAY_REASONS: Record<string, string> = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'insufficient-material': 'insufficient material',
  'fifty-moves': 'the fifty-move rule',
  'threefold-repetition': 'threefold repetition',
  sennichite: 'repetition (sennichite)',
  'perpetual-check': 'perpetual check',
  'entering-king': 'entering-king declaration',
  'max-moves': 'the move limit',
  timeout: 'time',
  resign: 'resignation',
  'draw-agreed': 'agreement',
};

/** The result line of the play page: "You win by checkmate", "Kishi wins on time", "Draw by agreement". */
export function playResult(result: { readonly winner?: Side; readonly reason: string }, human: Side): string {
  if (result.reason === 'abandoned') return 'Game abandoned';
  const how = result.reason === 'timeout' ? 'on time' : `by ${PLAY_REASONS[result.reason] ?? result.reason.replace(/-/g, ' ')}`;
  if (result.winner === undefined) return `Draw ${how}`;
  return `${result.winner === human ? 'You win' : 'Kishi wins'} ${how}`;
}

/** The game logs' `status` words (lichess's: src/records/game-log.ts) in plain words, for /watch. */
const LOG_STATUS: Record<string, string> = {
  mate: 'by checkmate',
  resign: 'by resignation',
  outoftime: 'on time',
  timeout: 'on time',
  stalemate: 'by stalemate',
  draw: 'by agreement',
  'draw-agreed': 'by agreement',
  repetition: 'by repetition',
  sennichite: 'by repetition (sennichite)',
  'threefold-repetition': 'by repetition',
  'insufficient-material': 'by insufficient material',
  'fifty-moves': 'by the fifty-move rule',
  'perpetual-check': 'by perpetual check',
  'entering-king': 'by entering-king declaration',
  impasse27: 'by entering-king declaration',
  illegal: 'by an illegal move',
  cheat: 'by an illegal move',
  noStart: 'as the game never started',
  timeLimit: 'by the move limit',
  'max-moves': 'by the move limit',
  variantEnd: 'by the variant rules',
};

/** A finished game's result on /watch, from Kishi's side: "Kishi won on time", "Draw by repetition", "Aborted". */
export function watchResult(winner: Side | null, ours: Side, status: string): string {
  if (status === 'aborted' || status === 'abandoned') return 'Aborted';
  const how = LOG_STATUS[status] ?? `(${status})`;
  if (winner === null) return `Draw ${how}`;
  return `${winner === ours ? 'Kishi won' : 'Kishi lost'} ${how}`;
}

/** `4:59`; under ten seconds with tenths, `0:09.4`; never negative. */
export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000);
  const sec = Math.floor((t % 60000) / 1000);
  const tenths = t < 10_000 ? `.${Math.floor((t % 1000) / 100)}` : '';
  return `${m}:${String(sec).padStart(2, '0')}${tenths}`;
}
