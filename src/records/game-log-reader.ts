/**
 * The reader of the JSON-lines game log, with the format's reference documentation. The writer is
 * `game-log.ts` (lichess and floodgate write through it); the learners (TD-Leaf, batch training)
 * read through this module, which is strict: every line is checked, a bad line is reported with its
 * file and line number and skipped, and reading carries on with the rest of the file and directory.
 *
 * ## Format, version 1
 *
 * One file per game, UTF-8, one JSON object per line, `\n` line ends. The file is `<name>.jsonl.part`
 * while the game runs and is renamed to `<name>.jsonl` once its result line is written, so a
 * directory scan takes only `*.jsonl` files (finished games). Every line has a `type`:
 *
 * `header` (exactly one, the first line)
 * | field        | type                          | meaning |
 * |--------------|-------------------------------|---------|
 * | `version`    | 1                             | format version; a reader refuses versions it does not know |
 * | `game`       | `chess` \| `shogi`            | |
 * | `variant`    | string                        | lichess variant key (`standard`, `chess960`, `fromPosition`...); `standard` for shogi |
 * | `server`     | string                        | `lichess`, the CSA server's name (`floodgate`), `match`, `selfplay`... |
 * | `gameId`     | string                        | the server's game id (unique per server) |
 * | `url`        | string, optional              | |
 * | `start`      | string                        | `startpos` or the FEN/SFEN of the initial position |
 * | `ourSide`    | `first` \| `second`           | our colour (chess white/black, shogi sente/gote) |
 * | `players`    | `{first, second}`             | each `{name, rating?, title?}`: opponents and ratings as the server gave them |
 * | `clock`      | `{initialMs, incrementMs, byoyomiMs?}`, optional | the time control; absent for correspondence/unlimited |
 * | `daysPerTurn`| number, optional              | correspondence |
 * | `rated`, `speed`, `engine` | optional        | lichess rated flag and speed (`bullet`, `blitz`...), our engine's name |
 * | `startedAt`  | ISO 8601 string               | |
 *
 * `move` (one per ply, in order; a later line for the same ply replaces the earlier one and drops the plies after it)
 * | field      | type                      | meaning |
 * |------------|---------------------------|---------|
 * | `ply`      | integer >= 0              | plies since `start` |
 * | `side`     | `first` \| `second`       | the mover |
 * | `move`     | string                    | UCI (chess) or USI (shogi) |
 * | `ours`     | boolean                   | we played it |
 * | `position` | string                    | FEN/SFEN before the move |
 * | `clockMs`  | `{first, second}`, optional | both clocks after the move, milliseconds, as the server reported them |
 * | `search`   | object, optional (our moves) | `score` (`{cp}` or `{mate}` plies, from the mover's view), `depth`, `seldepth?`, `nodes`, `nps?`, `timeMs`, `pv` (moves, the first is the move played), `pvLeaf?` (FEN/SFEN at the end of the pv: TD-Leaf's leaf) |
 * | `offeredDraw` | boolean, optional      | |
 *
 * `takeback` `{plies}`: the game went back to `plies` plies; later move lines are void.
 *
 * `result` `{winner, status, plies, endedAt}` (the last line): `winner` is a side or `null` (draw, or
 * no result), `status` is how it ended in the server's words, lower case (lichess: `mate`, `resign`,
 * `outoftime`, `timeout`, `draw`, `stalemate`, `aborted`...; CSA: `resign`, `time_up`, `sennichite`,
 * `chudan`, `aborted`...).
 *
 * Versioning: a new field that old readers may ignore keeps the version; anything that changes the
 * meaning of an existing field, or a new line type readers must understand, is a new version. This
 * reader knows the versions in `GAME_LOG_READ_VERSIONS` and refuses a file of any other version.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GAME_KINDS, SIDES } from '../core/game.js';
import type { GameLogHeader, GameLogMove, GameLogResult } from './game-log.js';

/** Versions of the format this reader understands. */
export const GAME_LOG_READ_VERSIONS: readonly number[] = [1];

/** Something wrong in a log: `line` 0 means the file as a whole. */
export interface GameLogProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  /** The file cannot be used at all (unreadable, no header, unknown version). */
  readonly fatal: boolean;
}

