/**
 * `kishi usi` and `kishi uci` as child processes with `Search` dyna2 (the two-phase search) against
 * `Search` td (TD search alone), limited by nodes, over the real protocol: every move legal, no
 * forfeit, and the TD search parameters of the config file (`--config`, engine.td*) are the ones
 * used (the simulations counted in the `info string` summary). Small settings keep a game short.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OUTCOME_REASONS } from '../../../src/core/game.js';
import { FORFEIT_REASONS } from '../../../src/match/game-record.js';
import { LAUNCHER, playEngineGame, replay, tc } from './engine-games.js';
import { EngineProcess } from '../../../src/engines/engine-process.js';
import type { EngineSpec } from '../../../src/engines/engine-spec.js';

const dir = mkdtempSync(join(tmpdir(), 'kishi-td-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'td.yaml');
writeFileSync(config, `engine:\n  tdSimulations: 12\n  tdEpisodePlies: 6\n  tdEpsilon: 0.2\nlog:\n  dir: ${join(dir, 'logs')}\n  transcripts: false\n`);

const spec = (protocol: 'uci' | 'usi', name: string, search: string): EngineSpec => ({
  name,
  command: process.execPath,
  args: [LAUNCHER, protocol, '--config', config],
  options: { [protocol === 'uci' ? 'Hash' : 'USI_Hash']: '8', Search: search },
  time: {},
  kishi: false,
});

describe('kishi uci|usi with the dyna2 and td searches', () => {
  it('reads the TD search parameters from the config file', async () => {
    const proc = (await EngineProcess.spawn({ command: process.execPath, args: [LAUNCHER, 'usi', '--config', config] })).unwrap();
    try {
      proc.send('usi');
      proc.send('setoption name Search value dyna2');
      proc.send('isready');
      expect('line' in (await proc.waitFor((l) => l === 'readyok', 20_000))).toBe(true);
      proc.send('position startpos moves 7g7f 3c3d');
      proc.send('go nodes 500');
      const summary = await proc.waitFor((l) => l.includes('string td search:') || l.startsWith('bestmove'), 30_000);
      expect('line' in summary && summary.line).toMatch(/ string td search: 12 simulations of [\d.]+ plies/);
      const best = await proc.waitFor((l) => l.startsWith('bestmove'), 30_000);
      expect('line' in best && best.line).toMatch(/^bestmove \S+/);
      proc.send('quit');
      await proc.waitExitOrKill(2000);
    } finally {
      await proc.kill();
    }
  }, 60_000);

  it.each([
    ['shogi', 'usi'],
    ['chess', 'uci'],
  ] as const)(
    'plays a legal %s game through %s at fixed nodes',
    async (game, protocol) => {
      const { record, warnings } = await playEngineGame({
        game,
        variant: 'standard',
        opening: { start: 'startpos', moves: [], source: 'startpos' },
        kishiSide: 'first',
        kishi: spec(protocol, 'dyna2', 'dyna2'),
        kishiTc: tc({ nodes: 1500 }),
        opponent: spec(protocol, 'td', 'td'),
        // TD search alone: `go nodes` counts simulations.
        opponentTc: tc({ nodes: 12 }),
        maxMoves: 30,
      });
      expect(warnings).toEqual([]);
      expect(FORFEIT_REASONS, `${record.end.detail}\n${record.forfeit?.lines.join('\n') ?? ''}`).not.toContain(record.end.reason);
      expect([...OUTCOME_REASONS, 'resign', 'max-moves']).toContain(record.end.reason);
      expect(record.moves.length).toBeGreaterThan(10);
      const r = replay(record);
      expect(r.legal).toBe(true);
      expect(r.final).toBe(record.finalPosition);
    },
    120_000,
  );
});
