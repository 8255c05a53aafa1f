/**
 * The text forms of the match rules, as `kishi match` and `kishi tune` take them on the command line
 * and the AlphaZero gate in its config: `--resign`, `--draw` (cutechess-cli's adjudication keys) and
 * `--sprt` (fishtest's elo0/elo1/alpha/beta).
 */
import { keyValueRecord, parseKeyValues, parseNumber } from '../core/key-values.js';
import { KishiError, Result } from '../core/result.js';
import type { DrawRule, ResignRule } from './adjudication.js';
import type { SprtModel, SprtParams } from './stats/index.js';
import { SPRT_MODELS } from './stats/index.js';

const usage = (message: string): KishiError => new KishiError('ERR_USAGE', message);

/** `--resign movecount=3,score=600[,twosided=false]`. */
export function parseResignRule(text: string): Result<ResignRule, KishiError> {
  const kv = parseKeyValues(text, '--resign').chain((p) => keyValueRecord(p, ['movecount', 'score', 'twosided'], '--resign'));
  if (kv.isErr) return Result.err(kv.error);
  const moveCount = parseNumber(kv.value['movecount'] ?? '3', '--resign movecount', (x) => Number.isInteger(x) && x > 0);
  const score = parseNumber(kv.value['score'] ?? '600', '--resign score', (x) => x > 0);
  if (moveCount.isErr) return Result.err(moveCount.error);
  if (score.isErr) return Result.err(score.error);
  const two = kv.value['twosided'] ?? 'true';
  return Result.ok({ moveCount: moveCount.value, score: score.value, twoSided: two === '' || two === 'true' });
}

/** `--draw movenumber=40,movecount=8,score=10`. */
export function parseDrawRule(text: string): Result<DrawRule, KishiError> {
  const kv = parseKeyValues(text, '--draw').chain((p) => keyValueRecord(p, ['movenumber', 'movecount', 'score'], '--draw'));
  if (kv.isErr) return Result.err(kv.error);
  const moveNumber = parseNumber(kv.value['movenumber'] ?? '40', '--draw movenumber', (x) => Number.isInteger(x) && x >= 0);
  const moveCount = parseNumber(kv.value['movecount'] ?? '8', '--draw movecount', (x) => Number.isInteger(x) && x > 0);
  const score = parseNumber(kv.value['score'] ?? '10', '--draw score', (x) => x >= 0);
  for (const r of [moveNumber, moveCount, score]) if (r.isErr) return Result.err(r.error);
  return Result.ok({ moveNumber: moveNumber.unwrap(), moveCount: moveCount.unwrap(), score: score.unwrap() });
}

/** `--sprt elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=normalized|logistic]`. */
export function parseSprtParams(text: string): Result<SprtParams, KishiError> {
  const kv = parseKeyValues(text, '--sprt').chain((p) => keyValueRecord(p, ['elo0', 'elo1', 'alpha', 'beta', 'model'], '--sprt'));
  if (kv.isErr) return Result.err(kv.error);
  const v = kv.value;
  if (v['elo0'] === undefined || v['elo1'] === undefined) return Result.err(usage('--sprt needs elo0= and elo1='));
  const elo0 = parseNumber(v['elo0'], '--sprt elo0');
  const elo1 = parseNumber(v['elo1'], '--sprt elo1');
  const alpha = parseNumber(v['alpha'] ?? '0.05', '--sprt alpha', (x) => x > 0 && x < 1);
  const beta = parseNumber(v['beta'] ?? '0.05', '--sprt beta', (x) => x > 0 && x < 1);
  for (const r of [elo0, elo1, alpha, beta]) if (r.isErr) return Result.err(r.error);
  const model = (v['model'] ?? 'normalized') as SprtModel;
  if (!(SPRT_MODELS as readonly string[]).includes(model)) return Result.err(usage(`--sprt model must be one of ${SPRT_MODELS.join(', ')}`));
  if (!(elo1.unwrap() > elo0.unwrap())) return Result.err(usage('--sprt needs elo1 > elo0'));
  return Result.ok({ elo0: elo0.unwrap(), elo1: elo1.unwrap(), alpha: alpha.unwrap(), beta: beta.unwrap(), model });
}
