import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __CDATA_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
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
  },
});
