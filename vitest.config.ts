import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Test files share their worker's module graph (isolate: false): each file would otherwise import
// and transform src/ again, about a quarter of the suite's CPU (docs/development.md). A file that
// mocks a module (vi.mock) changes that graph for whoever comes next, so those run isolated.
// `npm test` runs every file but the heavy ones (*.heavy.test.ts: those that take many seconds of
// CPU by their nature, such as exports of 125 MB); `npm run test:heavy` (CDATA_TESTS=heavy) runs
// those alone. CI runs both (.ci/run). Read beside this file, wherever vitest was started from.
const HEAVY = process.env.CDATA_TESTS === 'heavy';
const TESTS = new URL('./test/', import.meta.url);
const FILES = readdirSync(TESTS, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.test.ts') && file.endsWith('.heavy.test.ts') === HEAVY,
);
const MOCKING = FILES.filter((file) => /^vi\.mock\(/m.test(readFileSync(new URL(file, TESTS), 'utf8')));
const included = (files: string[]) => files.map((file) => `test/${file}`);

export default defineConfig({
  define: { __CDATA_VERSION__: JSON.stringify(pkg.version) },
  test: {
    // Each module transformed once, not at every run: kept in node_modules/.experimental-vitest-cache
    // by a hash of its content and of this config (`define` is applied at run time, not in the
    // kept code); `npx vitest --clearCache` empties it. The main process's CPU 8.5 -> 4.7 s.
    experimental: { fsModuleCache: true },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests that spawn the binary or a pseudo-terminal share two cores with the rest.
    maxWorkers: 4,
    // Transformed like our own code, so a test can mock what conf writes with (atomically):
    // test/faults/disk-full.test.ts simulates a full disk under a config write.
    server: { deps: { inline: ['conf'] } },
    // One temp root for the whole run, removed at its end; under CI, every tool (tools.ts) required.
    globalSetup: ['test/helpers/global-setup.ts'],
    // The default output, then one line saying how many tests a missing tool made skip.
    reporters: ['default', './test/helpers/skip-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: included(FILES.filter((file) => !MOCKING.includes(file))), isolate: false },
      },
      { extends: true, test: { name: 'mocking', include: included(MOCKING), isolate: true } },
    ],
  },
});
