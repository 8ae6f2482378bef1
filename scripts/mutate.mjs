// `npm run mutate [-- FILE...]`: mutation testing (Stryker, its vitest runner) of the core
// modules, one run per module against that module's own test files, so each gets a score of its
// own and a run stays within minutes. On demand only, not part of `npm test` or CI.
//
//   node scripts/mutate.mjs [--fresh] [src/<module>.ts ...]
//
// No file: every module of MODULES, in order. Each run writes reports/mutation/NAME.json (the
// mutation-testing-report schema) and keeps Stryker's incremental file next to it, so a run
// stopped half-way, or run again after a change to the module, tests only the mutants not yet
// tested or whose code changed (a change to its test files starts the module afresh); --fresh
// drops those files first. At the end reports/mutation/mutation.json holds every
// module's last report (one `files` entry each) and a table gives the scores.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'reports/mutation');

/**
 * Each module and the test files that load it in-process (tests that spawn bin/cdata.js run the
 * built dist/, which a mutant of src/ does not reach). Stable modules first.
 */
const MODULES = {
  'src/client/retry-after.ts': ['test/client/retry-after.test.ts', 'test/client/retry.test.ts'],
  // resolve.test.ts runs commands against a sandbox, slow enough to take a run past 7 minutes.
  'src/config/resolve.ts': ['test/config/resolve-settings.test.ts'],
  'src/core/json-scan.ts': ['test/core/json-scan.test.ts'],
  'src/core/params.ts': ['test/core/params.test.ts'],
  'src/export/changes.ts': ['test/export/compare.test.ts', 'test/export/changes-rows.test.ts'],
  'src/export/coverage.ts': ['test/export/gap.test.ts', 'test/export/coverage.test.ts'],
  'src/export/detect.ts': ['test/export/detect.test.ts'],
  // profiles.test.ts, whole exports against sandboxes, is left out: this reaches it without a server.
  'src/export/profiles/gate.ts': ['test/export/gate.test.ts'],
  // profiles.test.ts selects through exports against a sandbox, 13 s a run: too slow per mutant.
  'src/export/profiles/select.ts': ['test/export/select.test.ts'],
  // So for shard.ts; test/docs/many-profiles.test.ts, its worked values, runs sh besides.
  'src/export/profiles/shard.ts': ['test/export/select.test.ts'],
  // table.test.ts's property test makes each loop mutant a long time-out.
  'src/output/fit.ts': ['test/output/fit.test.ts'],
  'src/output/query/row-filters.ts': ['test/output/query/row-filters.test.ts'],
  // The library is adjusted once per file's run, in its first query: per-test coverage credits that
  // code to the first test alone, so runtime.test.ts's first reaches every adjustment.
  // query-python.test.ts is left out: it runs Python, and its cases skip where there is none.
  'src/output/query/runtime.ts': ['test/output/query/runtime.test.ts', 'test/cli/query-expressions.test.ts'],
};

const args = process.argv.slice(2);
const fresh = args.includes('--fresh');
const asked = args.filter((arg) => !arg.startsWith('--'));
for (const file of asked) {
  if (!Object.hasOwn(MODULES, file)) {
    console.error(`mutate: no test files are mapped for ${file}; add it to MODULES in scripts/mutate.mjs`);
    process.exit(2);
  }
}
const files = asked.length > 0 ? asked : Object.keys(MODULES);

