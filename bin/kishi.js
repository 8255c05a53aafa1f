#!/usr/bin/env node
// Thin launcher: the CLI is compiled by `npm install` (prepare) into dist/.
import('../dist/src/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/src/main.js')) {
    console.error('kishi: not built yet; run `npm install` (or `npm run build`) first');
    process.exit(2);
  }
  throw err;
});
