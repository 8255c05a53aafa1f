import { describe, expect, it } from 'vitest';
import { LEVEL_NODES, limitsFor, moveTimeCap, parseClientMessage } from '../../src/web/messages.js';

const NEW = { t: 'new', game: 'shogi', side: 'first', engine: 'alphabeta', level: 2, control: { initialMs: 60_000, incrementMs: 0, byoyomiMs: 10_000 } };
const err = (raw: string): string => {
  const r = parseClientMessage(raw);
  return r.isErr ? r.error.message : 'accepted';
};

describe('messages from the page', () => {
  it('accepts a well-formed new game, move, and the game actions', () => {
    expect(parseClientMessage(JSON.stringify({ ...NEW, name: ' Ann ' })).unwrap()).toEqual({ ...NEW, name: 'Ann' });
    expect(parseClientMessage('{"t":"move","ply":3,"move":"P*5e"}').unwrap()).toEqual({ t: 'move', ply: 3, move: 'P*5e' });
    expect(parseClientMessage('{"t":"move","ply":0,"move":"e7e8q"}').isOk).toBe(true);
    for (const t of ['resign', 'draw', 'takeback', 'analyse']) expect(parseClientMessage(JSON.stringify({ t })).unwrap()).toEqual({ t });
    expect(parseClientMessage('{"t":"lines","ply":12}').unwrap()).toEqual({ t: 'lines', ply: 12 });
    const pasted = { t: 'analyse', game: 'shogi', start: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', moves: ['7g7f', 'P*5e'] };
    expect(parseClientMessage(JSON.stringify(pasted)).unwrap()).toEqual(pasted);
    expect(err(JSON.stringify({ ...pasted, moves: ['7g7f', '<script>'] }))).toBe('analyse: moves must be up to 600 moves in UCI (chess) or USI (shogi)');
    expect(err(JSON.stringify({ ...pasted, start: 'x"y' }))).toBe('analyse: start must be a FEN or SFEN');
    expect(err(JSON.stringify({ ...pasted, moves: Array(601).fill('7g7f') }))).toMatch(/^(analyse: moves must be up to 600|message too long)/);
    expect(err('{"t":"lines","ply":-1}')).toBe('lines needs the ply of the position');
  });

  it('refuses malformed and forged messages with a reason', () => {
    expect(err('not json')).toBe('message is not JSON');
    expect(err('[1]')).toBe('message is not an object');
    expect(err('{"t":"cheat"}')).toBe('unknown message type "cheat"');
    expect(err(JSON.stringify({ ...NEW, game: 'go' }))).toBe('game must be chess or shogi');
    expect(err(JSON.stringify({ ...NEW, level: 99 }))).toBe(`level must be an integer from 1 to ${LEVEL_NODES.length}`);
    expect(err(JSON.stringify({ ...NEW, engine: 'stockfish' }))).toMatch(/^engine must be one of/);
    expect(err(JSON.stringify({ ...NEW, game: 'chess' }))).toBe('byoyomi is for shogi only');
    expect(err(JSON.stringify({ ...NEW, control: { initialMs: 0, incrementMs: 0, byoyomiMs: 0 } }))).toBe('the time control must give at least one second');
    expect(err(JSON.stringify({ ...NEW, control: { initialMs: -1, incrementMs: 0, byoyomiMs: 0 } }))).toMatch(/^control needs/);
    expect(err(JSON.stringify({ ...NEW, name: '<script>' }))).toMatch(/^name:/);
    expect(err('{"t":"move","ply":-1,"move":"e2e4"}')).toBe('move needs the ply it was made on');
    expect(err('{"t":"move","ply":1,"move":"e2e4; rm"}')).toBe('move must be in UCI (chess) or USI (shogi)');
    expect(err('{"t":"join","id":"../etc"}')).toBe('join needs a game id');
    expect(err(JSON.stringify({ t: 'draw', pad: 'x'.repeat(9000) }))).toMatch(/^message too long/);
  });

  it('turns a level into a node budget, the top level into clock play', () => {
    expect(limitsFor(1)).toEqual({ nodes: LEVEL_NODES[0] });
    expect(limitsFor(LEVEL_NODES.length)).toEqual({});
    expect(moveTimeCap(60_000, { initialMs: 60_000, incrementMs: 1_000, byoyomiMs: 0 })).toBe(2_800);
    expect(moveTimeCap(0, { initialMs: 0, incrementMs: 0, byoyomiMs: 10_000 })).toBe(8_000);
  });
});
