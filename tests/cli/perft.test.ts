import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suiteGame } from '../../src/cli/suite.js';
import { describe, expect, it } from 'vitest';

// Runs the compiled CLI (dist/, which the tests' global setup brings up to date: tests/setup/build.ts).
const kishi = (...args: string[]) => spawnSync(process.execPath, ['bin/kishi.js', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('kishi perft', () => {
  it.each([
    ['chess', 'adapter', 'startpos', 3, 8902],
    ['chess', 'reference', 'startpos', 3, 8902],
    ['chess', 'internal', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 3, 97862],
    ['shogi', 'adapter', 'startpos', 2, 900],
    ['shogi', 'reference', 'startpos', 2, 900],
    ['shogi', 'internal', 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1', 2, 28684],
  ])('%s %s %s depth %i = %i', (game, impl, pos, depth, nodes) => {
    const flag = game === 'chess' ? '--fen' : '--sfen';
    const out = execFileSync(process.execPath, ['bin/kishi.js', 'perft', '--game', game, flag, pos, '--depth', String(depth), '--impl', impl], {
      encoding: 'utf8',
    });
    expect(out).toMatch(new RegExp(`^nodes ${nodes}$`, 'm'));
    expect(out).toMatch(/^nps \d+$/m);
  });

  it('divides by root move, and the rows add up', () => {
    const r = kishi('perft', '--game', 'chess', '--fen', 'startpos', '--depth', '2', '--divide');
    const rows = r.stdout.split('\n').filter((l) => /^[a-h][1-8][a-h][1-8][qrbn]?: \d+$/.test(l));
    expect(rows).toHaveLength(20);
    expect(rows.reduce((s, l) => s + Number(l.split(': ')[1]), 0)).toBe(400);
  });

  it('rejects a malformed position with a clear message and exit code 2', () => {
    const r = kishi('perft', '--game', 'chess', '--fen', 'rnbqkbnr/pppppppp/8/8 w KQkq', '--depth', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('invalid FEN "rnbqkbnr/pppppppp/8/8 w KQkq"');
    const s = kishi('perft', '--game', 'shogi', '--sfen', 'lnsgkgsnl/9 b - 1', '--depth', '1');
    expect(s.status).toBe(2);
    expect(s.stderr).toContain('lnsgkgsnl/9 b - 1');
    const d = kishi('perft', '--depth', 'x');
    expect(d.status).toBe(2);
    expect(d.stderr).toContain('--depth must be an integer');
  });

  it('infers shogi from --sfen, and refuses a position of the other game', () => {
    const sfen = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
    const r = kishi('perft', '--sfen', sfen, '--depth', '2');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^nodes 900$/m);
    const wrong = kishi('perft', '--game', 'chess', '--sfen', sfen, '--depth', '1');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim()).toBe('kishi perft: --sfen is a shogi position: use --game shogi, or --fen');
    expect(kishi('perft', '--fen', 'startpos', '--depth', '2').stdout).toMatch(/^nodes 400$/m);
  });

  it('says which notation a position of the other game is in, and the flag to use', () => {
    const sfen = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
    const asFen = kishi('perft', '--fen', sfen, '--depth', '1');
    expect(asFen.status).toBe(2);
    expect(asFen.stderr.trim()).toMatch(/^kishi perft: invalid FEN ".*": bad piece placement field .* \(this is a shogi position, an SFEN: use --sfen\)$/);
    const fen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const asSfen = kishi('perft', '--sfen', fen, '--depth', '1');
    expect(asSfen.status).toBe(2);
    expect(asSfen.stderr.trim()).toMatch(/\(this is a chess position, a FEN: use --fen\)$/);
    // Text of neither game gets no hint.
    expect(kishi('perft', '--fen', 'nonsense', '--depth', '1').stderr).not.toContain('this is a');
  });

  it('has --help', () => {
    const r = kishi('perft', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--divide');
  });
});

describe('kishi run', () => {
  it('exits non-zero with one line naming the missing environment variable', () => {
    const env = { ...process.env };
    delete env.LICHESS_TOKEN;
    // `web.enabled: never`: with the default `auto` a run without any usable account serves the local
    // page instead of exiting (tests/cli/run.test.ts covers that path).
    const config = join(mkdtempSync(join(tmpdir(), 'kishi-run-')), 'kishi.yaml');
    writeFileSync(config, 'lichess:\n  enabled: true\nweb:\n  enabled: never\n');
    const r = spawnSync(process.execPath, ['bin/kishi.js', 'run', '--config', config], { encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n').filter((l) => l.includes('LICHESS_TOKEN'))).toHaveLength(1);
  });

  it('reports a missing config file', () => {
    const r = kishi('run', '--config', '/nonexistent.yaml');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('/nonexistent.yaml');
    expect(r.stderr).toContain('file not found');
  });
});

describe('kishi suite', () => {
  it('infers the game from the file extensions, or says --game is needed', () => {
    expect(suiteGame(['a.sfen', 'b.SFEN'])).toBe('shogi');
    expect(suiteGame(['wac.epd'])).toBe('chess');
    expect(suiteGame(['a.sfen', 'b.epd'])).toBeUndefined();
    const r = kishi('suite', '-e', 'usi:/bin/false', '--nodes', '1', 'positions.txt');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('kishi suite: cannot tell the game from the file names (.epd is chess, .sfen shogi): give --game chess or --game shogi');
  });
});
