// Waits made visible (docs/output.md): at a terminal, a spinner for an answer slower than
// 0.5 s, a line for each retry and 429 wait, all cleared when done; nothing of it on stdout, in a
// pipe, or with -q. Through the built binary under a real pseudo-terminal. Heavy (npm run
// test:heavy): a terminal session each. The same lines from main in-process: waits.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/sandbox/faults.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { closedPort, faultsAt, useSandboxes } from '../helpers/api.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { memo } from '../helpers/once.js';
import { drawn, screen, SPIN } from '../helpers/screen.js';
import { runBin, runBinInTerminal } from '../helpers/spawn.js';

const makeSandbox = useSandboxes();
const TENDERS = ['tenders', '--tier', 'RECOMMENDED'];

/** Runs without a fault, made once for the tests that compare with them. */
const once = memo();

/** The same command against a sandbox without the fault: what the screen must end up as. */
function plainScreen(args: string[], columns: number): Promise<string> {
  return once(['screen', args, columns], async () => {
    const result = await runBinInTerminal(args, { columns, env: sandboxEnv(await makeSandbox()) });
    expect(result.code).toBe(0);
    return screen(result.stdout);
  });
}

/** The same command in a pipe, against a sandbox without the fault: what stdout must hold. */
function plainStdout(args: string[]): Promise<string> {
  return once(['pipe', args], async () => (await runBin(args, { env: sandboxEnv(await makeSandbox()) })).stdout);
}

async function inTerminal(options: SandboxOptions, args: string[], columns: number) {
  const sandbox = await makeSandbox(options);
  const result = await runBinInTerminal(args, { columns, env: sandboxEnv(sandbox) });
  return { ...result, host: new URL(sandbox.url).host, lines: drawn(result.stdout) };
}

describe.each([80, 120])('at a terminal %i columns wide', (columns) => {
  it('a slow answer: after 0.5 s a spinner names what is awaited and counts the seconds; then the table alone', async () => {
    const result = await inTerminal({ latencyMs: 1500 }, TENDERS, columns);
    expect(result.code).toBe(0);
    const waiting = new RegExp(
      `^${SPIN} waiting for tenders from ${result.host.replace(/\./g, '\\.')} \\((\\d+\\.\\d) s\\)$`,
    );
    expect(result.lines.length).toBeGreaterThan(3);
    for (const line of result.lines) expect(line).toMatch(waiting);
    const seconds = result.lines.map((line) => Number(waiting.exec(line)![1]));
    expect(seconds[0]).toBeGreaterThanOrEqual(0.5);
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    expect(screen(result.stdout)).toBe(await plainScreen(TENDERS, columns));
  });

  it('a retry after a 503 says when, which attempt and why; cleared when the answer comes', async () => {
    const result = await inTerminal({ faults: faultsAt({ 0: FAULTS.unavailable }) }, TENDERS, columns);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toMatch(new RegExp(`^${SPIN} retrying in 0\\.[0-3] s \\(attempt 2 of 3\\): HTTP 503$`));
    expect(screen(result.stdout)).toBe(await plainScreen(TENDERS, columns));
  });

  it('a 429 wait shows its length and counts down', async () => {
    const result = await inTerminal({ faults: faultsAt({ 0: FAULTS.tooManyRequests('1') }) }, TENDERS, columns);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toMatch(
      new RegExp(`^${SPIN} rate limited: waiting 1 s as the API asked \\(Retry-After\\), 1\\.0 s left$`),
    );
    expect(result.lines.some((line) => / 0\.[1-9] s left$/.test(line))).toBe(true);
    expect(screen(result.stdout)).toBe(await plainScreen(TENDERS, columns));
  });

  it('a long reason is cut to the width, so the line redraws in place; the error stays', async () => {
    const port = await closedPort();
    const env = { ...sandboxEnv(await makeSandbox()), CDATA_BASE_URL: `http://127.0.0.1:${port}` };
    const result = await runBinInTerminal([...TENDERS, '--retries', '1'], { columns, env });
    expect(result.code).toBe(6);
    const lines = drawn(result.stdout);
    expect(lines[0]).toMatch(new RegExp(`^${SPIN} retrying in 0\\.[0-3] s \\(attempt 2 of 2\\): connection refused`));
    for (const line of lines) expect([...line].length).toBeLessThan(columns);
    expect(screen(result.stdout)).toMatch(/^error: connection refused by 127\.0\.0\.1:\d+/);
  });
});

describe('nothing of it where it does not belong', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'cdata-waits-'));
  const csv = [...TENDERS, '-o', 'csv'];

  it('stdout holds the data alone: with stderr at the terminal and stdout in a file, the file is what a pipe gets', async () => {
    const sandbox = await makeSandbox({ latencyMs: 1200, faults: faultsAt({ 0: FAULTS.unavailable }) });
    const out = join(folder(), 'out.csv');
    const result = await runBinInTerminal(csv, { env: sandboxEnv(sandbox), redirect: { stdout: out } });
    expect(result.code).toBe(0);
    expect(drawn(result.stdout).some((line) => line.includes('waiting for tenders'))).toBe(true);
    expect(screen(result.stdout)).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(await plainStdout(csv));
  });

  it('stderr in a file, stdout at the terminal: no spinner anywhere', async () => {
    const err = join(folder(), 'err.txt');
    const result = await runBinInTerminal(TENDERS, {
      env: sandboxEnv(await makeSandbox({ latencyMs: 1200 })),
      redirect: { stderr: err },
    });
    expect(result.code).toBe(0);
    expect(readFileSync(err, 'utf8')).toBe('');
    expect(result.stdout).not.toContain('\u001b[2K');
  });

  it.each([
    ['a slow answer', { latencyMs: 1200 }, ''],
    ['a retry', { faults: faultsAt({ 0: FAULTS.unavailable }) }, ''],
    // What a pipe always got: a 429 wait is a note (a log shows why the command took longer).
    [
      'a 429 wait',
      { faults: faultsAt({ 0: FAULTS.tooManyRequests('1') }) },
      'rate limited: waiting 1 s as the API asked (Retry-After), then trying once more\n',
    ],
  ] as const)('in a pipe, %s: stderr holds what it always did', async (_what, options, stderr) => {
    const result = await runBin(csv, { env: sandboxEnv(await makeSandbox(options)) });
    expect(result).toMatchObject({ code: 0, stderr });
    expect(result.stdout).toBe(await plainStdout(csv));
  });

  it('-q silences it at a terminal', async () => {
    const result = await inTerminal(
      { latencyMs: 1200, faults: faultsAt({ 0: FAULTS.unavailable }) },
      [...TENDERS, '-q'],
      80,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b[2K');
    // Without -q the same table, and a note on the columns 80 cannot hold, which -q silences too.
    const plain = (await plainScreen(TENDERS, 80)).split('\n');
    expect(plain.at(-1)).toMatch(/^Not shown at 80 columns: /);
    expect(screen(result.stdout)).toBe(plain.slice(0, -1).join('\n'));
  });
});
