// Preloaded into the built cdata by test/install/code-cache.test.ts (node -r): as the process
// exits, one stderr line says, for each file compiled through node:vm with a file name, whether
// V8 used the cache it was given, rejected it, or was given none. bin/code-cache.cjs takes
// Script from node:vm after this runs, so it gets this watching subclass.
'use strict';
const vm = require('node:vm');
const { writeSync } = require('node:fs');

const seen = [];
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (options?.filename) {
      const cache = options.cachedData === undefined ? 'none' : this.cachedDataRejected ? 'rejected' : 'used';
      seen.push(`${options.filename.replace(/^.*[\\/]dist[\\/]/, '')}=${cache}`);
    }
  }
};

process.on('exit', () => writeSync(2, `code cache: ${seen.join(' ')}\n`));
