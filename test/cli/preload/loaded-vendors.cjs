// Preloaded into the built cdata by test/cli/query-loading.test.ts (node -r): as the process
// exits, one stderr line names the files of dist/vendor/ it loaded (Node's require.cache), so
// the test sees which commands pay for which packages.
'use strict';
const fs = require('node:fs');

const VENDOR = /[\\/]dist[\\/]vendor[\\/]([^\\/]+\.cjs)$/;

process.on('exit', () => {
  const loaded = Object.keys(require.cache).flatMap((path) => VENDOR.exec(path)?.[1] ?? []);
  fs.writeSync(2, `loaded vendors: ${loaded.sort().join(' ')}\n`);
});
