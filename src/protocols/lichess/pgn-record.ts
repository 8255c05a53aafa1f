/**
 * PGN records of lichess games for people: the standard tags, SAN moves, and comments carrying the clock
 * after each move (`[%clk h:mm:ss]`) and, for our moves, the search score from White's view with its depth
 * (`[%eval 0.35,12]`, `[%eval #-3,20]`) followed by the principal variation in SAN (`pv: Nf3 Nc6 Bb5`).
 * Written by the records module (chessops' PGN writer, src/records/pgn.ts). Pure: the caller writes the text.
 */
import type { SearchInfo } from '../../player/player.js';
import { writePgn } from '../../records/pgn.js';
import type { Color, GameStatus } from './types.js';

export interface PgnPlayer {
  readonly name: string;
  readonly rating?: number;
  readonly title?: string | null;
}

export interface PgnPlyNote {
  /** The mover's clock after the move, milliseconds. */
  readonly clockMs?: number;
  /** Our search for this move, when it is ours. */
  readonly search?: SearchInfo;
  /** That search's principal variation in SAN, from the position before the move. */
  readonly pvSan?: readonly string[];
}

export interface PgnGame {
  readonly event: string;
  readonly site: string;
  readonly date: Date;
  readonly white: PgnPlayer;
  readonly black: PgnPlayer;
  readonly result: PgnResult;
  readonly variant: string;
  /** `startpos` or a FEN. */
  readonly initialFen: string;
  /** `base+increment` in seconds, `-` without a clock, or `1/<seconds>` for correspondence. */
  readonly timeControl: string;
  readonly termination: string;
  readonly sans: readonly string[];
  /** Full-move number and side to move of the initial position. */
  readonly startFullmoves: number;
  readonly firstMover: Color;
  readonly notes: readonly (PgnPlyNote | undefined)[];
}

export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** The PGN result of a finished lichess game. */
export function pgnResult(status: GameStatus, winner: Color | undefined): PgnResult {
  if (winner === 'white') return '1-0';
  if (winner === 'black') return '0-1';
  if (['draw', 'stalemate', 'outoftime', 'timeout', 'insufficientMaterialClaim', 'variantEnd'].includes(status)) return '1/2-1/2';
  return '*';
}

/** The PGN `Termination` tag for a lichess status. */
export function pgnTermination(status: GameStatus): string {
  switch (status) {
    case 'outoftime':
      return 'Time forfeit';
    case 'timeout':
      return 'Abandoned';
    case 'cheat':
      return 'Rules infraction';
    case 'aborted':
    case 'noStart':
    case 'created':
    case 'started':
    case 'unknownFinish':
      return 'Unterminated';
    default:
      return 'Normal';
  }
}

const clk = (ms: number): string => {
  const t = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = t % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
};

/** A score from White's view: `0.35`, `-1.20`, `#3`, `#-2`. */
const evalText = (search: SearchInfo, mover: Color): string => {
  const sign = mover === 'white' ? 1 : -1;
  if ('mate' in search.score) {
    const moves = Math.ceil(Math.abs(search.score.mate) / 2) * Math.sign(search.score.mate) * sign;
    return `#${moves}`;
  }
  return ((search.score.cp * sign) / 100).toFixed(2);
};

const tag = (name: string, value: string): string => `[${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;

export function makePgn(g: PgnGame): string {
  const d = g.date;
  const date = `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCDate()).padStart(2, '0')}`;
  const tags: [string, string][] = [
    ['Event', g.event],
    ['Site', g.site],
    ['Date', date],
    ['White', g.white.name],
    ['Black', g.black.name],
    ['Result', g.result],
  ];
  if (g.white.rating !== undefined) tags.push(['WhiteElo', String(g.white.rating)]);
  if (g.black.rating !== undefined) tags.push(['BlackElo', String(g.black.rating)]);
  if (g.white.title) tags.push(['WhiteTitle', g.white.title]);
  if (g.black.title) tags.push(['BlackTitle', g.black.title]);
  tags.push(['TimeControl', g.timeControl], ['Termination', g.termination]);
  if (g.variant !== 'standard') tags.push(['Variant', g.variant]);
  // The FEN tag also gives the writer the move number and side of the first move.
  if (g.initialFen !== 'startpos') tags.push(['SetUp', '1'], ['FEN', g.initialFen]);

  let mover: Color = g.firstMover;
  const moves = g.sans.map((san, i) => {
    const note = g.notes[i];
    const parts: string[] = [];
    if (note?.search) parts.push(`[%eval ${evalText(note.search, mover)},${note.search.depth}]`);
    if (note?.clockMs !== undefined) parts.push(`[%clk ${clk(note.clockMs)}]`);
    if (note?.pvSan && note.pvSan.length > 0) parts.push(`pv: ${note.pvSan.join(' ')}`);
    mover = mover === 'white' ? 'black' : 'white';
    return { san, ...(parts.length > 0 ? { comment: parts.join(' ') } : {}) };
  });
  return writePgn({ tags, moves });
}

/** The tag pairs of a PGN text, in order. */
export function pgnTags(pgn: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of pgn.matchAll(/^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/gm)) {
    out.push([m[1] ?? '', (m[2] ?? '').replace(/\\(["\\])/g, '$1')]);
  }
  return out;
}

/**
 * Our PGN with the tags lichess's own export (`GET /game/export/{id}`) has and ours lacks (ECO, Opening,
 * UTCDate, UTCTime, WhiteRatingDiff...), added after our tags; our moves, evals and clocks are kept.
 */
export function mergeExportTags(ours: string, exported: string): string {
  const have = new Set(pgnTags(ours).map(([k]) => k));
  const extra = pgnTags(exported).filter(([k]) => !have.has(k));
  if (extra.length === 0) return ours;
  const split = ours.indexOf('\n\n');
  if (split < 0) return ours;
  return `${ours.slice(0, split)}\n${extra.map(([k, v]) => tag(k, v)).join('\n')}${ours.slice(split)}`;
}
