import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTrainTdLeaf, type TrainTdLeafCliOptions } from '../../../src/cli/train-tdleaf.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { parseWeights } from '../../../src/eval/linear/weights.js';
import { MATERIAL, TOY_GAME, linesText, scriptLines, writeChessWeights, writeScript } from './helpers.js';

const run = (o: Partial<TrainTdLeafCliOptions> & Pick<TrainTdLeafCliOptions, 'logs' | 'weights'>): { code: number; out: string[]; err: string[] } => {
  const out: string[] = [];
  const err: string[] = [];
  const code = runTrainTdLeaf(
    { game: 'chess', top: '5', config: join(o.logs, 'no-config.yaml'), minMoves: '1', ...o },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    ['train', 'tdleaf', '--test'],
  );
  return { code, out, err };
};

describe('kishi train tdleaf over a directory with bad logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kishi-train-'));
  const logs = join(dir, 'logs');
  writeScript(logs, 'a-good', { ...TOY_GAME, gameId: 'good1', startedAt: '2026-01-02T00:00:00.000Z' });
  writeScript(logs, 'b-good', { ...TOY_GAME, gameId: 'good2', winner: null, status: 'draw', startedAt: '2026-01-03T00:00:00.000Z' });
  writeScript(logs, 'c-aborted', { ...TOY_GAME, gameId: 'aborted', winner: null, status: 'aborted' });
  // A truncated line in the middle (a torn write), an unknown version, and a move illegal in its position.
  const toy = linesText(scriptLines({ ...TOY_GAME, gameId: 'torn' })).split('\n');
  writeFileSync(join(logs, 'd-torn.jsonl'), [...toy.slice(0, 3), toy[3]!.slice(0, 25), ...toy.slice(4)].join('\n'));
  writeFileSync(join(logs, 'e-future.jsonl'), linesText(scriptLines({ ...TOY_GAME, gameId: 'v2' })).replace('"version":1', '"version":2'));
  const illegal = scriptLines({ ...TOY_GAME, gameId: 'illegal' }).map((l) => (l.type === 'move' && l.ply === 1 ? { ...l, move: 'e8e6' } : l));
  writeFileSync(join(logs, 'f-illegal.jsonl'), linesText(illegal));
  const weightsIn = join(dir, 'in.json');
  writeChessWeights(weightsIn, MATERIAL);

  it('reports every bad log with file and line, skips it, and still trains on the rest', () => {
    const outFile = join(dir, 'out.json');
    const r = run({ logs, weights: weightsIn, out: outFile });
    expect(r.code).toBe(0);
    expect(r.err).toEqual([
      `warning: ${join(logs, 'd-torn.jsonl')}:4: not JSON: skipped`,
      `warning: ${join(logs, 'e-future.jsonl')}:1: unknown game log version 2 (this reader knows 1): file skipped`,
      `warning: ${join(logs, 'f-illegal.jsonl')}:3: move "e8e6" is illegal in the recorded position 4k3/8/8/3N3p/8/8/P7/4K3 b - - 0 1: game skipped`,
    ]);
    expect(r.out).toContain('  learnt from 2 game(s), 6 positions, 0 difference(s) pruned as opponent blunders');
    expect(r.out).toContain('  skipped: aborted 1, bad-log 2, unreadable 1');
    const written = parseWeights(readFileSync(outFile, 'utf8'), CHESS_FEATURES, outFile).unwrap();
    expect(written.manifest.provenance.method).toBe('tdleaf');
    expect(written.manifest.provenance.games).toBe(2);
    expect(written.manifest.provenance.command).toBe('kishi train tdleaf --test');
    expect(written.manifest.provenance.notes).toContain('TD-Leaf(lambda=0.7), alpha=1000');
    const knight = CHESS_FEATURES.indexOf.get('material.knight')!;
    expect(written.theta[knight]).not.toBe(300);
    // The input is untouched.
    expect(parseWeights(readFileSync(weightsIn, 'utf8'), CHESS_FEATURES, weightsIn).unwrap().theta[knight]).toBe(300);
  });

  it('dry run: prints the largest changes and writes nothing', () => {
    const outFile = join(dir, 'dry.json');
    const r = run({ logs, weights: weightsIn, out: outFile, dryRun: true, lambda: '0.5', pruneBlunders: '0' });
    expect(r.code).toBe(0);
    expect(existsSync(outFile)).toBe(false);
    expect(r.out.some((l) => l.startsWith('  largest weight changes (of '))).toBe(true);
    // The won game raises the knight, the drawn one (leaves at +300..+400 cp) lowers it more.
    expect(r.out).toContain('    material.knight       300 -> 299.340  (-0.660)');
    expect(r.out.at(-1)).toBe('  dry run: nothing written');
  });

  it('filters by opponent rating, time control and date', () => {
    const fdir = join(dir, 'filtered');
    writeScript(fdir, 'x', { ...TOY_GAME, gameId: 'x', ratings: { second: 1500 }, clock: { initialMs: 180000, incrementMs: 2000 }, startedAt: '2026-02-01T10:00:00.000Z' });
    const f = (o: Partial<TrainTdLeafCliOptions>): string[] => run({ logs: fdir, weights: weightsIn, dryRun: true, ...o }).out;
    expect(f({ minRating: '1600' })).toContain('  skipped: opponent-rating 1');
    expect(f({ maxRating: '1600' })).toContain('  learnt from 1 game(s), 3 positions, 0 difference(s) pruned as opponent blunders');
    expect(f({ timeControl: '60+0,rapid' })).toContain('  skipped: time-control 1');
    expect(f({ timeControl: '180+2' })[2]).toContain('learnt from 1 game(s)');
    expect(f({ timeControl: 'blitz' })[2]).toContain('learnt from 1 game(s)');
    expect(f({ since: '2026-02-02' })).toContain('  skipped: date 1');
    expect(f({ until: '2026-01-31' })).toContain('  skipped: date 1');
    expect(f({ since: '2026-02-01', until: '2026-02-01' })[2]).toContain('learnt from 1 game(s)');
  });

  it('never overwrites its input in place, and checks its arguments', () => {
    const r = run({ logs, weights: weightsIn, out: weightsIn });
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('refusing to overwrite the input weights');
    expect(run({ logs, weights: weightsIn }).err[0]).toBe('kishi train tdleaf: --out is required (or --dry-run)');
    expect(run({ logs, weights: weightsIn, dryRun: true, lambda: '2' }).err[0]).toBe('kishi train tdleaf: --lambda must be a number in [0, 1], not "2"');
    expect(run({ logs, weights: weightsIn, dryRun: true, since: 'yesterday' }).code).toBe(2);
    expect(run({ logs, weights: weightsIn, dryRun: true, game: 'go' }).code).toBe(2);
  });
});
