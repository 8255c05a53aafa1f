/**
 * Where the package's own files are: the package root (the directory of package.json) and the
 * paths of shipped files (models, data, the trainer) relative to it. Relative paths are tried
 * against the working directory first, so a user's `models/x.bin` wins over the package's.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory holding package.json, found upwards from this file (works from src/ and dist/src/). */
export const packageRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
};

/** Resolves a model path: absolute, else relative to the working directory if it exists there, else to the package root. */
export const resolveModelPath = (path: string): string => {
  if (isAbsolute(path)) return path;
  const local = resolve(path);
  if (existsSync(local)) return local;
  return join(packageRoot(), path);
};
