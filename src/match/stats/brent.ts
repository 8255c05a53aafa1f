/**
 * Brent's root finder, a transcription of the algorithm behind scipy.optimize.brentq
 * (scipy/optimize/Zeros/brentq.c, after Brent 1973, "Algorithms for Minimization without
 * Derivatives", ch. 4), with the same defaults, so that the fishtest LLR code ported in
 * llr.ts converges to the same roots as its Python original.
 */

/** Options of {@link brentRoot}; the defaults are scipy's. */
export interface BrentOptions {
  /** Absolute x tolerance (scipy `xtol`, default 2e-12). */
  readonly xtol?: number;
  /** Relative x tolerance (scipy `rtol`, default 4 * machine epsilon). */
  readonly rtol?: number;
  /** Iteration cap (scipy `maxiter`, default 100). */
  readonly maxIterations?: number;
}

/**
 * A root of f in [a, b], where f(a) and f(b) must have opposite signs (or one be 0).
 * Returns `undefined` when the root is not bracketed (scipy raises ValueError there) or when an
 * end point evaluates to NaN; after `maxIterations` it returns the best iterate, as scipy with
 * `disp=False` does.
 */
export function brentRoot(
  f: (x: number) => number,
  a: number,
  b: number,
  options: BrentOptions = {},
): number | undefined {
  const xtol = options.xtol ?? 2e-12;
  const rtol = options.rtol ?? 4 * Number.EPSILON;
  const maxIterations = options.maxIterations ?? 100;

  let xpre = a;
  let xcur = b;
  let fpre = f(xpre);
  let fcur = f(xcur);
  if (Number.isNaN(fpre) || Number.isNaN(fcur)) return undefined;
  if (fpre * fcur > 0) return undefined;
  if (fpre === 0) return xpre;
  if (fcur === 0) return xcur;

  let xblk = 0;
  let fblk = 0;
  let spre = 0;
  let scur = 0;
  for (let i = 0; i < maxIterations; i++) {
    if (fpre !== 0 && fcur !== 0 && Math.sign(fpre) !== Math.sign(fcur)) {
      xblk = xpre;
      fblk = fpre;
      spre = scur = xcur - xpre;
    }
    if (Math.abs(fblk) < Math.abs(fcur)) {
      // Keep the best iterate in xcur.
      xpre = xcur;
      xcur = xblk;
      xblk = xpre;
      fpre = fcur;
      fcur = fblk;
      fblk = fpre;
    }
    const delta = (xtol + rtol * Math.abs(xcur)) / 2;
    const sbis = (xblk - xcur) / 2;
    if (fcur === 0 || Math.abs(sbis) < delta) return xcur;

    if (Math.abs(spre) > delta && Math.abs(fcur) < Math.abs(fpre)) {
      let stry: number;
      if (xpre === xblk) {
        // Secant (linear interpolation).
        stry = (-fcur * (xcur - xpre)) / (fcur - fpre);
      } else {
        // Inverse quadratic extrapolation.
        const dpre = (fpre - fcur) / (xpre - xcur);
        const dblk = (fblk - fcur) / (xblk - xcur);
        stry = (-fcur * (fblk * dblk - fpre * dpre)) / (dblk * dpre * (fblk - fpre));
      }
      if (2 * Math.abs(stry) < Math.min(Math.abs(spre), 3 * Math.abs(sbis) - delta)) {
        spre = scur; // good short step
        scur = stry;
      } else {
        spre = sbis; // bisect
        scur = sbis;
      }
    } else {
      spre = sbis; // bisect
      scur = sbis;
    }

    xpre = xcur;
    fpre = fcur;
    xcur += Math.abs(scur) > delta ? scur : sbis > 0 ? delta : -delta;
    fcur = f(xcur);
  }
  return xcur;
}
