// Runs `main` in-process, as a user would run `cdata ...`, against whatever env the test gives.
import { mkdtempSync } from 'node:fs';
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

/** A fresh, empty config folder: no test ever reads or writes the user's own config. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'cdata-test-'));
}

export async function run(argv: string[], options: TestIoOptions = {}): Promise<RunResult> {
  const io = testIo({ ...options, env: { CDATA_CONFIG_DIR: tempConfigDir(), ...options.env } });
  const code = await main(argv, io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr(), sleeps: io.sleeps };
}

/** For tests that need the TestIo itself (to interrupt, or to inspect while running). */
export async function runWith(io: TestIo, argv: string[]): Promise<RunResult> {
  const code = await main(argv, io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr(), sleeps: io.sleeps };
}
