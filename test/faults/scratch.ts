// Temp folders for one test file, all removed after it: a test run leaves nothing in TMPDIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A function making a fresh empty folder under one root per file, removed after the file's tests. */
export function scratch(prefix: string): () => string {
  let root: string | undefined;
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  return () => {
    root ??= mkdtempSync(join(tmpdir(), `${prefix}-`));
    return mkdtempSync(join(root, 'f-'));
  };
}
