/**
 * Vitest global setup: brings `dist/` up to date with the TypeScript sources before any test starts.
 *
 * Vitest runs the test files and what they import from `src/` directly, but worker threads (the
 * alpha-beta and MCTS search workers, their helpers, the self-play workers, the queue's datagen
 * thread) and child processes (`bin/kishi.js`, `dist/tools/*.js`) run the compiled JavaScript in
 * `dist/`: Node 20 cannot load a `.ts` file without a loader, and the product loads its workers from
 * `dist/` too. Without this step, `npx vitest run tests/<folder>` after an edit would test the new
 * code in-process and the old code in every worker.
 *
 * The build is `tsc -p tsconfig.json`, incremental (`dist/.tsbuildinfo`), so it recompiles only what
 * changed; and it is skipped altogether when no source (`src/`, `tools/`, a directory of theirs, or
 * the tsconfig) is newer than the stamp the last build left, so an unchanged tree costs one walk of
 * file times. A file of `dist/` that is missing (deleted by hand) makes it a full build, since the
 * incremental build would not rewrite an output it believes current. Type errors do not stop the
 * tests (tsc still writes the JavaScript, and `npm test` type-checks first): they are printed, and the
 * stamp is not written, so the next run builds and prints them again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository root: vitest runs global setups from it. */
const ROOT = process.cwd();
/** What tsconfig.json compiles (its `include`), with the config itself. */
const SOURCES = ['src', 'tools'];
const CONFIGS = ['tsconfig.json', 'package.json'];
const BUILD_INFO = join('dist', '.tsbuildinfo');
const STAMP = join('dist', '.tests-built');

/** The newest modification time under the sources, and whether every `.ts` there has its `.js` in dist/. */
function scan(): { newest: number; missingOutput: string | undefined } {
  let newest = 0;
  let missingOutput: string | undefined;
  const walk = (dir: string): void => {
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (entry.name.endsWith('.ts')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
        if (missingOutput === undefined && !entry.name.endsWith('.d.ts')) {
          const out = join('dist', relative(ROOT, path)).replace(/\.ts$/, '.js');
          if (!existsSync(out)) missingOutput = out;
        }
      }
    }
  };
  for (const dir of SOURCES) walk(join(ROOT, dir));
  for (const file of CONFIGS) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  return { newest, missingOutput };
}

export default function setup(): void {
  const { newest, missingOutput } = scan();
  if (missingOutput === undefined && existsSync(STAMP) && statSync(STAMP).mtimeMs >= newest) return;
  if (missingOutput !== undefined) rmSync(BUILD_INFO, { force: true });
  const started = Date.now();
  const tsc = spawnSync(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.error !== undefined) throw new Error(`tests/setup/build.ts: could not run tsc: ${tsc.error.message}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (tsc.status === 0) {
    writeFileSync(STAMP, `built by tests/setup/build.ts (tsc -p tsconfig.json) at ${new Date(started).toISOString()}\n`);
    // The stamp carries the build's start, so that a source saved while tsc ran counts as newer.
    utimesSync(STAMP, started / 1000, started / 1000);
    console.warn(`dist/ rebuilt from the sources for the workers and child processes (tsc, ${seconds} s)`);
    return;
  }
  console.warn(
    `dist/ rebuilt from the sources for the workers and child processes (tsc, ${seconds} s), with errors ` +
      `(the tests run the JavaScript tsc wrote anyway):\n${tsc.stdout}${tsc.stderr}`,
  );
}
