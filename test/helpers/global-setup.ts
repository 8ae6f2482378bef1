// vitest's globalSetup: runs once in the main process, before the workers start and after they end.
// It gives the run its temp root (temp-root.ts) and fails the run when something was left outside
// it, and under CI it fails the run at once when a tool some tests need is missing (tools.ts).
import { basename } from 'node:path';
import type { TestProject } from 'vitest/node';
import { missingTools, requiredNote, toolsRequired } from './tools.js';
import { openTempRoot, type TempRoot } from './temp-root.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's temp root (TMPDIR inside the workers). */
    tempRoot: string;
  }
}

/** The run's one temp root, shared by its projects (vitest.config.ts): each runs this setup. */
interface Shared {
  temp: TempRoot;
  projects: number;
  /** vitest's own folders of transformed modules, one per project, made before this ran. */
  vitestFolders: Set<string>;
}
const SHARED = Symbol.for('cdata.tests.tempRoot');
const registry = globalThis as { [SHARED]?: Shared };

export default function setup(project: TestProject): () => void {
  if (registry[SHARED] === undefined) {
    const missing = missingTools();
    if (missing.length > 0 && toolsRequired()) throw new Error(requiredNote(missing));
    registry[SHARED] = { temp: openTempRoot(), projects: 0, vitestFolders: new Set() };
  }
  const shared = registry[SHARED];
  shared.projects++;
  shared.vitestFolders.add(basename(project.tmpDir));
  project.provide('tempRoot', shared.temp.root);
  return () => {
    // The root stays until the last project is done with it.
    if (--shared.projects > 0) return;
    registry[SHARED] = undefined;
    report(shared);
  };
}

/** Removes the root; says what appeared outside it meanwhile (under a strict TMPDIR, fails the run). */
function report({ temp, vitestFolders }: Shared): void {
  // vitest removes its own folders as it closes.
  const gained = temp.close().filter((name) => !vitestFolders.has(name));
  const ours = temp.strict
    ? gained
    : gained.filter((name) => name.startsWith('cdata-') && !name.startsWith('cdata-tests-'));
  if (ours.length === 0) return;
  const count = `${ours.length} ${ours.length === 1 ? 'entry' : 'entries'}`;
  const listed = `${ours.slice(0, 10).join(', ')}${ours.length > 10 ? ', …' : ''}`;
  if (temp.strict) {
    console.error(`error: the tests left ${count} in ${temp.original}, outside the run's temp root: ${listed}`);
    process.exitCode = 1;
  } else {
    // A shared TMPDIR: other programs, or other runs of cdata's tests, write there too.
    console.error(
      `note: ${count} named cdata-* appeared in ${temp.original} during the run (it is shared, so they may be another run's): ${listed}`,
    );
  }
}
