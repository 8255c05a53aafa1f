/**
 * Imports flow downward. Each folder of src/ sits in one layer (LAYERS, lowest first); a module may
 * import modules of its own folder and of folders in lower layers only: never a folder of its own
 * layer (siblings stay independent), never a higher one, never anything outside src/ but packages
 * (product code does not import tools/, trainer/ or tests/). No import cycle exists between modules.
 * Type-only imports count: a type is a dependency of the design even when it vanishes at run time.
 *
 * Below it, a folder imports only what it needs (IMPORTS): the lower folders each folder imports are
 * listed, so a new link between two folders is a decision made here, in review, and not a side
 * effect of a convenient import; a listed link no longer used is struck off, so the list stays the
 * true dependency graph of the folders.
 *
 * No switch hides in the environment: below the config layer (src/config, the commands of src/cli
 * and src/main.ts read it and pass values down), a module reads `process.env` only for a secret or
 * for the log level of the diagnostics (ENV_READERS), so every behaviour is in the typed config,
 * an engine option or a command-line flag, and visible in the imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The layers, lowest first; the folders of one layer may not import each other. */
export const LAYERS: readonly (readonly string[])[] = [
  ['core'], //                       result, game kinds, clock, json, rng
  ['games'], //                      rules and notations, the game of a start position
  ['books'], //                      opening files, the training book, Polyglot books
  ['log', 'config', 'records', 'plot'], // logging, the config schema, game records, charts
  ['eval', 'nn'], //                 evaluators: linear, neural nets
  ['search'], //                     alpha-beta, MCTS, time planning
  ['player'], //                     the Player port and its implementations
  ['engines'], //                    the client for external UCI/USI engines (processes)
  ['match'], //                      engines, matches, suites, statistics
  ['learning'], //                   TreeStrap, TD-Leaf, AlphaZero
  ['queue'], //                      job queue on Redis (BullMQ): datagen, self-play and match jobs for workers
  ['bot'], //                        the player pool shared by the servers
  ['protocols'], //                  lichess, CSA, UCI/USI front-ends
  ['web'], //                        the local web page (plays through the bot's pool and policies)
  ['cli'], //                        commands
  ['main.ts'], //                    the entry point
];

/**
 * The lower folders each folder of src/ imports, exactly (the layering above allows any lower
 * folder; this says which ones). A new import of another folder goes here first, and the reason
 * is in its review: most folders need only a few of the layers under them.
 */
export const IMPORTS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  games: ['core'],
  books: ['core', 'games'],
  log: [],
  config: ['books', 'core'],
  records: ['core'],
  plot: ['core'],
  eval: ['core', 'games'],
  nn: ['core', 'games'],
  search: ['config', 'core', 'eval', 'games', 'nn'],
  player: ['config', 'core', 'eval', 'games', 'log', 'nn', 'search'],
  engines: ['core', 'log', 'player'],
  match: ['books', 'core', 'engines', 'games', 'log', 'player', 'records'],
  learning: ['books', 'config', 'core', 'engines', 'eval', 'games', 'match', 'nn', 'player', 'plot', 'records', 'search'],
  queue: ['core', 'engines', 'learning', 'log', 'match', 'nn'],
  bot: ['config', 'core', 'player', 'search'],
  protocols: ['books', 'bot', 'config', 'core', 'engines', 'games', 'log', 'player', 'records', 'search'],
  web: ['bot', 'config', 'core', 'games', 'learning', 'log', 'player', 'plot', 'records'],
  cli: ['books', 'bot', 'config', 'core', 'engines', 'eval', 'games', 'learning', 'log', 'match', 'player', 'plot', 'protocols', 'queue', 'records', 'search', 'web'],
  'main.ts': ['cli'],
};

const layerOf = new Map<string, number>(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));

/** The top folder of a module under src/ (`main.ts` for the entry point). */
const folderOf = (module: string): string => module.split('/')[1]!;

const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative imports of one source text, resolved to repository paths of `.ts` files. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const re of [IMPORT, DYNAMIC]) {
    for (const m of text.matchAll(re)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue; // a package
      out.push(normalize(join(dirname(file), spec)).split(sep).join('/').replace(/\.js$/, '.ts'));
    }
  }
  return out;
}

