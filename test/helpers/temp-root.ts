// One temp root per test run. Every folder a test, a helper or a spawned cdata makes lands in it:
// os.tmpdir() reads TMPDIR, which this points at the root before the workers start, and the
// workers and the children they spawn inherit it. The root is removed when the run ends, failed
// tests or not; what appeared outside it in the original TMPDIR meanwhile is reported.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempRoot {
  root: string;
  /** The TMPDIR the run was given. */
  original: string;
  /**
   * It was empty at the start (but for RUNTIME_CACHE): nothing but this run should write there,
   * so any entry is a leak.
   */
  strict: boolean;
  /** Removes the root and restores TMPDIR; returns the entries the original TMPDIR gained. */
  close(): string[];
}

/**
 * Node's compile cache of npm itself: npm turns it on under Node 22 and later, so `npm test` makes
 * it in TMPDIR before vitest starts. It says nothing of the tests; anything else there does.
 */
const RUNTIME_CACHE = 'node-compile-cache';

export function openTempRoot(): TempRoot {
  const original = tmpdir();
  const before = new Set(readdirSync(original));
  const root = mkdtempSync(join(original, 'cdata-tests-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return {
    root,
    original,
    strict: [...before].every((name) => name === RUNTIME_CACHE),
    close() {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      removeTree(root);
      return readdirSync(original).filter((name) => !before.has(name));
    },
  };
}

/** rm -rf, also through the read-only folders tests make (as a user other than root). */
function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    makeWritable(path);
    rmSync(path, { recursive: true, force: true });
  }
}

function makeWritable(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) makeWritable(join(dir, entry.name));
  } catch {
    // Not ours to change: rmSync reports what it still cannot remove.
  }
}
