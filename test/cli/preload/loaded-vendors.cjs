// Preloaded into the built cdata by test/cli/query-loading.test.ts (node -r): as the process
// exits, one stderr line names the files of dist/vendor/ it loaded (Node's require.cache), so
// the test sees which commands pay for which packages.
'use strict';
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const VENDOR = /[\\/]dist[\\/]vendor[\\/]([^\\/]+\.cjs)$/;

// The process's own line: a --query's worker thread (dist/query.cjs) preloads this too, and
// loads only dist/vendor/jmespath.cjs, which the main thread has loaded to compile the query.
process.on('exit', () => {
  if (!isMainThread) return;
  const loaded = Object.keys(require.cache).flatMap((path) => VENDOR.exec(path)?.[1] ?? []);
  fs.writeSync(
    2,
    `loaded vendors: ${loaded.sort().join(' ')}
`,
  );
});
