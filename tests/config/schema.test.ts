import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig, readSecrets, validateConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { csaLogin } from '../../src/protocols/csa/login.js';
import type { JsonSchema } from '../../src/config/sections/section.js';

const leafPaths = (schema: JsonSchema, prefix = ''): string[] =>
  Object.entries(schema.properties ?? {}).flatMap(([k, s]) =>
    s.type === 'object' && s.properties ? leafPaths(s, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

const dataPaths = (data: unknown, prefix = ''): string[] =>
  data !== null && typeof data === 'object' && !Array.isArray(data)
    ? Object.entries(data).flatMap(([k, v]) =>
        v !== null && typeof v === 'object' && !Array.isArray(v) ? dataPaths(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      )
    : [];

describe('config schema', () => {
  it('config/kishi.yaml documents every key of the schema, and only those', () => {
    const text = readFileSync('config/kishi.yaml', 'utf8');
    const data = parseDocument(text).toJS();
    expect(dataPaths(data).sort()).toEqual(leafPaths(configSchema).sort());
    expect(validateConfig(data).isOk).toBe(true);
  });

  it('config/kishi.yaml shows the real defaults, or says (default: X) where it sets another value', () => {
    const doc = parseDocument(readFileSync('config/kishi.yaml', 'utf8'));
    const defaults = parseConfig('').unwrap() as unknown as Record<string, unknown>;
    const lines = readFileSync('config/kishi.yaml', 'utf8').split('\n');
    const differ: string[] = [];
    const get = (o: unknown, path: string[]): unknown => path.reduce<unknown>((a, k) => (a as Record<string, unknown> | undefined)?.[k], o);
    for (const path of dataPaths(doc.toJS()).map((p) => p.split('.'))) {
      const shown = get(doc.toJS(), path);
      const real = get(defaults, path);
      if (JSON.stringify(shown) === JSON.stringify(real)) continue;
      // The line of this key must say what the default really is.
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      const lineNo = node?.range ? readFileSync('config/kishi.yaml', 'utf8').slice(0, node.range[0]).split('\n').length - 1 : -1;
      const said = /\(default: ([^)]*)\)/.exec(lines[lineNo] ?? '')?.[1];
      if (said !== JSON.stringify(real) && said !== String(real)) differ.push(`${path.join('.')}: shown ${JSON.stringify(shown)}, default ${JSON.stringify(real)}`);
    }
    expect(differ).toEqual([]);
  });

  it('fills in every default from an empty file', () => {
    const c = parseConfig('').unwrap();
    expect(c.engine.hashMb).toBe(64);
    expect(c.lichess.enabled).toBe(false);
    expect(c.csa.port).toBe(4081);
    expect(c.log.level).toBe('info');
  });

  it('accepts a -B/-W colour suffix on a CSA game name (direct games), refuses other suffixes', () => {
    expect(parseConfig('csa:\n  gameName: mygame-600-10-B\n').unwrap().csa.gameName).toBe('mygame-600-10-B');
    expect(parseConfig('csa:\n  gameName: mygame-300-10F-W\n').unwrap().csa.gameName).toBe('mygame-300-10F-W');
    expect(parseConfig('csa:\n  gameName: mygame-600-10-X\n').isErr).toBe(true);
    expect(parseConfig('csa:\n  gameName: mygame-600-10-BW\n').isErr).toBe(true);
    // shogi-server accepts the suffix in either case (issue 48).
    expect(parseConfig('csa:\n  gameName: mygame-600-10-b\n').unwrap().csa.gameName).toBe('mygame-600-10-b');
    expect(parseConfig('csa:\n  gameName: mygame-300-10F-w\n').unwrap().csa.gameName).toBe('mygame-300-10F-w');
    expect(csaLogin(parseConfig('csa:\n  gameName: floodgate-300-10F-w\n').unwrap().csa, 'trip').isErr).toBe(true);
    // floodgate pairs colours itself and refuses the suffix: the login check says so before connecting.
    const c = parseConfig('csa:\n  gameName: floodgate-300-10F-B\n').unwrap().csa;
    const login = csaLogin(c, 'trip');
    expect(login.isErr && login.error.message).toContain('floodgate does not allow choosing a colour (-B/-W)');
    expect(csaLogin(parseConfig('csa:\n  gameName: mygame-600-10-B\n').unwrap().csa, 'trip').isOk).toBe(true);
  });

  it('maps lichess-bot key names to Kishi keys, and suggests the nearest key for a typo', () => {
    const r = parseConfig(
      [
        'lichess:',
        '  abort_time: 20',
        '  move_overhead: 2000',
        '  quit_after_all_games_finish: true',
        '  engine: {protocol: uci}',
        '  challenge: {concurrency: 2, max_increment: 20, time_controls: [blitz]}',
        '  correspondence: {move_time: 60}',
        '  matchmaking: {allow_matchmaking: true}',
        'engine:',
        '  hashMB: 32',
        '  dir: ./engines',
        'csa:',
        '  prot: 4081',
        '  nonsense: 1',
      ].join('\n'),
    );
    const issues = r.isErr ? r.error.issues.map((i) => `${i.path}: ${i.message}`) : [];
    expect(issues).toEqual([
      'engine.hashMB: unknown key; did you mean engine.hashMb?',
      'engine.dir: unknown key; did you mean engine.search (Kishi plays with its built-in engine)?',
      'lichess.abort_time: unknown key; did you mean lichess.abortTimeS?',
      'lichess.move_overhead: unknown key; did you mean engine.moveOverheadMs?',
      'lichess.quit_after_all_games_finish: unknown key; did you mean lichess.onShutdown: finish (on Ctrl-C, finish the games in progress, then quit)?',
      'lichess.engine: unknown key; did you mean the top-level engine section (engine.search, engine.ponder, engine.moveOverheadMs)?',
      'lichess.challenge.concurrency: unknown key; did you mean lichess.concurrency?',
      'lichess.challenge.max_increment: unknown key; did you mean lichess.challenge.maxIncrementS?',
      'lichess.challenge.time_controls: unknown key; did you mean lichess.challenge.speeds?',
      'lichess.correspondence.move_time: unknown key; did you mean lichess.correspondence.moveTimeMs?',
      'lichess.matchmaking.allow_matchmaking: unknown key; did you mean lichess.matchmaking.enabled?',
      'csa.prot: unknown key; did you mean csa.port?',
      'csa.nonsense: unknown key',
    ]);
  });

  it('a value of the wrong type is one error, not one per range check', () => {
    const r = parseConfig('csa:\n  port: abc\n');
    expect(r.isErr && r.error.issues).toEqual([{ path: 'csa.port', message: 'must be integer' }]);
  });

  it('reports every error at once, each with its key path', () => {
    const r = parseConfig(
      ['engine:', '  hashMb: -5', '  search: magic', 'lichess:', '  concurrency: "two"', '  colour: white', 'bogus: 1'].join('\n'),
      'bad.yaml',
    );
    expect(r.isErr).toBe(true);
    if (r.isOk) return;
    const paths = r.error.issues.map((i) => i.path).sort();
    expect(paths).toEqual(['bogus', 'engine.hashMb', 'engine.search', 'lichess.colour', 'lichess.concurrency']);
    expect(r.error.message).toContain('bad.yaml: 5 config error(s)');
    expect(r.error.issues.find((i) => i.path === 'engine.search')?.message).toContain('"alphabeta"');
    expect(r.error.issues.find((i) => i.path === 'bogus')?.message).toBe('unknown key');
  });

  it('refuses secrets in the file and says where they belong', () => {
    const fake = ['lip', 'abcdefghijklmnop'].join('_');
    const r = parseConfig(`lichess:\n  token: ${fake}\n`);
    expect(r.isErr).toBe(true);
    if (r.isOk) return;
    expect(r.error.issues[0]?.path).toBe('lichess.token');
    expect(r.error.issues[0]?.message).toContain('LICHESS_TOKEN');
    expect(r.error.message).not.toContain(['lip', 'abcdefghijklmnop'].join('_'));
  });

  it('reports YAML syntax errors and a missing file without throwing', () => {
    const y = parseConfig('engine: [1, 2\n', 'broken.yaml');
    expect(y.isErr && y.error.issues[0]?.message.startsWith('YAML:')).toBe(true);
    const m = loadConfig('/nonexistent/kishi.yaml');
    expect(m.isErr && m.error.message).toBe('/nonexistent/kishi.yaml: 1 config error(s):\n  (top): file not found');
    const dir = mkdtempSync(join(tmpdir(), 'kishi-cfg-'));
    writeFileSync(join(dir, 'list.yaml'), '- 1\n- 2\n');
    const l = loadConfig(join(dir, 'list.yaml'));
    expect(l.isErr && l.error.issues[0]?.message).toBe('the config must be a mapping of sections');
  });

  it('names the missing environment variable of an enabled server', () => {
    const c = parseConfig('lichess: {enabled: true}\ncsa: {enabled: true}\n').unwrap();
    const r = readSecrets(c, {});
    expect(r.isErr && r.error.issues.map((i) => i.message)).toEqual([
      'lichess is enabled but LICHESS_TOKEN is not set in the environment',
      'the CSA server is enabled but CSA_PASSWORD is not set in the environment',
    ]);
    const ok = readSecrets(c, { LICHESS_TOKEN: 'lip_x', CSA_PASSWORD: 'pw' });
    expect(ok.isOk && ok.value).toEqual({ lichessToken: 'lip_x', csaPassword: 'pw' });
  });
});
