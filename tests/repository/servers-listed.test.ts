/**
 * The servers Kishi plays on are listed once, in `SERVERS` (src/bot/servers.ts); every text that
 * names them is compared with that list here, so that none forgets one: `kishi --help`, `kishi run
 * --help`, the package description, the header of config/kishi.yaml and the README's introduction,
 * its "put Kishi online" steps, its command table, secrets table, sections and layout.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVERS } from '../../src/bot/servers.js';
import { buildProgram } from '../../src/cli/program.js';
import { SERVER_FACTORIES } from '../../src/cli/run.js';

const readme = readFileSync('README.md', 'utf8');
const names = SERVERS.map((s) => s.name);

/** The README text from `from` up to the first match of `to` after it (or the end). */
const between = (from: string, to: RegExp): string => {
  const start = readme.indexOf(from);
  expect(start, `README: no "${from}"`).toBeGreaterThanOrEqual(0);
  const rest = readme.slice(start);
  const end = rest.slice(from.length).search(to);
  return end < 0 ? rest : rest.slice(0, from.length + end);
};

/** Fails naming every word missing from the text. */
const expectAll = (where: string, text: string, words: readonly string[]): void => {
  expect(words.filter((w) => !text.includes(w)).map((w) => `${where}: ${w}`)).toEqual([]);
};

describe('the servers Kishi plays on', () => {
  it('each has its server factory in kishi run', () => {
    expect(SERVERS.map((s) => s.section).filter((s) => !SERVER_FACTORIES.some((f) => f.section === s))).toEqual([]);
  });

  it('are named by kishi --help and kishi run --help', async () => {
    const program = await buildProgram(['node', 'kishi', '--help']);
    expectAll('kishi --help', program.description(), names);
    expectAll('kishi run --help', program.commands.find((c) => c.name() === 'run')!.description(), names);
  });

  it('are named by the package description', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { description: string };
    expectAll('package.json description', pkg.description, names);
  });

  it('are named, with their secrets, in the header of config/kishi.yaml, and each has its section', () => {
    const yaml = readFileSync('config/kishi.yaml', 'utf8');
    const header = yaml.slice(0, yaml.search(/^\w/m));
    expectAll('config/kishi.yaml header', header, [...names, ...SERVERS.map((s) => s.secretEnv)]);
    expectAll('config/kishi.yaml sections', yaml, SERVERS.map((s) => `\n${s.section}:\n`));
  });

  it('are named in the README: introduction, steps to go online, commands, secrets, sections and layout', () => {
    expectAll('README introduction', readme.slice(0, readme.indexOf('\n## ')), names);
    const online = between('Then put Kishi online:\n\n', /\n\n/);
    expectAll('README "Then put Kishi online"', online, names.map((n) => `- **${n}**`));
    expect(online).not.toMatch(/not supported|not implemented/);
    expectAll('README command table, kishi run', between('| `kishi run', /\n/), names);
    expectAll('README secrets table', between('| variable | used for |', /\n\n/), SERVERS.map((s) => `\`${s.secretEnv}\``));
    const headings = readme.split('\n').filter((l) => l.startsWith('## '));
    expect(names.filter((n) => !headings.some((h) => h.includes(n)))).toEqual([]);
    const layout = /`src\/protocols\/\{([^}]*)\}`/.exec(between('## Layout', /\n## /));
    expect(layout, 'README layout: no src/protocols/{...}').not.toBeNull();
    expectAll('README layout, src/protocols/{...}', `,${layout![1]!},`, SERVERS.map((s) => `,${s.folder},`));
  });
});