const { Stryker } = await import('@stryker-mutator/core');
mkdirSync(out, { recursive: true });
const rows = [];
for (const file of files) {
  const name = basename(file, '.ts');
  const report = join(out, `${name}.json`);
  const testFiles = MODULES[file].filter((test) => existsSync(join(root, test)));
  // Stryker's incremental mode reruns a mutant when its code or the tests covering it change,
  // but a mutant of module-level code has no covering tests of its own: its old result would
  // stand after a test is added. So the file is kept per version of the module's test files.
  const hash = createHash('sha256');
  for (const test of testFiles) hash.update(`${test}\0${readFileSync(join(root, test))}\0`);
  const incremental = join(out, `${name}.${hash.digest('hex').slice(0, 12)}.incremental.json`);
  for (const old of readdirSync(out)) {
    if (old.startsWith(`${name}.`) && old.endsWith('.incremental.json') && (fresh || join(out, old) !== incremental))
      rmSync(join(out, old));
  }
  process.env.CDATA_MUTATE_TESTS = testFiles.join(',');
  const started = Date.now();
  console.error(`\n== ${file} (${testFiles.join(', ')})`);
  const stryker = new Stryker({
    mutate: [file],
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner', join(root, 'scripts/mutate-recorder.mjs')],
    // The test files, through the configuration (its comment says why not `testFiles`).
    vitest: { configFile: 'scripts/mutate.vitest.config.ts' },
    // Only the tests that reach a mutant run for it.
    coverageAnalysis: 'perTest',
    // The machine is shared: one test process, one mutant at a time.
    concurrency: 1,
    // A mutant that turns a loop endless is a timeout (counted as detected) after its tests'
    // own time plus this much, not after Stryker's default 5 s.
    timeoutMS: 2000,
    timeoutFactor: 1.5,
    // Results are kept as mutants finish (mutate-recorder.mjs): a stopped run resumes where it was.
    incremental: true,
    incrementalFile: incremental,
    reporters: ['json', 'progress-append-only', 'cdata-recorder'],
    jsonReporter: { fileName: report },
    tempDirName: '.stryker-tmp',
    // Stryker copies the project into its sandbox, git-ignored folders too: not the Node binaries
    // of CI and the bench (.node-lines/, 374 MB with two lines), nor earlier results.
    ignorePatterns: ['/.node-lines', '/bench-results', '/reports'],
    // Stryker rewrites the paths in tsconfig.json that would point out of its sandbox (`extends`,
    // `references`) through TypeScript's JavaScript API, which TypeScript 7, a native program, no
    // longer has. Ours point at nothing outside the folder, so there is nothing to rewrite: the
    // option names no file, and Stryker passes over it.
    tsconfigFile: '',
    cleanTempDir: 'always',
    logLevel: 'warn',
  });
  const results = await stryker.runMutationTest();
  const count = (...statuses) => results.filter((mutant) => statuses.includes(mutant.status)).length;
  const detected = count('Killed', 'Timeout');
  const undetected = count('Survived', 'NoCoverage');
  const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
  const survivors = results.filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage');
  for (const mutant of survivors) {
    const { line, column } = mutant.location.start;
    console.error(
      `  ${mutant.status}: ${file}:${line}:${column + 1} ${mutant.mutatorName} -> ${JSON.stringify(mutant.replacement ?? '')}`,
    );
  }
  rows.push({
    file,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    score,
    seconds: Math.round((Date.now() - started) / 1000),
  });
}

// One report for every module run so far: each module's own report holds its file.
const merged = {
  schemaVersion: '2',
  thresholds: { high: 90, low: 80, break: null },
  files: {},
  testFiles: {},
  projectRoot: root,
};
for (const file of Object.keys(MODULES)) {
  const report = join(out, `${basename(file, '.ts')}.json`);
  if (!existsSync(report)) continue;
  const one = JSON.parse(readFileSync(report, 'utf8'));
  Object.assign(merged.files, one.files);
  Object.assign(merged.testFiles, one.testFiles ?? {});
}
writeFileSync(join(out, 'mutation.json'), JSON.stringify(merged));

console.log('\nmodule                        killed timeout survived no-cover  score   time');
for (const row of rows) {
  console.log(
    `${row.file.padEnd(29)} ${String(row.killed).padStart(6)} ${String(row.timeout).padStart(7)} ${String(row.survived).padStart(8)} ${String(row.noCoverage).padStart(8)} ${row.score.toFixed(1).padStart(5)}% ${String(row.seconds).padStart(5)} s`,
  );
}
console.log(`\nreports/mutation/mutation.json (every module's last run); per module: reports/mutation/NAME.json`);
process.exitCode = rows.every((row) => row.score >= 90) ? 0 : 1;
