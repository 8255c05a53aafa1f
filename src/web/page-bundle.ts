/**
 * The page's files, all served from this machine (the page works offline): the page script bundled
 * by esbuild from `web/page/main.ts` with chessground, shogiground, chessops and shogiops (their npm
 * packages), the page's HTML and CSS, and chessground's own CSS (board and cburnett pieces are data
 * URIs inside it). Bundled once when the server starts, in memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../player/weights-file.js';

/** Served path -> contents. */
export type PageAssets = ReadonlyMap<string, string>;

/** The page script, bundled from `web/page/main.ts`. */
export async function bundlePage(): Promise<string> {
  const root = packageRoot();
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, 'web', 'page', 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    write: false,
    absWorkingDir: root,
    logLevel: 'silent',
    legalComments: 'eof',
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error('esbuild produced no page script');
  return out.text;
}

/** Every file the page loads, by its path on the server. */
export function pageAssets(script: string): PageAssets {
  const root = packageRoot();
  const page = (f: string): string => readFileSync(join(root, 'web', 'page', f), 'utf8');
  const cg = (f: string): string => readFileSync(join(root, 'node_modules', '@lichess-org', 'chessground', 'assets', f), 'utf8');
  return new Map([
    ['/index.html', page('index.html')],
    ['/style.css', page('style.css')],
    ['/shogi.css', page('shogi.css')],
    ['/app.js', script],
    ['/chessground.base.css', cg('chessground.base.css')],
    ['/chessground.brown.css', cg('chessground.brown.css')],
    ['/chessground.cburnett.css', cg('chessground.cburnett.css')],
  ]);
}
