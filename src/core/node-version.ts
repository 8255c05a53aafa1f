/**
 * The Node.js versions Kishi runs on, checked by `bin/kishi.js` before anything else is loaded, so
 * that a user on an old Node reads one line saying what is needed and why instead of npm's generic
 * EBADENGINE warnings followed by whatever breaks first.
 *
 * Supported: Node 22 and newer (package.json `engines`): `@badrap/result` 0.3, which chessops uses,
 * declares `node >= 22`, and Node 20 reached its end of life in April 2026. Node 20 still runs every
 * command (the whole test suite passes on Node 20.20), so it is accepted without a word; anything
 * older is refused, since nothing was ever tried on it.
 */

/** The Node major version Kishi supports (package.json `engines.node`). */
export const SUPPORTED_NODE_MAJOR = 22;

/** The oldest Node major version that runs Kishi (unsupported below `SUPPORTED_NODE_MAJOR`). */
export const OLDEST_WORKING_NODE_MAJOR = 20;

/** Why Kishi refuses to start on this Node version (`process.versions.node`), or undefined when it runs. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isFinite(major) && major >= OLDEST_WORKING_NODE_MAJOR) return undefined;
  return (
    `Node ${version} is too old: Kishi needs Node ${SUPPORTED_NODE_MAJOR} or newer (chessops needs @badrap/result, ` +
    `which declares node >= ${SUPPORTED_NODE_MAJOR}; Node ${OLDEST_WORKING_NODE_MAJOR} still runs Kishi, older versions were never tried)`
  );
}
