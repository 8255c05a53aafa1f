/**
 * The shipped nets (every models/*.onnx with a manifest) reproduce, through the TypeScript
 * encoder, onnxruntime-node and the masked softmax, the reference outputs recorded when they were
 * exported (fp32: by PyTorch; INT8: by onnxruntime-node when tools/nn/check-int8.ts checked it).
 * A missing, corrupt or mismatching model is an `ERR_MODEL` result, never an exception.
 */
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { GameKind } from '../../src/core/game.js';
import { checkModelFiles, loadModel } from '../../src/nn/model-file.js';
import { checkReference } from '../../src/nn/reference-check.js';
import { describeIf } from '../setup/skip.js';

const MODELS = process.env.KISHI_TEST_MODELS ?? 'models';
const shipped = readdirSync(MODELS)
  .filter((f) => f.endsWith('.onnx'))
  .map((f) => ({ file: join(MODELS, f), game: (f.startsWith('shogi') ? 'shogi' : 'chess') as GameKind }));

describeIf(shipped.length > 0, `no models with reference outputs in ${MODELS}`)('shipped models match their reference outputs', () => {
  test.each(shipped)('$file', async ({ file, game }) => {
    const loaded = (await loadModel(file, game, { cacheEntries: 0 })).unwrap();
    const m = loaded.manifest;
    expect(m.reference.positions.length).toBeGreaterThanOrEqual(5);
    const r = (await checkReference(loaded.evaluator, game, m.reference.positions)).unwrap();
    expect(r.positions).toBe(m.reference.positions.length);
    expect(r.maxValueError).toBeLessThanOrEqual(m.reference.tolerance);
    expect(r.maxPriorError).toBeLessThanOrEqual(m.reference.tolerance);
    expect(r.top1Mismatches).toBe(0);
    await loaded.evaluator.close();
  });
});

describeIf(MODELS === 'models', `KISHI_TEST_MODELS=${MODELS}: not the repository's models/`)('the repository ships both games in fp32 and INT8', () => {
  test('chess, chess-int8, shogi, shogi-int8', async () => {
    expect(shipped.map((s) => s.file).sort()).toEqual(
      ['chess-int8.onnx', 'chess.onnx', 'shogi-int8.onnx', 'shogi.onnx'].map((f) => join(MODELS, f)),
    );
    for (const game of ['chess', 'shogi'] as const) {
      const fp32 = (await loadModel(join(MODELS, `${game}.onnx`), game, { cacheEntries: 0 })).unwrap();
      const int8 = (await loadModel(join(MODELS, `${game}-int8.onnx`), game, { cacheEntries: 0 })).unwrap();
      expect(fp32.manifest.precision).toBe('fp32');
      expect(int8.manifest.precision).toBe('int8-qdq');
      // The INT8 net's reference outputs are its own (recorded by check-int8.ts), at the same positions.
      expect(int8.manifest.reference.positions.map((p) => p.moves)).toEqual(fp32.manifest.reference.positions.map((p) => p.moves));
      expect(int8.manifest.reference.tolerance).toBe(2e-3);
      await fp32.evaluator.close();
      await int8.evaluator.close();
    }
  });
});

describeIf(shipped.length > 0, `no models with reference outputs in ${MODELS}`)('broken model files are expected failures', () => {
  // The describe body runs at collection even when skipped: no destructuring of a missing model.
  const { file, game } = shipped[0] ?? { file: '', game: 'chess' as GameKind };
  const dir = mkdtempSync(join(tmpdir(), 'kishi-model-'));

  test('missing model or manifest', async () => {
    const missing = await loadModel(join(dir, 'nothing.onnx'), game);
    expect(missing.isErr && missing.error.code).toBe('ERR_MODEL');
    copyFileSync(file, join(dir, 'lonely.onnx'));
    const noManifest = checkModelFiles(join(dir, 'lonely.onnx'), game);
    expect(noManifest.isErr && noManifest.error.message).toMatch(/lonely\.manifest\.json: cannot read/);
  });

  test('corrupt ONNX bytes with a valid manifest', async () => {
    copyFileSync(file.replace(/\.onnx$/, '.manifest.json'), join(dir, 'corrupt.manifest.json'));
    writeFileSync(join(dir, 'corrupt.onnx'), Buffer.alloc(4096, 7));
    expect(checkModelFiles(join(dir, 'corrupt.onnx'), game).isOk).toBe(true);
    const r = await loadModel(join(dir, 'corrupt.onnx'), game);
    expect(r.isErr && r.error.code).toBe('ERR_MODEL');
    expect(r.isErr && r.error.message).toMatch(/cannot load/);
  });

  test('a model of the other game', async () => {
    const other: GameKind = game === 'chess' ? 'shogi' : 'chess';
    const r = await loadModel(file, other);
    expect(r.isErr && r.error.message).toMatch(new RegExp(`a ${game} model, not ${other}`));
  });
});
