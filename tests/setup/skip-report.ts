/**
 * A vitest reporter that ends the run with every skipped test and why: the note given to
 * `ctx.skip(note)` (tests/setup/skip.ts passes the missing prerequisite as the note), or "no reason
 * given" for a bare `it.skip`/`skipIf`, which a review should then ask about. Vitest's own summary
 * only counts skips; CI's log (`.ci/run`, where every prerequisite is installed) should show none,
 * and this makes any that remain visible there. Under `-t <pattern>` the tests the pattern leaves
 * out are skipped too: those without a note are counted, not listed.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** A skipped test: its file, its full name, and the note it was skipped with. */
export interface Skipped {
  readonly file: string;
  readonly name: string;
  readonly todo: boolean;
  readonly note: string | undefined;
}

/** Every skipped or todo test of the run, files relative to `root`. */
export function skippedTests(modules: ReadonlyArray<TestModule>, root: string): Skipped[] {
  const out: Skipped[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      const result = test.result();
      const note = result.state === 'skipped' ? result.note : undefined;
      out.push({ file: relative(root, module.moduleId), name: test.fullName, todo: test.options.mode === 'todo', note });
    }
  }
  return out;
}

/** The report's lines; `filtered`: a `-t` pattern was given, so skips without a note are only counted. */
export function skipReport(skipped: readonly Skipped[], filtered: boolean): string[] {
  const listed = filtered ? skipped.filter((s) => s.note !== undefined) : skipped;
  const lines = listed.map((s) => `  ${s.file} > ${s.name}: ${s.todo ? 'todo' : 'skipped'}, ${s.note ?? 'no reason given'}`);
  if (lines.length > 0) lines.unshift(`Skipped tests (${listed.length}):`);
  const unlisted = skipped.length - listed.length;
  if (unlisted > 0) lines.push(`(${unlisted} tests left out by the -t pattern are not listed)`);
  return lines;
}

export default class SkipReport implements Reporter {
  private root = process.cwd();
  private filtered = false;

  onInit(vitest: { config: { root: string; testNamePattern?: RegExp | undefined } }): void {
    this.root = vitest.config.root;
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = skipReport(skippedTests(modules, this.root), this.filtered);
    if (lines.length > 0) console.log(['', ...lines, ''].join('\n'));
  }
}
