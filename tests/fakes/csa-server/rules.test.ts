/** The fake CSA server's own rules (shogiops and the CSA text, not the client's): positions, strict moves, the declaration. */
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { Shogi } from 'shogiops/variant/shogi';
import { describe, expect, it } from 'vitest';
import { canDeclareWin, csaPositionToSfen, parseCsaMove, STANDARD_ROWS } from './rules.js';

const pos = (sfen: string): Shogi => parseSfen('standard', sfen, false).unwrap() as Shogi;
const EMPTY = ' *  *  *  *  *  *  *  *  * ';

describe('fake CSA server rules', () => {
  it('reads positions, PI and 00AL (the rest of the pieces to one hand)', () => {
    expect(STANDARD_ROWS[0]).toBe('P1-KY-KE-GI-KI-OU-KI-GI-KE-KY');
    expect(csaPositionToSfen([...STANDARD_ROWS, '+'])).toBe(makeSfen(Shogi.default()));
    expect(csaPositionToSfen(['PI', '-'])).toBe('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1');
    const rows = ['P1-OU' + EMPTY.slice(3), ...[2, 3, 4, 5, 6, 7, 8].map((r) => `P${r}${EMPTY}`), 'P9' + EMPTY.slice(0, -3) + '+OU'];
    expect(csaPositionToSfen([...rows, 'P+00HI00FU', 'P-00AL', '+'])).toBe('k8/9/9/9/9/9/9/9/8K b RPr2b4g4s4n4l17p 1');
  });

  it('takes moves strictly: sign, piece name after the move, legality', () => {
    const start = Shogi.default();
    expect(makeUsi(parseCsaMove(start, '+7776FU')!)).toBe('7g7f');
    expect(parseCsaMove(start, '-3334FU')).toBeUndefined(); // not gote's turn
    expect(parseCsaMove(start, '+7776KI')).toBeUndefined(); // a pawn stands on 77
    expect(parseCsaMove(start, '+7775FU')).toBeUndefined(); // not a pawn move
    expect(parseCsaMove(start, '7776FU')).toBeUndefined(); // no sign
    const open = pos('lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3');
    expect(makeUsi(parseCsaMove(open, '+8822UM')!)).toBe('8h2b+');
    expect(makeUsi(parseCsaMove(open, '+8822KA')!)).toBe('8h2b');
    expect(parseCsaMove(open, '+8822RY')).toBeUndefined();
    expect(makeUsi(parseCsaMove(pos('4k4/9/4P4/9/9/9/9/9/4K4 b G 1'), '+0052KI')!)).toBe('G*5b');
  });

  it('allows the declaration by the 27-point rule only', () => {
    // Sente's king on 9a; in the camp 4 golds, 6 pawns, a rook and a bishop (12 pieces, 20 points).
    expect(canDeclareWin(pos('KGGGG4/PPPPPPRB1/9/9/9/9/9/9/8k b RBSS 1'))).toBe(true); // + hand 12 = 32 >= 28
    expect(canDeclareWin(pos('KGGGG4/PPPPPPRB1/9/9/9/9/9/9/8k b RB 1'))).toBe(true); // 30
    expect(canDeclareWin(pos('KGGGG4/PPPPPPRB1/9/9/9/9/9/9/8k b RSS 1'))).toBe(false); // 27 < 28 for sente
    expect(canDeclareWin(pos('KGGGG4/PPPPP4/9/9/9/9/9/9/8k b RRBBSS 1'))).toBe(false); // 9 pieces
    expect(canDeclareWin(pos('1GGGG4/PPPPPPRB1/K8/9/9/9/9/9/8k b RBSS 1'))).toBe(true); // rank 3 is in the camp
    expect(canDeclareWin(pos('1GGGG4/PPPPPPRB1/9/K8/9/9/9/9/8k b RBSS 1'))).toBe(false); // rank 4 is not
    expect(canDeclareWin(pos('KGGGG4/1PPPPPPRB/r8/9/9/9/9/9/8k b BSSNNLL 1'))).toBe(false); // in check
    expect(canDeclareWin(pos('KGGGG4/1PPPPPPRB/9/9/4r4/9/9/9/8k b BSSNNLL 1'))).toBe(true); // 31, no check
    // Gote needs 27 only: 12 pieces (20 points) in its camp and 7 in hand.
    expect(canDeclareWin(pos('K8/9/9/9/9/9/9/1brpppppp/4ggggk w rss 1'))).toBe(true);
    expect(canDeclareWin(pos('K8/9/9/9/9/9/9/1brpppppp/4ggggk w rs 1'))).toBe(false);
  });
});
