/**
 * The page's files, all served from this machine (the page works offline): the page scripts bundled
 * by esbuild from `web/page/main.ts` (play) and `web/page/watch.ts` (watch) with chessground, shogiground, chessops and shogiops (their npm
 * packages), the page's HTML and CSS, chessground's own CSS (board and cburnett pieces are data
 * URIs inside it), and the kanji of the shogi pieces and notation: a subset of Noto Serif CJK JP
 * (web/page/fonts/, SIL OFL 1.1; scripts/make-kanji-font.sh) as a data URI in `/kanji.css`, so shogi
 * looks the same on a machine without Japanese fonts. Bundled once when the server starts, in memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/package-path.js';

/** Served path -> contents. */
export type PageAssets = ReadonlyMap<string, string>;

/** The page scripts, bundled: the play page from `web/page/main.ts`, the watch view from `web/page/watch.ts`. */
export interface PageScripts {
  readonly app: string;
  readonly watch: string;
}

export async function bundlePage(): Promise<PageScripts> {
  const root = packageRoot();
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { app: join(root, 'web', 'page', 'main.ts'), watch: join(root, 'web', 'page', 'watch.ts') },
    outdir: join(root, 'web', 'page', 'bundle'),
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    write: false,
    absWorkingDir: root,
    logLevel: 'silent',
    legalComments: 'eof',
  });
  const named = (name: string): string => {
    const out = result.outputFiles.find((f) => f.path.endsWith(`${name}.js`));
    if (out === undefined) throw new Error(`esbuild produced no ${name}.js`);
    return out.text;
  };
  return { app: named('app'), watch: named('watch') };
}

/** Every file the page loads, by its path on the server. */
export function pageAssets(scripts: PageScripts): PageAssets {
  const root = packageRoot();
  const page = (f: string): string => readFileSync(join(root, 'web', 'page', f), 'utf8');
  const cg = (f: string): string => readFileSync(join(root, 'node_modules', '@lichess-org', 'chessground', 'assets', f), 'utf8');
  const kanji = readFileSync(join(root, 'web', 'page', 'fonts', 'kishi-kanji.woff2')).toString('base64');
  return new Map([
    ['/index.html', page('index.html')],
    ['/style.css', page('style.css')],
    ['/shogi.css', page('shogi.css')],
    // font-display: block: a piece is never drawn in a fallback font (the data URI loads at once).
    ['/kanji.css', `@font-face{font-family:"Kishi Kanji";font-weight:400 900;font-display:block;src:url(data:font/woff2;base64,${kanji}) format("woff2")}\n`],
    ['/app.js', scripts.app],
    ['/watch.html', page('watch.html')],
    ['/watch.js', scripts.watch],
    ['/chessground.base.css', cg('chessground.base.css')],
    ['/chessground.brown.css', cg('chessground.brown.css')],
    ['/chessground.cburnett.css', cg('chessground.cburnett.css')],
  ]);
}
