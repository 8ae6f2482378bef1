// Bench floor with V8's code cache, loaded as bin/cdata.js loads cdata (bin/code-cache.cjs):
//   node cached.cjs FLOOR.cjs ARGS...
// With CDATA_BENCH_RECORD=1 it runs compiling from source and writes the cache, as the build
// does for dist/ (the bench runs it so once before measuring).
'use strict';
const { dirname, resolve } = require('node:path');
const { CodeCacheLoader, useV8Flags } = require('../../bin/code-cache.cjs');

useV8Flags();
const file = resolve(process.argv[2]);
process.argv.splice(2, 1);
const record = process.env.CDATA_BENCH_RECORD === '1';
const loader = new CodeCacheLoader(dirname(file), { record });
if (record) process.once('exit', () => loader.writeCaches());
loader.require(file);
