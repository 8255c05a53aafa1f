/** Kishi's version for the User-Agent (`kishi/<version> user:<name>`), read once from package.json. */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function kishiVersion(): string {
  if (cached !== undefined) return cached;
  cached = '0.0.0';
  // src/protocols/lichess/ (vitest, tsx) and dist/src/protocols/lichess/ (built) sit 3 or 4 levels below the root.
  for (const rel of ['../../../package.json', '../../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'kishi' && typeof pkg.version === 'string') {
        cached = pkg.version;
        break;
      }
    } catch {
      // Not there: try the next level.
    }
  }
  return cached;
}
