// `npm run mutate` as a person runs it (scripts/mutate.mjs): Stryker over one module with that
// module's own tests, here the smallest, src/export/detect.ts, whose tests kill every mutant
// (docs/development.md, "Mutation testing"). The run has been broken twice without a word from
// the rest of the suite: by TypeScript 7, which has no JavaScript API for Stryker's tsconfig
// rewrite (the run stopped), and by vitest's module cache, with which Stryker switched no
// mutant on (src/core/params.ts: 1 of 122 mutants killed, 120 without it). It writes the
// module's report in reports/mutation/ (git-ignored), as the command always does.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runProcess } from '../helpers/spawn.js';

const root = new URL('../..', import.meta.url).pathname;

it('kills the mutants of src/export/detect.ts: a run that switches mutants on', async () => {
  const result = await runProcess(
    process.execPath,
    [join(root, 'scripts/mutate.mjs'), '--fresh', 'src/export/detect.ts'],
    {
      cwd: root,
      timeoutMs: 300_000,
    },
  );
  expect(result.code, result.stderr).toBe(0);
  const row = /^src\/export\/detect\.ts +(\d+) +(\d+) +(\d+) +(\d+) +([\d.]+)% +\d+ s$/m.exec(result.stdout);
  expect(row, result.stdout).not.toBeNull();
  const [killed, timedOut, survived, noCoverage] = row!.slice(1, 5).map(Number);
  expect(killed! + timedOut!).toBeGreaterThanOrEqual(15);
  expect({ survived, noCoverage }).toEqual({ survived: 0, noCoverage: 0 });
}, 300_000);
