/**
 * Where a command finds its config when none is named: `config/kishi.yaml` in the working directory, else
 * the one shipped with the package (so `kishi run` works from any directory, as the models it names do).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../core/package-path.js';

export const DEFAULT_CONFIG = 'config/kishi.yaml';

/** `config/kishi.yaml` here if it exists, else the package's own (which may not exist either). */
export function defaultConfigPath(cwd: string = process.cwd()): string {
  const local = resolve(cwd, DEFAULT_CONFIG);
  if (existsSync(local)) return local;
  const root = packageRoot();
  return existsSync(join(root, 'package.json')) ? join(root, DEFAULT_CONFIG) : local;
}