/** Every import that breaks the layering, as `from -> to (why)`. */
export function layerViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, tos] of graph) {
    const fromFolder = folderOf(from);
    const fromLayer = layerOf.get(fromFolder);
    if (fromLayer === undefined) {
      out.push(`${from} (src/${fromFolder} is in no layer: add it to LAYERS)`);
      continue;
    }
    for (const to of tos) {
      if (!to.startsWith('src/')) {
        out.push(`${from} -> ${to} (outside src/)`);
        continue;
      }
      const toFolder = folderOf(to);
      if (toFolder === fromFolder) continue;
      const toLayer = layerOf.get(toFolder);
      if (toLayer === undefined) out.push(`${from} -> ${to} (src/${toFolder} is in no layer)`);
      else if (toLayer > fromLayer) out.push(`${from} -> ${to} (upward: ${fromFolder} below ${toFolder})`);
      else if (toLayer === fromLayer) out.push(`${from} -> ${to} (sideways: ${fromFolder} and ${toFolder} share a layer)`);
    }
  }
  return out.sort();
}

/** The other folders each folder imports, as `folder -> [folders]` (sorted). */
export function folderImports(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [from, tos] of graph) {
    const f = folderOf(from);
    const set = out.get(f) ?? out.set(f, new Set()).get(f)!;
    for (const to of tos) if (to.startsWith('src/') && folderOf(to) !== f) set.add(folderOf(to));
  }
  return new Map([...out].map(([f, set]) => [f, [...set].sort()]));
}

/** Imports of a folder not in its IMPORTS entry (`folder -> other`), and entries no import uses (`folder -/> other (unused)`). */
export function allowListDrift(imports: ReadonlyMap<string, readonly string[]>, allowed: Readonly<Record<string, readonly string[]>>): string[] {
  const out: string[] = [];
  for (const [f, tos] of imports) {
    const ok = allowed[f] ?? [];
    for (const to of tos) if (!ok.includes(to)) out.push(`${f} -> ${to} (not in IMPORTS.${f})`);
  }
  for (const [f, ok] of Object.entries(allowed)) {
    const used = imports.get(f) ?? [];
    for (const to of ok) if (!used.includes(to)) out.push(`${f} -/> ${to} (in IMPORTS.${f} but unused: strike it off)`);
  }
  return out.sort();
}

/** The import cycles (strongly connected components of more than one module, or a self-import). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

function sourceGraph(root = 'src'): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts')) graph.set(rel, importsOf(rel, readFileSync(join(ROOT, rel), 'utf8')));
    }
  };
  walk(root);
  return graph;
}

/** Imports of tools/ that reach outside src/, tools/ and the fake servers of tests/fakes/. */
export function toolViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const allowed = ['src/', 'tools/', 'tests/fakes/'];
  return [...graph].flatMap(([from, tos]) => tos.filter((to) => !allowed.some((a) => to.startsWith(a))).map((to) => `${from} -> ${to}`)).sort();
}

/** The modules below the config layer that may read `process.env`, and why. */
const ENV_READERS: Readonly<Record<string, string>> = {
  'src/log/logger.ts': 'KISHI_LOG_LEVEL: the level of the diagnostics before any config is read (in every thread)',
  'src/web/server-factory.ts': 'KISHI_WEB_TOKEN: a secret (the watch view token)',
  'src/queue/connection.ts': 'KISHI_QUEUE_PASSWORD, KISHI_QUEUE_TLS_CA: secrets of the queue connection',
};

/** Whether a module belongs to the layers that read the environment and pass it down. */
const readsConfig = (module: string): boolean => module === 'src/main.ts' || module.startsWith('src/config/') || module.startsWith('src/cli/');

