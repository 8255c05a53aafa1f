/**
 * Vega-Lite spec -> SVG, headless: `vegaLite.compile(spec).spec` gives a Vega spec, and a Vega
 * `View` with `renderer: 'none'` renders it with `toSVG()` (no browser, no canvas).
 *
 * vega and vega-lite are loaded at run time, so the rest of Kishi builds and runs without them;
 * when they are missing, rendering fails with ERR_PLOT_DEPS naming the packages to install.
 */
import { KishiError, Result } from '../core/result.js';
import type { VegaLiteSpec } from './specs.js';

/** The few entry points used, typed here so the build does not need the packages' types. */
interface VegaModule {
  parse(spec: unknown): unknown;
  View: new (runtime: unknown, options: { renderer: 'none' }) => { toSVG(scale?: number): Promise<string>; finalize(): void };
}
interface VegaLiteModule {
  compile(spec: unknown): { spec: unknown };
}

export const PLOT_PACKAGES = ['vega@^6', 'vega-lite@^6'] as const;

/** Whether vega and vega-lite can be loaded here. */
export async function plotDepsAvailable(): Promise<boolean> {
  return (await loadModules()).isOk;
}

async function loadModules(): Promise<Result<{ vega: VegaModule; vl: VegaLiteModule }, KishiError>> {
  // Module names in variables: TypeScript does not try to resolve them at build time.
  const vegaName = 'vega';
  const vlName = 'vega-lite';
  try {
    const vega = (await import(vegaName)) as VegaModule;
    const vl = (await import(vlName)) as VegaLiteModule;
    return Result.ok({ vega, vl });
  } catch (e) {
    return Result.err(
      new KishiError('ERR_PLOT_DEPS', `rendering charts needs ${PLOT_PACKAGES.join(' and ')} (npm install ${PLOT_PACKAGES.join(' ')}): ${(e as Error).message}`),
    );
  }
}

/** Renders a Vega-Lite spec to SVG text. */
export async function renderSvg(spec: VegaLiteSpec): Promise<Result<string, KishiError>> {
  const mods = await loadModules();
  if (mods.isErr) return Result.err(mods.error);
  const { vega, vl } = mods.value;
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return Result.ok(await view.toSVG());
  } catch (e) {
    return Result.err(new KishiError('ERR_PLOT_RENDER', `cannot render the chart: ${(e as Error).message}`));
  } finally {
    view.finalize();
  }
}
