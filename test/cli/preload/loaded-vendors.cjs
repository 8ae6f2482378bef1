// Preloaded into the built cdata by test/cli/query-loading.test.ts (node -r): as the process
// exits, one stderr line names the files of dist/vendor/ it loaded, so the test sees which
// commands pay for which packages. bin/code-cache.cjs reads each file it loads with
// fs.readFileSync (and compiles it itself, so require.cache never holds them): that is watched.
'use strict';
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const VENDOR = /[\\/]dist[\\/]vendor[\\/]([^\\/]+\.cjs)$/;
const loaded = new Set();
const readFileSync = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  const vendor = typeof path === 'string' ? VENDOR.exec(path) : null;
  if (vendor) loaded.add(vendor[1]);
  return readFileSync.call(this, path, ...rest);
};

// The process's own line: a --query's worker thread (dist/query.cjs) preloads this too, and
// loads only dist/vendor/jmespath.cjs, which the main thread has loaded to compile the query.
process.on('exit', () => {
  if (isMainThread) fs.writeSync(2, `loaded vendors: ${[...loaded].sort().join(' ')}\n`);
});
