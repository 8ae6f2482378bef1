// Runs `main` in-process, as a user would run `cdata ...`, against whatever env the test gives.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { testIo, type TestIo, type TestIoOptions } from './io.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

/**
 * A fresh, empty config folder: no test ever reads or writes the user's own config. It lives in
 * the run's temp root (test/helpers/temp-root.ts), which is removed when the run ends.
 */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'cdata-test-'));
}

/** `main` with the test's env; a config folder of its own, removed after, unless the env names one. */
export async function run(argv: string[], options: TestIoOptions = {}): Promise<RunResult> {
  const own = options.env && 'CDATA_CONFIG_DIR' in options.env ? undefined : tempConfigDir();
  try {
    return await runWith(testIo({ ...options, env: { CDATA_CONFIG_DIR: own, ...options.env } }), argv);
  } finally {
    if (own) rmSync(own, { recursive: true, force: true });
  }
}

/** For tests that need the TestIo itself (to interrupt, or to inspect while running). */
export async function runWith(io: TestIo, argv: string[]): Promise<RunResult> {
  const code = await main(argv, io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr(), sleeps: io.sleeps };
}