/** A move line with the line number it came from. */
export type ReadGameLogMove = GameLogMove & { readonly line: number };

/** A read log: the moves in force (takebacks applied), each with its line number. */
export interface ReadGameLog {
  readonly file: string;
  readonly header: GameLogHeader;
  readonly moves: readonly ReadGameLogMove[];
  readonly result?: GameLogResult & { readonly line: number };
  /** No move or takeback line was skipped and the plies follow on: the game can be replayed. */
  readonly intact: boolean;
}

export interface GameLogReadOutcome {
  /** Undefined when a fatal problem made the file unusable. */
  readonly log?: ReadGameLog;
  readonly problems: readonly GameLogProblem[];
}

/** `file:line: message` (or `file: message` for the whole file). */
export const formatGameLogProblem = (p: GameLogProblem): string => `${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isSide = (v: unknown): boolean => (SIDES as readonly unknown[]).includes(v);
const isDate = (v: unknown): boolean => isStr(v) && !Number.isNaN(Date.parse(v));

/** Why a header is invalid, or undefined. The version is checked separately. */
const headerError = (h: Record<string, unknown>): string | undefined => {
  if (!(GAME_KINDS as readonly unknown[]).includes(h['game'])) return `header: game ${JSON.stringify(h['game'])} is not one of ${GAME_KINDS.join(', ')}`;
  for (const k of ['variant', 'server', 'gameId', 'start'] as const) if (!isStr(h[k]) || h[k] === '') return `header: ${k} missing or not a string`;
  if (!isSide(h['ourSide'])) return `header: ourSide ${JSON.stringify(h['ourSide'])} is not first/second`;
  const players = h['players'];
  if (!isRecord(players)) return 'header: players missing';
  for (const s of SIDES) {
    const p = players[s];
    if (!isRecord(p) || !isStr(p['name'])) return `header: players.${s}.name missing`;
    if (p['rating'] !== undefined && !isNum(p['rating'])) return `header: players.${s}.rating is not a number`;
  }
  const clock = h['clock'];
  if (clock !== undefined) {
    if (!isRecord(clock) || !isNum(clock['initialMs']) || !isNum(clock['incrementMs'])) return 'header: clock needs initialMs and incrementMs';
    if (clock['byoyomiMs'] !== undefined && !isNum(clock['byoyomiMs'])) return 'header: clock.byoyomiMs is not a number';
  }
  if (!isDate(h['startedAt'])) return 'header: startedAt missing or not a date';
  return undefined;
};

const searchError = (s: unknown): string | undefined => {
  if (!isRecord(s)) return 'search is not an object';
  const score = s['score'];
  if (!isRecord(score) || !(isNum(score['cp']) || isNum(score['mate']))) return 'search.score needs cp or mate';
  for (const k of ['depth', 'nodes', 'timeMs'] as const) if (!isNum(s[k])) return `search.${k} missing or not a number`;
  const pv = s['pv'];
  if (!Array.isArray(pv) || !pv.every(isStr)) return 'search.pv is not a list of moves';
  if (s['pvLeaf'] !== undefined && !isStr(s['pvLeaf'])) return 'search.pvLeaf is not a string';
  return undefined;
};

const moveError = (m: Record<string, unknown>): string | undefined => {
  if (!isInt(m['ply']) || m['ply'] < 0) return 'move: ply missing or not a non-negative integer';
  if (!isSide(m['side'])) return 'move: side is not first/second';
  if (!isStr(m['move']) || m['move'] === '') return 'move: move missing';
  if (typeof m['ours'] !== 'boolean') return 'move: ours missing';
  if (!isStr(m['position'])) return 'move: position missing';
  const c = m['clockMs'];
  if (c !== undefined && (!isRecord(c) || !isNum(c['first']) || !isNum(c['second']))) return 'move: clockMs needs first and second';
  if (m['search'] !== undefined) {
    const e = searchError(m['search']);
    if (e !== undefined) return `move: ${e}`;
  }
  return undefined;
};

const resultError = (r: Record<string, unknown>): string | undefined => {
  if (r['winner'] !== null && !isSide(r['winner'])) return 'result: winner is not first/second/null';
  if (!isStr(r['status'])) return 'result: status missing';
  if (!isInt(r['plies']) || r['plies'] < 0) return 'result: plies missing';
  if (!isDate(r['endedAt'])) return 'result: endedAt missing or not a date';
  return undefined;
};

/** Parses the text of one log; `file` names it in problems. Never throws. */
export function parseGameLogText(text: string, file: string): GameLogReadOutcome {
  const problems: GameLogProblem[] = [];
  const problem = (line: number, message: string, fatal = false): void => void problems.push({ file, line, message, fatal });
  let header: GameLogHeader | undefined;
  let moves: ReadGameLogMove[] = [];
  let result: (GameLogResult & { line: number }) | undefined;
  let intact = true;
  const lines = text.split('\n');
  // A file that does not end in a newline was cut short mid-line (a killed writer).
  const lastIndex = text.endsWith('\n') ? lines.length - 2 : lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      const truncated = i === lastIndex && !text.endsWith('\n');
      problem(n, truncated ? 'truncated line (no line end): skipped' : 'not JSON: skipped');
      // A move line may have been lost: the game cannot be replayed with certainty.
      intact = false;
      continue;
    }
    if (!isRecord(json) || !isStr(json['type'])) {
      problem(n, 'not an object with a "type": skipped');
      intact = false;
      continue;
    }
    const type = json['type'];
    if (type === 'header') {
      if (header !== undefined) {
        problem(n, 'second header: skipped');
        continue;
      }
      const version = json['version'];
      if (!isNum(version) || !GAME_LOG_READ_VERSIONS.includes(version)) {
        problem(n, `unknown game log version ${JSON.stringify(version)} (this reader knows ${GAME_LOG_READ_VERSIONS.join(', ')}): file skipped`, true);
        return { problems };
      }
      const e = headerError(json);
      if (e !== undefined) {
        problem(n, `${e}: file skipped`, true);
        return { problems };
      }
      header = json as unknown as GameLogHeader;
      continue;
    }
    if (header === undefined) {
      problem(n, `${type} line before the header: file skipped`, true);
      return { problems };
    }
    switch (type) {
      case 'move': {
        const e = moveError(json);
        if (e !== undefined) {
          problem(n, `${e}: skipped`);
          intact = false;
          break;
        }
        const m = { ...(json as unknown as GameLogMove), line: n };
        if (m.ply > moves.length) {
          // After a line already reported as skipped, the gaps that follow are its consequence.
          if (intact) problem(n, `move for ply ${m.ply} after ${moves.length} plies (a gap): skipped`);
          intact = false;
          break;
        }
        moves = moves.filter((x) => x.ply < m.ply);
        moves.push(m);
        break;
      }
      case 'takeback': {
        const plies = json['plies'];
        if (!isInt(plies) || plies < 0) {
          problem(n, 'takeback: plies missing: skipped');
          intact = false;
          break;
        }
        moves = moves.filter((x) => x.ply < plies);
        break;
      }
      case 'result': {
        const e = resultError(json);
        if (e !== undefined) {
          problem(n, `${e}: skipped`);
          break;
        }
        result = { ...(json as unknown as GameLogResult), line: n };
        break;
      }
      default:
        problem(n, `unknown line type ${JSON.stringify(type)}: skipped`);
    }
  }
  if (header === undefined) {
    problem(0, 'no header line: file skipped', true);
    return { problems };
  }
  return { log: { file, header, moves, ...(result ? { result } : {}), intact }, problems };
}

/** Reads one log file. */
export function readGameLogFile(file: string): GameLogReadOutcome {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { problems: [{ file, line: 0, message: `cannot read (${(e as Error).message})`, fatal: true }] };
  }
  return parseGameLogText(text, file);
}

/** Finished game logs (`*.jsonl`, not `.part`) under `dir`, recursively, sorted by path. */
export function listGameLogs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(p);
      else if (name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Reads every finished log under `dir`; unusable files are left out and reported. */
export function readGameLogDir(dir: string): { readonly logs: ReadGameLog[]; readonly problems: GameLogProblem[] } {
  const logs: ReadGameLog[] = [];
  const problems: GameLogProblem[] = [];
  for (const file of listGameLogs(dir)) {
    const r = readGameLogFile(file);
    problems.push(...r.problems);
    if (r.log) logs.push(r.log);
  }
  return { logs, problems };
}
