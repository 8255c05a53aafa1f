/**
 * Where a command finds its config when none is named: `config/kishi.yaml` in the working directory, else
 * the one shipped with the package (so `kishi run` works from any directory, as the models it names do).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_CONFIG = 'config/kishi.yaml';

/** `config/kishi.yaml` here if it exists, else the package's own (which may not exist either). */
export function defaultConfigPath(cwd: string = process.cwd()): string {
  const local = resolve(cwd, DEFAULT_CONFIG);
  if (existsSync(local)) return local;
  // The package root: the directory holding package.json above this file (src/ or dist/src/).
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, DEFAULT_CONFIG);
    dir = dirname(dir);
  }
  return local;
}
