#!/usr/bin/env node
// Thin launcher: the CLI is compiled by `npm install` (prepare) into dist/. The Node version is
// checked first (src/core/node-version.ts), before modules that may not load on an old Node.
const notBuilt = (err) =>
  err && err.code === 'ERR_MODULE_NOT_FOUND' && /Cannot find module '[^']*dist\/src\/(main|core\/node-version)\.js'/.test(String(err.message));
import('../dist/src/core/node-version.js')
  .then(({ nodeVersionProblem }) => {
    const problem = nodeVersionProblem(process.versions.node);
    if (problem !== undefined) {
      console.error(`kishi: ${problem}`);
      process.exit(2);
    }
    return import('../dist/src/main.js');
  })
  .catch((err) => {
    if (notBuilt(err)) {
      console.error('kishi: not built yet; run `npm install` (or `npm run build`) first');
      process.exit(2);
    }
    throw err;
  });
