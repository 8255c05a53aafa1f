/** An external engine behind the Player port (the USI-CSA bridge): the fake engine, fairy-stockfish (gpsusi: gpsusi-player.test.ts). */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnginePlayer, startEnginePlayer } from '../../src/engines/engine-player.js';
import { memoryTranscript } from '../../src/log/transcript.js';
import type { Player } from '../../src/player/player.js';
import { fakeSpec } from '../match/helpers.js';
import { describeIf, engineMissing } from '../setup/skip.js';

const FAIRY = '/usr/games/fairy-stockfish';
const clock = { firstMs: 4000, secondMs: 3000, firstIncMs: 1000, secondIncMs: 1000, byoyomiMs: 0 };
const shogi = { game: 'shogi' as const, variant: 'standard', start: 'startpos' };

describe('EnginePlayer over the fake engine', () => {
  it('answers, ends a search on stop, and passes bestmove resign through', async () => {
    const transcript = memoryTranscript(1000);
    const e = (await EnginePlayer.start({ spec: fakeSpec('fake', ['--fault', 'flag', '--at', '2', '--score', '-30']), game: 'shogi', transcript })).unwrap();
    expect(e.name).toBe('fake');
    // Asked as the Player port asks it (the bridge holds a Player): by game and variant.
    const port: Player = e;
    expect(port.supports('shogi', 'standard')).toBe(true);
    expect(port.supports('chess', 'standard')).toBe(false);
    await e.newGame();
    const infos: number[] = [];
    const first = await e.go({ ...shogi, moves: [], clock }, (i) => infos.push(i.score && 'cp' in i.score ? i.score.cp : NaN));
    expect(first.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$/);
    expect(first.info?.score).toEqual({ cp: -30 });
    expect(infos).toEqual([-30]);
    // The second search thinks until stop; a second go meanwhile is refused.
    const second = e.go({ ...shogi, moves: [first.move], limits: { infinite: true } });
    await expect(e.go({ ...shogi, moves: [] })).rejects.toThrow('a search is already running');
    e.stop();
    e.stop();
    expect((await second).move).toMatch(/^[1-9][a-i]/);
    expect(transcript.lines.filter((l) => l === '> stop')).toHaveLength(1);
    expect(transcript.lines).toContain('> go infinite');
    expect(transcript.lines).toContain('> go btime 4000 wtime 3000 binc 1000 winc 1000');
    await e.close();
    expect(e.alive).toBe(false);

    const resigner = (await EnginePlayer.start({ spec: fakeSpec('r', ['--fault', 'resign']), game: 'shogi' })).unwrap();
    expect((await resigner.go({ ...shogi, moves: [], limits: { depth: 3 } })).move).toBe('resign');
    await resigner.close();
  });

  it('makes a crash a rejection, then refuses to search', async () => {
    const e = (await EnginePlayer.start({ spec: fakeSpec('crashy', ['--fault', 'crash']), game: 'chess' })).unwrap();
    await expect(e.go({ game: 'chess', variant: 'standard', start: 'startpos', moves: [], limits: { nodes: 1 } })).rejects.toThrow(/crashy: the engine ended during its search \(exit code 3\)/);
    expect(e.alive).toBe(false);
    await expect(e.go({ game: 'chess', variant: 'standard', start: 'startpos', moves: [] })).rejects.toThrow('the engine is not running');
    await e.close();
  });

  it('refuses a mate search on a UCI engine and a spec of the wrong protocol', async () => {
    const e = (await EnginePlayer.start({ spec: fakeSpec('fake'), game: 'chess' })).unwrap();
    await expect(e.go({ game: 'chess', variant: 'standard', start: 'startpos', moves: [], limits: { mate: true } })).rejects.toThrow('a mate search needs a USI engine');
    await e.close();
    const wrong = await startEnginePlayer('uci:/usr/games/stockfish', 'shogi');
    expect(wrong.isErr && wrong.error.message).toBe('shogi needs a USI engine, got "uci:/usr/games/stockfish"');
    const missing = await startEnginePlayer('usi:/nonexistent/engine', 'shogi');
    expect(missing.isErr && missing.error.message).toMatch(/^cannot start \/nonexistent\/engine: spawn \/nonexistent\/engine ENOENT/);
  });
});

describeIf(existsSync(FAIRY), engineMissing(FAIRY))('fairy-stockfish as a Player', () => {
  it('handshakes, plays with a clock, ponders, stops, resigns when mated and quits', async () => {
    const transcript = memoryTranscript(10_000);
    const warnings: string[] = [];
    const e = (
      await startEnginePlayer(`cmd=${FAIRY},option.Threads=1,option.USI_Hash=16`, 'shogi', { transcript, ponder: true, onWarning: (m) => warnings.push(m) })
    ).unwrap();
    expect(e.name).toMatch(/^Fairy-Stockfish/);
    expect(e.options.get('move overhead')?.type).toBe('spin');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/: the engine has no option "USI_Hash"; not set$/);
    expect(transcript.lines).toContain('> setoption name Ponder value true');
    await e.newGame();
    const infos: number[] = [];
    const r = await e.go({ ...shogi, moves: ['7g7f'], clock: { ...clock, firstMs: 500, secondMs: 500, firstIncMs: 100, secondIncMs: 100 } }, (i) => infos.push(i.depth));
    expect(r.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$|^[RBGSNLP]\*[1-9][a-i]$/);
    expect(r.info?.pv[0]).toBe(r.move);
    expect(infos.length).toBeGreaterThan(0);
    // Ponder, then ponderhit: the search continues on our clock and answers.
    const p = e.go({ ...shogi, moves: ['7g7f', r.move, '2g2f'], clock: { ...clock, firstMs: 500, secondMs: 500 }, ponder: true });
    await new Promise((res) => setTimeout(res, 100));
    e.ponderhit();
    expect((await p).move).not.toBe('');
    // go infinite only ends with stop.
    const inf = e.go({ ...shogi, moves: [], limits: { infinite: true } });
    await new Promise((res) => setTimeout(res, 100));
    e.stop();
    expect((await inf).move).toMatch(/^[1-9][a-i]/);
    // Mated (the position of the client test): bestmove resign passes through.
    const mated = await e.go({ ...shogi, start: 'k8/9/9/9/9/9/4P2s1/7g1/8K b - 1', moves: [], limits: { depth: 2 } });
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
});
