// The vitest configuration of `npm run mutate` (scripts/mutate.mjs): the project's own, limited to
// the test files of the module under test, which the script passes in CDATA_MUTATE_TESTS (comma
// separated). Not Stryker's `testFiles` option: with it, Stryker 9.6.1 activates a mutant of
// module-level code only after the module has loaded, so every such mutant "survives"
// (stryker-js issue 6144).
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import base from '../vitest.config.js';

const tests = (process.env.CDATA_MUTATE_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('CDATA_MUTATE_TESTS names no test file (run npm run mutate)');

const config = mergeConfig(base, { root: fileURLToPath(new URL('..', import.meta.url)) });
// Set, not merged: mergeConfig would add these to the suite's own pattern. One project, isolated
// (vitest's default): Stryker's runner expects it. And no module cache: with the suite's kept
// modules, Stryker's runner never switched a mutant on (src/core/params.ts: 1 of 122 killed,
// against 120 without the cache).
config.test = { ...config.test, include: tests, projects: undefined, experimental: { fsModuleCache: false } };
export default config;
