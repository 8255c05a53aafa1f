/**
 * One `kishi learn` per run directory: `DIR/learn.lock` holds the pid of the process running it and,
 * while a step runs one, of its child (the trainer). A second process on the same directory is
 * refused while any of them lives (two writers would race on the chunks, the checkpoint and the
 * state; a trainer orphaned by a `kill -9` of its parent still writes its checkpoint); a lock whose
 * processes are all gone is taken over.
 */
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { writeFileAtomic } from '../../core/atomic-write.js';

export const lockPath = (dir: string): string => join(dir, 'learn.lock');

export interface RunLock {
  /** Records the child process that works in the directory now (undefined: none). */
  setChild(pid: number | undefined): void;
  release(): void;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const pidsIn = (file: string): number[] => {
  try {
    return readFileSync(file, 'utf8').split(/\s+/).map(Number).filter((p) => Number.isInteger(p) && p > 0);
  } catch {
    return [];
  }
};

/** Takes the lock of `dir`. */
export function acquireRunLock(dir: string): Result<RunLock, KishiError> {
  const file = lockPath(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return Result.ok({
        setChild: (pid) => writeFileAtomic(file, `${process.pid}\n${pid !== undefined ? `${pid}\n` : ''}`, { keepPrevious: false }),
        release: () => rmSync(file, { force: true }),
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return Result.err(new KishiError('ERR_OUTPUT', `cannot create ${file}: ${(e as Error).message}`));
    }
    const holder = pidsIn(file).find((pid) => pid !== process.pid && alive(pid));
    if (holder !== undefined) {
      return Result.err(new KishiError('ERR_LOCKED', `${dir} is in use by process ${holder} (${file}); stop it first (a \`kishi datagen\` on DIR/gen<k>/data must be stopped too)`));
    }
    rmSync(file, { force: true });
  }
  return Result.err(new KishiError('ERR_LOCKED', `cannot take ${file}`));
}
