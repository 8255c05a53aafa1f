/**
 * One `kishi learn` per run directory: `DIR/learn.lock` holds the pid of the process running it.
 * A second process on the same directory is refused (two writers would race on the chunks and the
 * state); a lock left by a process that no longer exists (killed with -9) is taken over.
 */
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';

export const lockPath = (dir: string): string => join(dir, 'learn.lock');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the lock of `dir`; the returned function releases it. */
export function acquireRunLock(dir: string): Result<() => void, KishiError> {
  const file = lockPath(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return Result.ok(() => rmSync(file, { force: true }));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return Result.err(new KishiError('ERR_OUTPUT', `cannot create ${file}: ${(e as Error).message}`));
    }
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(file, 'utf8').trim());
    } catch {
      // Removed meanwhile: try again.
    }
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      return Result.err(new KishiError('ERR_LOCKED', `${dir} is in use by process ${pid} (${file}); stop it first (a \`kishi datagen\` on DIR/gen<k>/data must be stopped too)`));
    }
    rmSync(file, { force: true });
  }
  return Result.err(new KishiError('ERR_LOCKED', `cannot take ${file}`));
}
