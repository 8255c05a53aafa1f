/**
 * Text for people: the live progress line and the end-of-match report, in the shape fastchess and
 * cutechess-cli print (Elo +- interval, nElo, LOS, draw ratio, pentanomial, LLR with its bounds).
 */
import type { SprtParams, SprtStatus } from './stats/index.js';
import type { MatchProgress, MatchSummary } from './match-runner.js';
import type { TallySnapshot } from './match-tally.js';

const fmt = (x: number, d = 2): string => (Number.isFinite(x) ? x.toFixed(d) : x > 0 ? 'inf' : x < 0 ? '-inf' : 'nan');
/** A "+-": n/a when the interval is unknown (infinite), e.g. after one game or one pair. */
const err = (x: number, d = 2): string => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const signed = (x: number, d = 2): string => (Number.isFinite(x) && x >= 0 ? `+${fmt(x, d)}` : fmt(x, d));
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** `1h02m`, `3m10s`, `12s`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** The live line: `[12/100] +5 =4 -3 (58.3%) Elo +57.9 +- 120.3 ptnml +40.1 +- 90.2 LLR 0.45 [-2.94, 2.94] 1m02s, ~4m10s left`. */
export function formatProgressLine(s: TallySnapshot, progress: MatchProgress, sprt?: SprtStatus): string {
  const t = s.trinomial;
  const parts = [
    `[${progress.gamesDone}/${progress.gamesPlanned}]`,
    `+${s.wdl.wins} =${s.wdl.draws} -${s.wdl.losses}`,
    `(${pct(t.score)})`,
    `Elo ${signed(t.elo, 1)} +- ${err(t.eloError, 1)}`,
  ];
  const pairs = s.pentanomial.reduce((a, b) => a + b, 0);
  if (pairs > 0) parts.push(`ptnml ${signed(s.pentanomialEstimate.elo, 1)} +- ${err(s.pentanomialEstimate.eloError, 1)}`);
  if (sprt !== undefined) parts.push(`LLR ${fmt(sprt.llr)} [${fmt(sprt.lower)}, ${fmt(sprt.upper)}]`);
  parts.push(formatDuration(progress.elapsedMs) + (progress.remainingMs !== undefined ? `, ~${formatDuration(progress.remainingMs)} left` : ''));
  return parts.join(' ');
}

function sprtLine(params: SprtParams, status: SprtStatus): string {
  const verdict = status.decision === 'H1' ? 'H1 accepted' : status.decision === 'H0' ? 'H0 accepted' : 'no decision yet';
  return `LLR: ${fmt(status.llr)} (${fmt(status.lower)}, ${fmt(status.upper)}) [${fmt(params.elo0)}, ${fmt(params.elo1)}] ${params.model ?? 'normalized'} Elo, alpha ${params.alpha ?? 0.05} beta ${params.beta ?? 0.05}: ${verdict}`;
}

/** The end-of-match report (several lines, no trailing newline). */
export function formatMatchReport(m: MatchSummary): string {
  const r = m.results;
  const t = r.trinomial;
  const p = r.pentanomialEstimate;
  const [a, b] = m.engines;
  const lines = [
    `Results of ${a?.name} vs ${b?.name} (${m.game}${m.variant !== 'standard' ? ` ${m.variant}` : ''}; ${a?.timeControl}${a?.timeControl !== b?.timeControl ? ` vs ${b?.timeControl}` : ''}):`,
    `Games: ${r.games}, Wins: ${r.wdl.wins}, Losses: ${r.wdl.losses}, Draws: ${r.wdl.draws}, Points: ${r.points} (${pct(t.score)})`,
    `Elo (games):  ${signed(t.elo)} +/- ${err(t.eloError)} [${fmt(t.eloLow)}, ${fmt(t.eloHigh)}], nElo ${signed(t.nElo)} +/- ${err(t.nEloError)}`,
  ];
  const pairs = r.pentanomial.reduce((x, y) => x + y, 0);
  if (pairs > 0) {
    lines.push(`Elo (pairs):  ${signed(p.elo)} +/- ${fmt(p.eloError)} [${fmt(p.eloLow)}, ${fmt(p.eloHigh)}], nElo ${signed(p.nElo)} +/- ${fmt(p.nEloError)}`);
    lines.push(`Ptnml(0-2): [${r.pentanomial.join(', ')}], LOS: ${pct(p.los)}, DrawRatio: ${pct(t.drawRatio)}`);
  } else {
    lines.push(`LOS: ${pct(t.los)}, DrawRatio: ${pct(t.drawRatio)}`);
  }
  if (m.sprt !== undefined) lines.push(sprtLine(m.sprt.params, m.sprt.status));
  const reasons = Object.entries(r.endReasons)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${v}`);
  if (reasons.length > 0) lines.push(`Endings: ${reasons.join(', ')}`);
  for (const [engine, byReason] of Object.entries(r.forfeits)) {
    lines.push(`Forfeits by ${engine}: ${Object.entries(byReason).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  if (m.stoppedEarly === 'sprt') lines.push(`Stopped early: the SPRT concluded after ${m.gamesPlayed} of ${m.gamesPlanned} games.`);
  if (m.stoppedEarly === 'abort') lines.push(`Interrupted after ${m.gamesPlayed} of ${m.gamesPlanned} games.`);
  lines.push(`Time: ${formatDuration(m.durationMs)}`);
  return lines.join('\n');
}
