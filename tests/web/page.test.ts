/**
 * The page's sources: they typecheck (web/page/tsconfig.json, DOM types), the bundle builds, and
 * every file the page loads is served from this machine (no address of another host in the HTML; the
 * kanji font inside /kanji.css).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundlePage, pageAssets } from '../../src/web/page-bundle.js';

describe('the page sources', () => {
  it('typecheck', () => {
    expect(() => execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'web/page'], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
  });

  it('bundle with chessground and shogiground, and load only local files', async () => {
    const scripts = await bundlePage();
    expect(scripts.app).toContain('cg-board');
    expect(scripts.app).toContain('sg-board');
    expect(scripts.watch).toContain('sg-board');
    const assets = pageAssets(scripts);
    const html = assets.get('/index.html')! + assets.get('/watch.html')!;
    const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(loaded.length).toBeGreaterThan(5);
    for (const path of loaded) {
      if (path.startsWith('data:')) continue;
      expect(path.startsWith('/'), path).toBe(true);
      expect(assets.has(path === '/' ? '/index.html' : path), path).toBe(true);
    }
    expect(readFileSync('web/page/style.css', 'utf8')).not.toMatch(/url\(\s*['"]?https?:/);
    // The kanji font is served inside /kanji.css (a data URI), with its licence beside the vendored file.
    const kanji = assets.get('/kanji.css')!;
    expect(kanji).toMatch(/^@font-face\{font-family:"Kishi Kanji";.*src:url\(data:font\/woff2;base64,[A-Za-z0-9+/=]{1000,}\) format\("woff2"\)\}/);
    expect(readFileSync('web/page/fonts/OFL.txt', 'utf8')).toContain('SIL OPEN FONT LICENSE Version 1.1');
    for (const css of ['style.css', 'shogi.css']) expect(readFileSync(`web/page/${css}`, 'utf8')).not.toMatch(/url\(\s*['"]?https?:/);
  });
});
