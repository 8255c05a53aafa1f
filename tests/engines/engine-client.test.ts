/** The UCI/USI process client against the fake engine: handshake, options, search, deadline, exit. */
import { describe, expect, it } from 'vitest';
import { EngineClient } from '../../src/engines/engine-client.js';
import { fakeSpec } from '../match/helpers.js';

describe('EngineClient', () => {
  it('sets the options the engine lists, warns about the others, and searches', async () => {
    const warnings: string[] = [];
    const spec = { ...fakeSpec('fake', ['--score', '42']), options: { hash: '32', Bogus: '1' } };
    const e = (await EngineClient.start({ spec, game: 'chess', variant: 'chess960', onWarning: (w) => warnings.push(w), defaultThreads: 1 })).unwrap();
    expect(e.idName).toBe('fake');
    expect(warnings).toEqual(['fake: no UCI_Chess960 option; Chess960 castling may be misread', 'fake: the engine has no option "Bogus"; not set']);
    expect(e.lastLines().some((l) => l.endsWith('> setoption name Hash value 32'))).toBe(true);
    expect((await e.newGame()).isOk).toBe(true);
    const r = await e.go({ start: 'startpos', moves: ['e2e4'], nodes: 1, deadlineMs: 5000 });
    expect(r.kind).toBe('move');
    if (r.kind === 'move') {
      expect(r.move).toBe('e7e5');
      expect(r.info?.score).toEqual({ cp: 42 });
    }
    await e.close();
    expect(e.alive()).toBe(false);
  });

  it("gives a USI engine a UCI option name with spaces under its own name (Move Overhead is MoveOverhead)", async () => {
    const warnings: string[] = [];
    const spec = { ...fakeSpec('fake'), options: { 'Move Overhead': '100', 'Mo Ve Over Head X': '1' } };
    const e = (await EngineClient.start({ spec, game: 'shogi', onWarning: (w) => warnings.push(w) })).unwrap();
    expect(e.lastLines().some((l) => l.endsWith('> setoption name MoveOverhead value 100'))).toBe(true);
    expect(warnings).toEqual(['fake: the engine has no option "Mo Ve Over Head X"; not set']);
    await e.close();
  });

  it('reports a hang, kills the engine, and then reports it dead', async () => {
    const e = (await EngineClient.start({ spec: fakeSpec('hung', ['--fault', 'hang']), game: 'shogi', graceMs: 100 })).unwrap();
    const r = await e.go({ start: 'startpos', moves: [], nodes: 1, deadlineMs: 200 });
    expect(r.kind).toBe('timeout');
    if (r.kind === 'timeout') expect(r.responsive).toBe(false);
    expect(e.alive()).toBe(false);
    expect(e.lastLines().at(-1)).toMatch(/# process ended: killed by SIGKILL \(killed by the match\)$/);
    const again = await e.go({ start: 'startpos', moves: [], deadlineMs: 200 });
    expect(again.kind).toBe('crash');
  });

  it('fails to start a command that does not exist', async () => {
    const r = await EngineClient.start({ spec: { command: '/no/such/engine', args: [], options: {}, time: {}, kishi: false }, game: 'chess' });
    expect(r.isErr && r.error.code).toBe('ERR_ENGINE_START');
  });
});
