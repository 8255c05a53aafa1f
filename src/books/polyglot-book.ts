/**
 * Polyglot opening books (`.bin`): a sorted array of 16-byte big-endian entries
 * `key u64 | move u16 | weight u16 | learn u32` (format by Michel Van den Bergh, documented at
 * http://hgm.nubati.net/book_format.html). Entries of one position are adjacent; a binary search finds
 * the first. Keys are the Polyglot Zobrist keys (`polyglotKey` in src/games/chess/zobrist.ts; the start
 * position's key is 0x463b96181691fc9c).
 *
 * A move is packed as `to file | to row << 3 | from file << 6 | from row << 9 | promotion << 12`
 * (promotion 1 knight, 2 bishop, 3 rook, 4 queen); castling is stored as the king taking its own rook
 * (e1h1, e1a1, e8h8, e8a8), which `decodePolyglotMove` turns into UCI for lichess.
 *
 * Pure: parsing works on bytes; `encodePolyglotBook` builds books (tests make their fixtures with it).
 */

export interface PolyglotEntry {
  readonly key: bigint;
  /** The packed move (see above). */
  readonly move: number;
  readonly weight: number;
  readonly learn: number;
}

export const POLYGLOT_ENTRY_BYTES = 16;

/** A book held in memory; `entries(key)` is a binary search. */
export class PolyglotBook {
  private readonly view: DataView;
  readonly size: number;

  constructor(bytes: Uint8Array) {
    if (bytes.length % POLYGLOT_ENTRY_BYTES !== 0) {
      throw new Error(`a Polyglot book is a multiple of 16 bytes; this one has ${bytes.length}`);
    }
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.size = bytes.length / POLYGLOT_ENTRY_BYTES;
  }

  private keyAt(i: number): bigint {
    return this.view.getBigUint64(i * POLYGLOT_ENTRY_BYTES, false);
  }

  entryAt(i: number): PolyglotEntry {
    const o = i * POLYGLOT_ENTRY_BYTES;
    return {
      key: this.view.getBigUint64(o, false),
      move: this.view.getUint16(o + 8, false),
      weight: this.view.getUint16(o + 10, false),
      learn: this.view.getUint32(o + 12, false),
    };
  }

  /** Every entry of the position with this key, in file order. */
  entries(key: bigint): PolyglotEntry[] {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keyAt(mid) < key) lo = mid + 1;
      else hi = mid;
    }
    const out: PolyglotEntry[] = [];
    for (let i = lo; i < this.size && this.keyAt(i) === key; i++) out.push(this.entryAt(i));
    return out;
  }
}

const FILES = 'abcdefgh';
const PROMOTIONS = ['', 'n', 'b', 'r', 'q'] as const;

const square = (file: number, row: number): string => `${FILES[file]}${row + 1}`;

/** The packed move as Polyglot writes it, in UCI with castling as king-takes-rook (`e1h1`). */
export function polyglotMoveToRawUci(move: number): string {
  const toFile = move & 7;
  const toRow = (move >> 3) & 7;
  const fromFile = (move >> 6) & 7;
  const fromRow = (move >> 9) & 7;
  const promo = PROMOTIONS[(move >> 12) & 7] ?? '';
  return `${square(fromFile, fromRow)}${square(toFile, toRow)}${promo}`;
}

/** What decoding needs to know about the position: which piece stands where. */
export interface BoardProbe {
  /** `king`, `rook`... and colour of the piece on a square like `e1`, if any. */
  pieceAt(square: string): { readonly role: string; readonly color: 'white' | 'black' } | undefined;
}

/**
 * The book move in UCI for lichess: a king taking its own rook is castling, sent as king-to-rook in
 * Chess960 and as the king's two-square move (`e1g1`) otherwise, where the king stands on the e-file.
 */
export function decodePolyglotMove(move: number, board: BoardProbe, chess960: boolean): string {
  const raw = polyglotMoveToRawUci(move);
  const from = raw.slice(0, 2);
  const to = raw.slice(2, 4);
  const mover = board.pieceAt(from);
  const target = board.pieceAt(to);
  const castles = mover?.role === 'king' && target?.role === 'rook' && target.color === mover.color;
  if (!castles || chess960 || from[0] !== 'e') return raw;
  const kingTo = to[0]! > 'e' ? 'g' : 'c';
  return `${from}${kingTo}${from[1]}`;
}

/** Packs a UCI move the Polyglot way (castling must already be king-takes-rook). */
export function encodePolyglotMove(uci: string): number {
  const f = (c: string): number => FILES.indexOf(c);
  const r = (c: string): number => Number(c) - 1;
  const promo = uci.length > 4 ? PROMOTIONS.indexOf(uci[4] as (typeof PROMOTIONS)[number]) : 0;
  return f(uci[2]!) | (r(uci[3]!) << 3) | (f(uci[0]!) << 6) | (r(uci[1]!) << 9) | (Math.max(0, promo) << 12);
}

/** Builds a book file from entries (sorted by key, as the format requires; stable within a key). */
export function encodePolyglotBook(entries: readonly PolyglotEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out = new Uint8Array(sorted.length * POLYGLOT_ENTRY_BYTES);
  const view = new DataView(out.buffer);
  sorted.forEach((e, i) => {
    const o = i * POLYGLOT_ENTRY_BYTES;
    view.setBigUint64(o, e.key, false);
    view.setUint16(o + 8, e.move, false);
    view.setUint16(o + 10, e.weight, false);
    view.setUint32(o + 12, e.learn, false);
  });
  return out;
}
