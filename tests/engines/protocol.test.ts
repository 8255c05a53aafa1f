import { describe, expect, it } from 'vitest';
import { goCommand, optionValueProblem, parseOptionLine, positionCommand } from '../../src/engines/engine-client.js';
import { parseEngineSpec, resolveCommand } from '../../src/engines/engine-spec.js';
import { parseInfoLine } from '../../src/engines/info.js';

const clock = { firstMs: 1000, secondMs: 2000, firstIncMs: 100, secondIncMs: 100, byoyomiMs: 0 };

describe('UCI/USI commands', () => {
  it('position', () => {
    expect(positionCommand('uci', 'startpos', [])).toBe('position startpos');
    expect(positionCommand('uci', '8/8/8/8/8/8/8/K6k w - - 0 1', ['a1a2'])).toBe('position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2');
    expect(positionCommand('usi', 'startpos', ['7g7f'])).toBe('position startpos moves 7g7f');
    expect(positionCommand('usi', '4k4/9/9/9/9/9/9/9/4K4 b - 1', [])).toBe('position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1');
  });

  it('go with clocks: UCI white = first, USI black = first', () => {
    expect(goCommand('uci', { clock })).toBe('go wtime 1000 btime 2000 winc 100 binc 100');
    expect(goCommand('usi', { clock })).toBe('go btime 1000 wtime 2000 binc 100 winc 100');
    expect(goCommand('usi', { clock: { ...clock, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 5000 } })).toBe('go btime 1000 wtime 2000 byoyomi 5000');
    expect(goCommand('uci', { clock: { ...clock, firstIncMs: 0, secondIncMs: 0, movesToGo: 12 } })).toBe('go wtime 1000 btime 2000 movestogo 12');
    // USI: a mover on byoyomi facing an opponent with increments gets its byoyomi only.
    const odds = { ...clock, firstIncMs: 100, secondIncMs: 0, byoyomiMs: 1000 };
    expect(goCommand('usi', { clock: odds, toMove: 'second' })).toBe('go btime 1000 wtime 2000 byoyomi 1000');
    expect(goCommand('usi', { clock: { ...odds, byoyomiMs: 0 }, toMove: 'first' })).toBe('go btime 1000 wtime 2000 binc 100 winc 0');
  });

  it('swaps the clocks for engines that read them the wrong way round', () => {
    expect(goCommand('usi', { clock }, true)).toBe('go btime 2000 wtime 1000 binc 100 winc 100');
    expect(parseEngineSpec('cmd=/usr/games/fairy-stockfish,swapclocks').unwrap().swapClocks).toBe(true);
    expect(parseEngineSpec('cmd=/usr/games/fairy-stockfish').unwrap().swapClocks).toBeUndefined();
  });

  it('go with hard limits; USI movetime becomes a byoyomi', () => {
    expect(goCommand('uci', { movetimeMs: 250 })).toBe('go movetime 250');
    expect(goCommand('usi', { movetimeMs: 250 })).toBe('go btime 0 wtime 0 byoyomi 250');
    expect(goCommand('uci', { nodes: 5000, depth: 7 })).toBe('go nodes 5000 depth 7');
    expect(goCommand('uci', {})).toBe('go infinite');
  });

  it('go ponder, infinite and USI mate (the Player adapter asks for them)', () => {
    expect(goCommand('usi', { clock, ponder: true })).toBe('go ponder btime 1000 wtime 2000 binc 100 winc 100');
    expect(goCommand('uci', { clock, ponder: true })).toBe('go ponder wtime 1000 btime 2000 winc 100 binc 100');
    expect(goCommand('usi', { infinite: true })).toBe('go infinite');
    expect(goCommand('usi', { clock, infinite: true, ponder: true })).toBe('go ponder infinite');
    expect(goCommand('usi', { ponder: true })).toBe('go ponder infinite');
    expect(goCommand('usi', { mate: true })).toBe('go mate infinite');
    expect(goCommand('usi', { mate: true, movetimeMs: 3000 })).toBe('go mate 3000');
    expect(goCommand('usi', { depth: 6 })).toBe('go depth 6');
  });

  it('reads option and info lines', () => {
    expect(parseOptionLine('option name Skill Level type spin default 20 min 0 max 20')).toEqual({ name: 'Skill Level', type: 'spin', default: '20', min: 0, max: 20 });
    expect(parseOptionLine('option name Clear Hash type button')).toEqual({ name: 'Clear Hash', type: 'button' });
    expect(parseOptionLine('option name Debug Log File type string default ')).toEqual({ name: 'Debug Log File', type: 'string', default: '' });
    expect(parseInfoLine('info depth 12 seldepth 18 multipv 1 score cp -35 lowerbound nodes 12345 nps 100000 hashfull 3 tbhits 0 time 123 pv e2e4 e7e5')).toEqual({
      depth: 12,
      seldepth: 18,
      multipv: 1,
      score: { cp: -35 },
      bound: 'lower',
      nodes: 12345,
      nps: 100000,
      hashfull: 3,
      timeMs: 123,
      pv: ['e2e4', 'e7e5'],
    });
    expect(parseInfoLine('info depth 3 score mate -2 pv 7g7f').score).toEqual({ mate: -2 });
    expect(parseInfoLine('info score mate + pv 7g7f').score).toEqual({ mate: 1 });
    expect(parseInfoLine('info string hello world')).toEqual({ string: 'hello world' });
  });
});

