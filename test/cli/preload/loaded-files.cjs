// Preloaded into the built cdata by test/cli/code-loading.heavy.test.ts (node -r): as the process
// exits, two stderr lines name the files of dist/vendor/ and the cold files of dist/
// (scripts/cold-code.mjs) it loaded (Node's require.cache), so the test sees which commands pay
// for which code.
'use strict';
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const VENDOR = /[\\/]dist[\\/]vendor[\\/]([^\\/]+\.cjs)$/;
const COLD = /[\\/]dist[\\/]([^\\/]+\.cjs)$/;

// The process's own lines: a --query's worker thread (dist/query.cjs) preloads this too, and
// loads only dist/vendor/jmespath.cjs, which the main thread has loaded to compile the query.
process.on('exit', () => {
  if (!isMainThread) return;
  const paths = Object.keys(require.cache);
  const vendors = paths.flatMap((path) => VENDOR.exec(path)?.[1] ?? []);
  const cold = paths.flatMap((path) => COLD.exec(path)?.[1] ?? []).filter((file) => file !== 'cli.cjs');
  fs.writeSync(2, `loaded vendors: ${vendors.sort().join(' ')}\nloaded cold files: ${cold.sort().join(' ')}\n`);
});