/** The reads of `process.env` in a source text (comments removed), as `line: text`. */
export function envReads(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return code
    .split('\n')
    .map((line, i) => [i + 1, line] as const)
    .filter(([, line]) => /\bprocess\s*(?:\.\s*env\b|\[\s*['"]env['"]\s*\])|\bprocess\.env\b/.test(line))
    .map(([n, line]) => `${n}: ${line.trim()}`);
}

describe('import layering', () => {
  it('parses imports, re-exports and dynamic imports, and ignores packages', () => {
    const text = [
      "import { a } from '../core/result.js';",
      "import type { B } from './b.js';",
      "export { c } from '../games/chess/c.js';",
      "import {\n  d,\n  e,\n} from '../../tools/x.js';",
      "const m = await import('../cli/run.js');",
      "import { Chess } from 'chessops/chess';",
    ].join('\n');
    expect(importsOf('src/search/time.ts', text).sort()).toEqual(
      ['src/cli/run.ts', 'src/core/result.ts', 'src/games/chess/c.ts', 'src/search/b.ts', 'tools/x.ts'].sort(),
    );
  });

  it('finds upward, sideways and outside imports, and cycles', () => {
    const g = new Map<string, string[]>([
      ['src/search/time.ts', ['src/player/player.ts', 'src/core/game.ts']],
      ['src/player/player.ts', ['src/core/clock.ts']],
      ['src/eval/x.ts', ['src/nn/y.ts']],
      ['src/learning/loop.ts', ['tools/nn/ref.ts']],
      ['src/core/a.ts', ['src/core/b.ts']],
      ['src/core/b.ts', ['src/core/a.ts']],
      ['src/core/game.ts', []],
    ]);
    expect(layerViolations(g)).toEqual([
      'src/eval/x.ts -> src/nn/y.ts (sideways: eval and nn share a layer)',
      'src/learning/loop.ts -> tools/nn/ref.ts (outside src/)',
      'src/search/time.ts -> src/player/player.ts (upward: search below player)',
    ]);
    expect(cycles(g)).toEqual([['src/core/a.ts', 'src/core/b.ts']]);
  });

  const graph = sourceGraph();

  it('every folder of src/ has a layer', () => {
    const folders = [...new Set([...graph.keys()].map(folderOf))].sort();
    expect(folders.filter((f) => !layerOf.has(f))).toEqual([]);
    expect(graph.size).toBeGreaterThan(100);
  });

  it('no module imports upward, sideways or outside src/', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a folder importing one it does not list, and a listed folder no longer imported', () => {
    const g = new Map<string, string[]>([
      ['src/search/time.ts', ['src/core/game.ts', 'src/eval/x.ts']],
      ['src/core/game.ts', []],
    ]);
    expect(allowListDrift(folderImports(g), { core: [], search: ['core', 'games'] })).toEqual([
      'search -/> games (in IMPORTS.search but unused: strike it off)',
      'search -> eval (not in IMPORTS.search)',
    ]);
  });

  it('a folder imports exactly the folders IMPORTS lists for it, each of a lower layer', () => {
    expect(allowListDrift(folderImports(graph), IMPORTS)).toEqual([]);
    expect(Object.keys(IMPORTS).sort()).toEqual([...layerOf.keys()].sort());
    for (const [f, tos] of Object.entries(IMPORTS)) for (const to of tos) expect(layerOf.get(to)!, `${f} -> ${to}`).toBeLessThan(layerOf.get(f)!);
  });

  it('tools/ import src/, tools/ and tests/fakes/ only', () => {
    expect(toolViolations(new Map([['tools/soak.ts', ['src/core/rng.ts', 'tests/fakes/csa-server/server.ts', 'tests/protocols/x.ts']]]))).toEqual([
      'tools/soak.ts -> tests/protocols/x.ts',
    ]);
    const tools = sourceGraph('tools');
    expect(tools.size).toBeGreaterThan(10);
    expect(toolViolations(tools)).toEqual([]);
  });
});

describe('environment switches', () => {
  it('finds process.env reads in code and not in comments', () => {
    const text = ["const a = process.env.KISHI_X;", "// process.env.KISHI_Y in a comment", "/** `process.env` in a doc */", "const b = process['env'];", "f(env = process.env)"].join('\n');
    expect(envReads(text)).toEqual(["1: const a = process.env.KISHI_X;", "4: const b = process['env'];", '5: f(env = process.env)']);
  });

  it('no module below the config layer reads process.env, but for secrets and the log level', () => {
    const reads: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (e.name.endsWith('.ts') && !readsConfig(rel) && ENV_READERS[rel] === undefined) {
          for (const r of envReads(readFileSync(join(ROOT, rel), 'utf8'))) reads.push(`${rel}:${r}`);
        }
      }
    };
    walk('src');
    expect(reads).toEqual([]);
    // Each allowance still reads something (a stale entry would hide a new read).
    for (const file of Object.keys(ENV_READERS)) expect(envReads(readFileSync(join(ROOT, file), 'utf8')).length, file).toBeGreaterThan(0);
  });
});