describe('engine specs', () => {
  it('reads key=value specs with spaces in option names', () => {
    const s = parseEngineSpec('name=sf3,cmd=/usr/games/stockfish,option.Skill Level=3,option.Hash=16,nodes=1000,rating=1350,tc=10+0.1').unwrap();
    expect(s).toEqual({
      name: 'sf3',
      command: '/usr/games/stockfish',
      args: [],
      options: { 'Skill Level': '3', Hash: '16' },
      time: { tc: '10+0.1', nodes: 1000 },
      rating: 1350,
      kishi: false,
    });
  });

  it('reads the protocol:command form of kishi csa --engine', () => {
    expect(parseEngineSpec('usi:/usr/games/fairy-stockfish').unwrap()).toEqual({ command: '/usr/games/fairy-stockfish', args: [], protocol: 'usi', options: {}, time: {}, kishi: false });
    const yane = parseEngineSpec(' usi:/opt/yane --threads=2 --eval a,b ').unwrap();
    expect([yane.command, yane.args, yane.protocol]).toEqual(['/opt/yane', ['--threads=2', '--eval', 'a,b'], 'usi']);
    expect(parseEngineSpec('uci:/usr/games/stockfish').unwrap().protocol).toBe('uci');
    expect(parseEngineSpec('usi:').isErr).toBe(true);
    expect(parseEngineSpec('usi:  ').isErr).toBe(true);
  });

  it('reads bare commands and cmd=kishi', () => {
    expect(parseEngineSpec('/usr/games/gpsusi').unwrap().command).toBe('/usr/games/gpsusi');
    const k = parseEngineSpec('cmd=kishi,args=--config x.yaml').unwrap();
    expect(k.kishi).toBe(true);
    const r = resolveCommand(k, 'shogi').unwrap();
    expect(r.command).toBe(process.execPath);
    expect(r.args.slice(1)).toEqual(['usi', '--config', 'x.yaml']);
    expect(r.args[0]!.endsWith('bin/kishi.js')).toBe(true);
  });

  it('rejects unknown keys and bad numbers', () => {
    expect(parseEngineSpec('cmd=x,colour=red').isErr).toBe(true);
    expect(parseEngineSpec('cmd=x,nodes=-1').isErr).toBe(true);
    expect(parseEngineSpec('name=x').isErr).toBe(true);
    expect(parseEngineSpec('cmd=x,proto=xboard').isErr).toBe(true);
  });
});

describe('option values checked against the engine', () => {
  it('reads spin bounds and combo choices, and refuses values the engine would ignore', () => {
    const hash = parseOptionLine('option name Hash type spin default 16 min 1 max 33554432')!;
    expect([hash.min, hash.max]).toEqual([1, 33554432]);
    expect(optionValueProblem(hash, 'abc')).toBe('expected an integer from 1 to 33554432');
    expect(optionValueProblem(hash, '0')).toBe('expected an integer from 1 to 33554432');
    expect(optionValueProblem(hash, '64')).toBeUndefined();
    const combo = parseOptionLine('option name Analysis Contempt type combo default Both var Off var White var Black var Both')!;
    expect(combo.vars).toEqual(['Off', 'White', 'Black', 'Both']);
    expect(optionValueProblem(combo, 'white')).toBeUndefined();
    expect(optionValueProblem(combo, 'Sometimes')).toBe('expected one of Off, White, Black, Both');
    const check = parseOptionLine('option name Ponder type check default false')!;
    expect(optionValueProblem(check, 'yes')).toBe('expected true or false');
    expect(parseOptionLine('option name Debug Log File type string default ')?.name).toBe('Debug Log File');
  });
});
