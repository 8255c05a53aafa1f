/**
 * EPD test positions (Extended Position Description, PGN standard section 16.2) with the operations
 * test suites use:
 * - `bm` best move(s) and `am` avoid move(s), in SAN (WAC, BK, ...);
 * - `id "..."`: the position's name; the theme is the id without its trailing number
 *   (`STS(v1.0) Undermining.001` -> `STS(v1.0) Undermining`, `WAC.001` -> `WAC`);
 * - STS point scoring: `c7 "<SAN moves>"` or `c9 "<UCI moves>"` with `c8 "<points>"`
 *   (the newer STS files), or `c0 "Qxb7=10, Qf3=3"` (STS v1-v15).
 * Moves are resolved against the position with chessops, so both SAN and UCI compare as moves.
 */
import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import type { NormalMove } from 'chessops/types';
import { makeUci, parseUci } from 'chessops/util';
import { KishiError, Result } from '../../core/result.js';

export interface EpdPosition {
  /** The position as a full FEN (halfmove 0, fullmove 1 unless given by `hmvc`/`fmvn`). */
  readonly fen: string;
  readonly id: string;
  readonly theme: string;
  /** Best moves, UCI (king-takes-rook castling normalised to chessops' form). */
  readonly bestMoves: readonly string[];
  readonly avoidMoves: readonly string[];
  /** Points per move (UCI), when the position is scored STS style; else empty. */
  readonly points: Readonly<Record<string, number>>;
  /** The line it came from (`file:line`). */
  readonly source: string;
}

/** Splits EPD operations: `bm Qd1+; id "BK.01";` -> [['bm', ['Qd1+']], ['id', ['BK.01']]]. */
export function parseEpdOperations(text: string): [string, string[]][] {
  const ops: [string, string[]][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (i >= n) break;
    let op = '';
    while (i < n && !/[\s;]/.test(text[i]!)) op += text[i++];
    const operands: string[] = [];
    for (;;) {
      while (i < n && text[i] === ' ') i++;
      if (i >= n || text[i] === ';') {
        i++;
        break;
      }
      if (text[i] === '"') {
        const end = text.indexOf('"', i + 1);
        operands.push(text.slice(i + 1, end < 0 ? n : end));
        i = end < 0 ? n : end + 1;
      } else {
        let word = '';
        while (i < n && !/[\s;]/.test(text[i]!)) word += text[i++];
        operands.push(word);
      }
    }
    if (op !== '') ops.push([op, operands]);
  }
  return ops;
}

/** The theme of an id: the id without a trailing `.NNN` / ` NNN` number. */
export const themeOf = (id: string): string => id.replace(/[.\s-]*\d+$/, '').trim() || id;

const uci = (m: NormalMove): string => makeUci(m);

/** Parses one EPD line. */
export function parseEpdLine(line: string, source: string, fallbackTheme: string): Result<EpdPosition, KishiError> {
  const fields = line.trim().split(/\s+/);
  if (fields.length < 4) return Result.err(new KishiError('ERR_EPD', `${source}: expected an EPD line: ${JSON.stringify(line)}`));
  const rest = line.trim().split(/\s+/).slice(4).join(' ');
  const ops = parseEpdOperations(rest);
  const get = (op: string): string[] | undefined => ops.find(([o]) => o === op)?.[1];
  const hmvc = get('hmvc')?.[0] ?? '0';
  const fmvn = get('fmvn')?.[0] ?? '1';
  const setup = parseFen(`${fields.slice(0, 4).join(' ')} ${hmvc} ${fmvn}`);
  if (setup.isErr) return Result.err(new KishiError('ERR_EPD', `${source}: bad position: ${JSON.stringify(line)}`));
  const posR = Chess.fromSetup(setup.value);
  if (posR.isErr) return Result.err(new KishiError('ERR_EPD', `${source}: illegal position: ${JSON.stringify(line)}`));
  const pos = posR.value;
  const san = (text: string): Result<string, KishiError> => {
    const m = parseSan(pos, text);
    return m !== undefined && 'from' in m ? Result.ok(uci(m)) : Result.err(new KishiError('ERR_EPD', `${source}: move ${JSON.stringify(text)} is not legal in ${makeFen(pos.toSetup())}`));
  };
  const fromUci = (text: string): Result<string, KishiError> => {
    const m = parseUci(text);
    return m !== undefined && 'from' in m && pos.isLegal(normalizeMove(pos, m)) ? Result.ok(uci(normalizeMove(pos, m) as NormalMove)) : Result.err(new KishiError('ERR_EPD', `${source}: move ${JSON.stringify(text)} is not legal`));
  };
  const all = (texts: readonly string[], f: (t: string) => Result<string, KishiError>): Result<string[], KishiError> => {
    const out: string[] = [];
    for (const t of texts) {
      const r = f(t);
      if (r.isErr) return Result.err(r.error);
      out.push(r.value);
    }
    return Result.ok(out);
  };
  const bm = all(get('bm') ?? [], san);
  const am = all(get('am') ?? [], san);
  if (bm.isErr) return Result.err(bm.error);
  if (am.isErr) return Result.err(am.error);

  // STS points.
  const points: Record<string, number> = {};
  const c8 = get('c8')?.[0];
  const listOf = (op: string): string[] | undefined => get(op)?.[0]?.trim().split(/\s+/);
  if (c8 !== undefined && (get('c9') !== undefined || get('c7') !== undefined)) {
    const pts = c8.trim().split(/\s+/).map(Number);
    const moves = get('c9') !== undefined ? all(listOf('c9')!, fromUci) : all(listOf('c7')!, san);
    if (moves.isErr) return Result.err(moves.error);
    moves.value.forEach((m, k) => (points[m] = pts[k] ?? 0));
  } else if (get('c0') !== undefined) {
    for (const part of get('c0')![0]!.split(',')) {
      const mm = /^\s*(\S+)\s*=\s*(\d+)\s*$/.exec(part);
      if (!mm) continue;
      const m = san(mm[1]!);
      if (m.isErr) return Result.err(m.error);
      points[m.value] = Number(mm[2]);
    }
  }
  const id = get('id')?.[0] ?? source;
  return Result.ok({
    fen: makeFen(pos.toSetup()),
    id,
    theme: get('id') !== undefined ? themeOf(id) : fallbackTheme,
    bestMoves: bm.value,
    avoidMoves: am.value,
    points,
    source,
  });
}

/** The engine's move (UCI, either castling notation) in the EPD's normalised form, or undefined if illegal. */
export function normaliseEngineMove(fen: string, text: string): string | undefined {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const m = parseUci(text);
  if (m === undefined || !('from' in m)) return undefined;
  const n = normalizeMove(pos, m);
  return pos.isLegal(n) ? uci(n as NormalMove) : undefined;
}
