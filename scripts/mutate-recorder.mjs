// A Stryker reporter for scripts/mutate.mjs: after each mutant, it writes the results so far to
// the incremental file, in the format Stryker reads it back (mutation-testing-report schema). A
// run stopped half-way (Ctrl-C, a closed terminal) then resumes where it was: Stryker itself
// writes that file only when a run ends.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** The fields of a tested mutant that Stryker's incremental file keeps. */
const RECORDED = [
  'id',
  'mutatorName',
  'replacement',
  'location',
  'status',
  'statusReason',
  'coveredBy',
  'killedBy',
  'testsCompleted',
  'static',
];

class Recorder {
  static inject = [commonTokens.options];

  /** @param {{ incrementalFile: string }} options */
  constructor(options) {
    this.file = options.incrementalFile;
    /** @type {Record<string, { language: string; source: string; mutants: object[] }>} */
    this.files = {};
    /** @type {Record<string, { source: string; tests: object[] }>} */
    this.testFiles = {};
  }

  onDryRunCompleted({ result }) {
    for (const test of result.tests ?? []) {
      if (!test.fileName) continue;
      const name = relative(process.cwd(), test.fileName);
      this.testFiles[name] ??= { source: readFileSync(test.fileName, 'utf8'), tests: [] };
      const start = test.startPosition && { line: test.startPosition.line + 1, column: test.startPosition.column + 1 };
      this.testFiles[name].tests.push({ id: test.id, name: test.name, ...(start && { location: { start } }) });
    }
  }

  onMutantTested(result) {
    // Not yet tested, or known without a test run: nothing a resumed run would save.
    if (result.status === 'Pending' || result.status === 'Ignored') return;
    const name = relative(process.cwd(), result.fileName);
    this.files[name] ??= { language: 'typescript', source: readFileSync(result.fileName, 'utf8'), mutants: [] };
    // What a resumed run reads of a mutant: these fields, as Stryker reports them.
    this.files[name].mutants.push(Object.fromEntries(RECORDED.map((field) => [field, result[field]])));
    const report = {
      schemaVersion: '2',
      thresholds: { high: 90, low: 80 },
      files: this.files,
      testFiles: this.testFiles,
    };
    writeFileSync(this.file, JSON.stringify(report));
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'cdata-recorder', Recorder)];
