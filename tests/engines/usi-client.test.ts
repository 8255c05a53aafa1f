import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryTranscript } from '../../src/log/transcript.js';
import { goCommand, parseEngineSpec, parseInfo, positionCommand, startUsiEngine } from '../../src/engines/usi-client.js';

const FAIRY = '/usr/games/fairy-stockfish';
const GPSUSI = '/usr/games/gpsusi';
const clock = { firstMs: 4000, secondMs: 3000, firstIncMs: 1000, secondIncMs: 1000, byoyomiMs: 0 };

describe('USI commands', () => {
  it('maps clocks to btime/wtime with binc/winc, or byoyomi', () => {
    expect(goCommand({ clock })).toBe('go btime 4000 wtime 3000 binc 1000 winc 1000');
    expect(goCommand({ clock: { ...clock, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 8500 } })).toBe('go btime 4000 wtime 3000 byoyomi 8500');
    expect(goCommand({ clock, ponder: true })).toBe('go ponder btime 4000 wtime 3000 binc 1000 winc 1000');
    expect(goCommand({ limits: { movetimeMs: 500 } })).toBe('go btime 0 wtime 0 byoyomi 500');
    expect(goCommand({ limits: { depth: 6 } })).toBe('go depth 6');
    expect(goCommand({ limits: { infinite: true } })).toBe('go infinite');
    expect(goCommand({})).toBe('go infinite');
    expect(goCommand({ limits: { mate: true } })).toBe('go mate infinite');
  });

  it('writes position commands', () => {
    expect(positionCommand({ start: 'startpos', moves: [] })).toBe('position startpos');
    expect(positionCommand({ start: 'startpos', moves: ['7g7f', '3c3d'] })).toBe('position startpos moves 7g7f 3c3d');
    expect(positionCommand({ start: '8k/9/9/9/9/9/9/9/K8 b - 1', moves: ['9i9h'] })).toBe('position sfen 8k/9/9/9/9/9/9/9/K8 b - 1 moves 9i9h');
  });

  it('parses info lines', () => {
    expect(parseInfo('info depth 12 seldepth 17 multipv 1 score cp -126 lowerbound nodes 68627 nps 158858 hashfull 3 time 432 pv 5a4b 2g2f')).toEqual({
      depth: 12,
      seldepth: 17,
      multipv: 1,
      score: { cp: -126 },
      nodes: 68627,
      nps: 158858,
      hashfull: 3,
      timeMs: 432,
      pv: ['5a4b', '2g2f'],
    });
    expect(parseInfo('info score mate 5 pv G*5b').score).toEqual({ mate: 5 });
    expect(parseInfo('info score mate - pv').score).toEqual({ mate: -1 });
    expect(parseInfo('info depth 3 currmove 7g7f string hello world')).toEqual({ depth: 3, string: 'hello world' });
  });

  it('reads engine specs', () => {
    expect(parseEngineSpec('usi:/usr/games/fairy-stockfish').unwrap()).toEqual({ command: '/usr/games/fairy-stockfish', args: [] });
    expect(parseEngineSpec('usi:/opt/yane --threads 2').unwrap()).toEqual({ command: '/opt/yane', args: ['--threads', '2'] });
    expect(parseEngineSpec('uci:/x').isErr).toBe(true);
  });
});

describe.skipIf(!existsSync(FAIRY))('fairy-stockfish through the USI client', () => {
  it('handshakes, plays with a clock, ponders, stops, resigns when mated and quits', async () => {
    const transcript = memoryTranscript(10_000);
    const warnings: string[] = [];
    const e = (
      await startUsiEngine(`usi:${FAIRY}`, { transcript, ponder: true, options: { Threads: 1, USI_Hash: 16 }, onWarning: (m) => warnings.push(m) })
    ).unwrap();
    expect(e.name).toMatch(/^Fairy-Stockfish/);
    expect(e.options.get('Move Overhead')?.type).toBe('spin');
    expect(warnings).toEqual(['the engine has no option "USI_Hash"; not set']);
    expect(transcript.lines).toContain('> setoption name Ponder value true');
    await e.newGame();
    const infos: number[] = [];
    const r = await e.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f'], clock: { ...clock, firstMs: 500, secondMs: 500, firstIncMs: 100, secondIncMs: 100 } }, (i) =>
      infos.push(i.depth),
    );
    expect(r.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$|^[RBGSNLP]\*[1-9][a-i]$/);
    expect(r.info?.pv[0]).toBe(r.move);
    expect(infos.length).toBeGreaterThan(0);
    // Ponder, then ponderhit: the search continues on our clock and answers.
    const p = e.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f', r.move, '2g2f'], clock: { ...clock, firstMs: 500, secondMs: 500 }, ponder: true });
    await new Promise((res) => setTimeout(res, 100));
    e.ponderhit();
    expect((await p).move).not.toBe('');
    // go infinite only ends with stop.
    const inf = e.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: [], limits: { infinite: true } });
    await new Promise((res) => setTimeout(res, 100));
    e.stop();
    expect((await inf).move).toMatch(/^[1-9][a-i]/);
    // Mated (the position of the client test): bestmove resign passes through.
    const mated = await e.go({ game: 'shogi', variant: 'standard', start: 'k8/9/9/9/9/9/4P2s1/7g1/8K b - 1', moves: [], limits: { depth: 2 } });
    expect(mated.move).toBe('resign');
    e.gameOver('lose');
    await e.close();
    expect(e.alive).toBe(false);
    expect(transcript.lines.filter((l) => l.startsWith('> ') && !l.startsWith('> position') && !l.startsWith('> go'))).toEqual([
      '> usi',
      '> setoption name Threads value 1',
      '> setoption name Ponder value true',
      '> isready',
      '> isready',
      '> usinewgame',
      '> ponderhit',
      '> stop',
      '> gameover lose',
      '> quit',
    ]);
  }, 20_000);

  it('reports a missing engine and a dead engine as errors, not crashes', async () => {
    const missing = await startUsiEngine('usi:/nonexistent/engine');
    expect(missing.isErr && missing.error.message).toMatch(/^cannot start \/nonexistent\/engine: spawn \/nonexistent\/engine ENOENT/);
    const e = (await startUsiEngine(`usi:${FAIRY}`)).unwrap();
    const search = e.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: [], limits: { infinite: true } });
    await new Promise((res) => setTimeout(res, 50));
    (e as unknown as { proc: { kill(s: string): void } }).proc.kill('SIGKILL');
    await expect(search).rejects.toThrow('the USI engine exited during a search (SIGKILL)');
    expect(e.alive).toBe(false);
    await expect(e.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: [] })).rejects.toThrow('the USI engine is not running');
  }, 20_000);
});

// gpsusi needs 5-10 s just to load its tables: run with KISHI_SLOW_TESTS=1.
describe.skipIf(!existsSync(GPSUSI) || process.env.KISHI_SLOW_TESTS !== '1')('gpsusi through the USI client', () => {
  it('handshakes and answers a byoyomi search', async () => {
    const e = (await startUsiEngine(`usi:${GPSUSI}`, { options: { LimitDepth: 4, Thread: 1 } })).unwrap();
    expect(e.name).toMatch(/^gpsshogi/);
    await e.newGame();
    const r = await e.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: [], clock: { firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 300 } });
    expect(r.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$/);
    await e.close();
  }, 20_000);
});
