/**
 * `kishi learn --status DIR`: where a run stands, from its state file and, for the step in
 * progress, its files (the chunks on disk counted from their sizes, the trainer's finished epochs
 * from its log, the gate's games from its summary), without changing anything.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { HEADER_BYTES } from '../datagen/chunk.js';
import { RECORD_BYTES } from '../datagen/position-record.js';
import { chunkFilesOf } from './data-check.js';
import { dataDir, gateDir, statePath, trainDir } from './layout.js';
import { loadLearnState, type GenerationRecord, type LearnState } from './state.js';
import { parseEpochLine } from './trainer-run.js';

const fmtElo = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : String(x));

/** Positions in a data folder, from the chunk sizes (no checksum: a quick look). */
const positionsOnDisk = (dir: string, state: LearnState): { chunks: number; positions: number } => {
  const names = chunkFilesOf(dir, state.game);
  let positions = 0;
  for (const n of names) positions += Math.max(0, (statSync(join(dir, n)).size - HEADER_BYTES) / RECORD_BYTES[state.game]);
  return { chunks: names.length, positions: Math.floor(positions) };
};

const generationLine = (r: GenerationRecord): string => {
  const parts = [`gen ${r.generation}:`];
  if (r.datagen !== undefined) parts.push(`data ${r.datagen.positions} positions (${r.datagen.chunks} chunks, seed ${r.datagen.seed}, ${r.datagen.nodes} nodes)`);
  if (r.train !== undefined) {
    const last = r.train.history[r.train.history.length - 1];
    parts.push(`trained on ${r.train.positions} positions, ${r.train.history.length} epochs${last !== undefined ? `, val loss ${Number(last['val_loss']).toFixed(6)}` : ''}`);
  }
  if (r.gate !== undefined) {
    const g = r.gate.result;
    parts.push(`gate ${r.gate.passed ? 'passed' : 'failed'} +${g.wins}=${g.draws}-${g.losses} in ${g.games} games, Elo ${fmtElo(g.elo)} [${fmtElo(g.eloLow)}, ${fmtElo(g.eloHigh)}]${g.sprt !== undefined ? `, LLR ${g.sprt.llr.toFixed(2)}` : ''}`);
  }
  if (r.promotion !== undefined) parts.push(r.promotion.models !== undefined ? `promoted to ${r.promotion.models}` : 'not promoted (next teacher: the same net)');
  return parts.join(', ').replace(':,', ':');
};

/** The step in progress, from its files. */
const currentStepLine = (dir: string, s: LearnState): string => {
  const k = s.generation;
  if (s.step === 'datagen') {
    const d = positionsOnDisk(dataDir(dir, k), s);
    return `datagen in ${dataDir(dir, k)}: ${d.positions} positions in ${d.chunks} chunks on disk`;
  }
  if (s.step === 'train') {
    const log = join(trainDir(dir, k), 'train.log');
    const epochs = existsSync(log) ? readFileSync(log, 'utf8').split('\n').map(parseEpochLine).filter((e) => e !== undefined) : [];
    const last = epochs[epochs.length - 1];
    return `training in ${trainDir(dir, k)}: ${last !== undefined ? `epoch ${last.epoch} done, train loss ${last.train_loss.toFixed(6)}, val loss ${last.val_loss.toFixed(6)}` : 'no epoch finished yet'}`;
  }
  if (s.step === 'gate') {
    const summary = join(gateDir(dir, k), 'summary.json');
    if (!existsSync(summary)) return `gate in ${gateDir(dir, k)}: no game finished yet`;
    try {
      const j = JSON.parse(readFileSync(summary, 'utf8')) as { gamesPlayed?: number; gamesPlanned?: number; sprt?: { status?: { llr?: number } } };
      return `gate in ${gateDir(dir, k)}: ${j.gamesPlayed ?? 0} of at most ${j.gamesPlanned ?? '?'} games${j.sprt?.status?.llr !== undefined ? `, LLR ${j.sprt.status.llr.toFixed(2)}` : ''} (an interrupted gate is replayed)`;
    } catch {
      return `gate in ${gateDir(dir, k)}: summary being written`;
    }
  }
  return 'promotion';
};

/** The status text of the run in `dir`. */
export function learnStatus(dir: string): Result<string, KishiError> {
  const loaded = loadLearnState(dir);
  if (loaded.isErr) return Result.err(loaded.error);
  const s = loaded.value;
  if (s === undefined) return Result.err(new KishiError('ERR_STATE', `${statePath(dir)} does not exist: no kishi learn run in ${dir}`));
  const lines = [
    `${dir}: ${s.game}, base seed ${s.seed}, datagen at ${s.nodes} nodes per move; started ${s.created}, last saved ${s.updated}`,
    ...s.generations.map(generationLine),
    `now: generation ${s.generation}, ${currentStepLine(dir, s)}`,
  ];
  const last = s.events[s.events.length - 1];
  if (last !== undefined) lines.push(`last event: ${last.at} ${last.what}`);
  return Result.ok(lines.join('\n'));
}
