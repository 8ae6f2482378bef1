// A vitest reporter that says, once at the end of the run, how many tests were skipped for want
// of a tool and which tools (tools.ts): one line, rather than a reason beside each test.
import type { Reporter, TestModule } from 'vitest/node';
import { missingTools, skipNote, TOOL_TESTS, toolsRequired } from './tools.js';

export default class SkippedToolsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const missing = missingTools();
    if (missing.length === 0 || toolsRequired()) return;
    const skipped = testModules
      .filter((module) => TOOL_TESTS.includes(module.relativeModuleId))
      .reduce((count, module) => count + [...module.children.allTests('skipped')].length, 0);
    if (skipped > 0) console.log(skipNote(missing, skipped));
  }
}
