// Preloaded into the built cdata by test/cli/query-loading.test.ts (node -r): as the process
// exits, one stderr line names the files of dist/vendor/ it loaded, so the test sees which
// commands pay for which packages.
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => {
  const vendors = Object.keys(require.cache)
    .filter((path) => /[\\/]dist[\\/]vendor[\\/]/.test(path))
    .map((path) => path.replace(/^.*[\\/]/, ''))
    .sort();
  writeSync(2, `loaded vendors: ${vendors.join(' ')}\n`);
});
