// `run` plus the properties every run of cdata must have, whatever the test is about: no API key
// in stdout or stderr (the demo keys and whatever CDATA_API_KEY held), and no raw control
// character on stderr. Tests in test/cli and test/client run cdata through this.
import { expect } from 'vitest';
import { DEMO_KEYS, demoKey } from '../../src/sandbox/keys.js';
import type { TestIoOptions } from './io.js';
import { run, type RunResult } from './run.js';

const KEYS = DEMO_KEYS.map((key) => demoKey(key.id));

/**
 * Characters that must never reach a terminal raw: C0 (ESC included) but newline, DEL, C1, and
 * the bidirectional overrides and isolates. `allowTab` for TSV, whose fields tabs separate.
 */
export function unsafeChars(text: string, options: { allowTab?: boolean } = {}): string[] {
  const found = text.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g) ?? [];
  return found
    .filter((char) => !(options.allowTab && char === '\t'))
    .map((char) => `U+${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function expectNoSecrets(text: string, extra: readonly string[] = []): void {
  for (const key of [...KEYS, ...extra])
    expect(text.includes(key), `the key ${key.slice(0, 8)}… appears in the output`).toBe(false);
}

/**
 * Back to the start of the line and clear it: how cdata itself redraws a line in place on a
 * terminal (a wait's spinner, when an answer is slow), never a character from the API.
 */
const REDRAW = /\r\u001b\[2K/g;

export async function cdata(argv: string[], options: TestIoOptions = {}): Promise<RunResult> {
  const result = await run(argv, options);
  const given = options.env?.CDATA_API_KEY;
  expectNoSecrets(result.stdout + result.stderr, given ? [given] : []);
  expect(unsafeChars(result.stderr.replace(REDRAW, '')), 'raw control characters on stderr').toEqual([]);
  return result;
}
