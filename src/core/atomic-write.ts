/**
 * Atomic replacement of a file (the live weights, TreeStrap checkpoints, AlphaZero loop state and
 * training chunks): readers, and a bot that starts at any moment, see the old version or the new
 * one, never a mix or a partial file, even if the writer is killed.
 *
 * 1. The new content goes to a temporary file in the same directory (same file system), is written in
 *    chunks, flushed with fsync and closed.
 * 2. The current version, if any, is kept as `<file>.prev` through a hard link (made under a temporary
 *    name and renamed over the old `.prev`, so `.prev` too is always complete).
 * 3. The temporary file is renamed over `<file>` (rename(2) is atomic within a file system), and the
 *    directory is fsynced so that the rename survives a power loss.
 *
 * Temporary files of writers killed before step 3 are removed by the next write. One writer per file
 * at a time (online learning serialises its updates).
 */
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Steps reported to `onStep` (tests stop a writer at each to check what a reader sees). */
export type AtomicWriteStep = 'temp-chunk' | 'temp-synced' | 'previous-kept' | 'renamed';

export interface AtomicWriteOptions {
  /** Keep the replaced version as `<file>.prev` (default true). */
  readonly keepPrevious?: boolean;
  /** Size of the write chunks, bytes (default 64 KiB). */
  readonly chunkBytes?: number;
  readonly onStep?: (step: AtomicWriteStep) => void;
}

const TEMP_MARK = '.tmp-';
let counter = 0;

/** The file a previous version is kept in. */
export const previousVersionPath = (file: string): string => `${file}.prev`;

const tempPrefix = (file: string): string => `.${basename(file)}${TEMP_MARK}`;

const fsyncDir = (dir: string): void => {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

/** Deletes the files of `dir` whose names `doomed` picks (a missing directory or file is not an error). */
export const removeFilesWhere = (dir: string, doomed: (name: string) => boolean): void => {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!doomed(name)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Gone already.
    }
  }
};

/** Removes temporary files left by writers of `file` that were killed mid-update. */
export const removeStaleTemps = (file: string): void => {
  const prefix = tempPrefix(file);
  removeFilesWhere(dirname(file), (name) => name.startsWith(prefix));
};

/** Replaces `file` with `data` (text as UTF-8) atomically (see the module comment). Throws on I/O errors. */
export function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const dir = dirname(file);
  removeStaleTemps(file);
  const temp = join(dir, `${tempPrefix(file)}${process.pid}-${counter++}`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const chunk = Math.max(1, opts.chunkBytes ?? 65536);
  // Step 1. Temporary file, written, synced and closed.
  const fd = openSync(temp, 'wx', 0o644);
  try {
    for (let off = 0; off < bytes.length; off += chunk) {
      const end = Math.min(bytes.length, off + chunk);
      let pos = off;
      while (pos < end) pos += writeSync(fd, bytes, pos, end - pos);
      opts.onStep?.('temp-chunk');
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  opts.onStep?.('temp-synced');
  try {
    // Step 2. The current version kept as .prev (a hard link, renamed into place).
    if (opts.keepPrevious !== false && existsSync(file)) {
      const prevTemp = join(dir, `${tempPrefix(file)}prev-${process.pid}-${counter++}`);
      linkSync(file, prevTemp);
      renameSync(prevTemp, previousVersionPath(file));
      opts.onStep?.('previous-kept');
    }
    // Step 3. The new version in place.
    renameSync(temp, file);
  } catch (e) {
    // A failed write leaves nothing behind (the file itself is untouched).
    removeStaleTemps(file);
    throw e;
  }
  fsyncDir(dir);
  opts.onStep?.('renamed');
}
