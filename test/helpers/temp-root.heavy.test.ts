// The run's temp root (temp-root.ts, global-setup.ts), across a whole run: it goes at the end of
// the run whether tests fail or not, and a run that leaves anything outside it fails. Heavy (npm
// run test:heavy): each case is a vitest run of its own inside this one.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from './spawn.js';

const VITEST = new URL('../../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
const GLOBAL_SETUP = new URL('./global-setup.ts', import.meta.url).pathname;

/**
 * A vitest run of one test file (globals, no imports) with our global setup, TMPDIR a folder that
 * holds only `before` (folders).
 */
async function nestedRun(
  body: string,
  before: string[] = [],
): Promise<{ code: number | null; output: string; tmp: string[] }> {
  const project = mkdtempSync(join(tmpdir(), 'cdata-nested-'));
  const empty = join(project, 'tmp');
  mkdirSync(empty);
  for (const name of before) mkdirSync(join(empty, name));
  writeFileSync(
    join(project, 'vitest.config.mjs'),
    `export default { test: { globals: true, include: ['*.test.mjs'], globalSetup: [${JSON.stringify(GLOBAL_SETUP)}] } };\n`,
  );
  writeFileSync(
    join(project, 'it.test.mjs'),
    `import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\n${body}\n`,
  );
  const result = await runProcess(process.execPath, [VITEST, 'run', '--root', project], {
    env: { TMPDIR: empty, OUTSIDE: empty },
    timeoutMs: 60_000,
  });
  return { code: result.code, output: result.stdout + result.stderr, tmp: readdirSync(empty) };
}

describe('a whole run', () => {
  it('removes its root at the end, read-only folders and all, also when a test fails', async () => {
    const nested = await nestedRun(`test('fails after making temp folders', () => {
  const dir = join(tmpdir(), 'made');
  mkdirSync(join(dir, 'ro', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'ro', 'sub', 'file'), 'x');
  chmodSync(join(dir, 'ro'), 0o555);
  expect(1).toBe(2);
});`);
    expect(nested.output).toContain('1 failed');
    expect(nested.code).toBe(1);
    expect(nested.tmp).toEqual([]);
  }, 60_000);

  it('fails, naming what was left, when something lands outside the root', async () => {
    // npm's own compile cache, which `npm test` makes in TMPDIR under Node 22 and later before the
    // run starts (.ci/run gives each run an empty TMPDIR): the check stays strict beside it.
    const nested = await nestedRun(
      `test('passes but leaves a file', () => {
  writeFileSync(join(process.env.OUTSIDE, 'stray.txt'), 'x');
});`,
      ['node-compile-cache'],
    );
    expect(nested.output).toContain('1 passed');
    expect(nested.output).toMatch(/error: the tests left 1 entry in .*\/tmp, outside the run's temp root: stray\.txt/);
    expect(nested.code).toBe(1);
    expect(nested.tmp).toEqual(['node-compile-cache', 'stray.txt']);
  }, 60_000);
});
