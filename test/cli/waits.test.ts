// Waits made visible (docs/output.md), in-process: what the spinner draws on a terminal's stderr
// for a list command (a slow answer, a retry, a 429 wait, a reason longer than the width), and
// that nothing of it reaches stdout, a stderr that is no terminal, or a -q run. The same through
// the built binary under a real pseudo-terminal: waits.heavy.test.ts.
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/sandbox/faults.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { closedPort, faultsAt, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { CLEAR, drawn, SPIN } from '../helpers/screen.js';

const makeSandbox = useSandboxes();
const TENDERS = ['tenders', '--tier', 'RECOMMENDED', '-o', 'csv'];
/** Each state of the line drawn in place on stderr, which holds nothing else: it starts drawing and ends cleared. */
function drawnAlone(stderr: string): string[] {
  expect(stderr.startsWith(CLEAR)).toBe(true);
  expect(stderr.endsWith(CLEAR)).toBe(true);
  return drawn(stderr);
}

async function atTerminal(options: SandboxOptions, args = TENDERS, columns = 80) {
  const sandbox = await makeSandbox(options);
  const env = sandboxEnv(sandbox);
  const result = await run(args, { env, stderrTTY: true, columns, realSleep: true });
  const plain = await run(args, { env: sandboxEnv(await makeSandbox()) });
  return { ...result, host: new URL(sandbox.url).host, plain: plain.stdout };
}

describe('on a terminal, a list command', () => {
  it('a slow answer: after 0.5 s a spinner names what is awaited and counts the seconds; stdout the data alone', async () => {
    const result = await atTerminal({ latencyMs: 1200 });
    expect(result.code).toBe(0);
    const waiting = new RegExp(
      `^${SPIN} waiting for tenders from ${result.host.replace(/\./g, '\\.')} \\((\\d+\\.\\d) s\\)$`,
    );
    const lines = drawnAlone(result.stderr);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line).toMatch(waiting);
    const seconds = lines.map((line) => Number(waiting.exec(line)![1]));
    expect(seconds[0]).toBeGreaterThanOrEqual(0.5);
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    expect(result.stdout).toBe(result.plain);
  });

  it('a retry after a 503 says when, which attempt and why, at once; cleared when the answer comes', async () => {
    const result = await atTerminal({ faults: faultsAt({ 0: FAULTS.unavailable }) });
    expect(result.code).toBe(0);
    const lines = drawnAlone(result.stderr);
    expect(lines[0]).toMatch(new RegExp(`^${SPIN} retrying in 0\\.[0-3] s \\(attempt 2 of 3\\): HTTP 503$`));
    expect(result.stdout).toBe(result.plain);
  });

  it('a 429 wait shows its length and counts down', async () => {
    const result = await atTerminal({ faults: faultsAt({ 0: FAULTS.tooManyRequests('1') }) });
    expect(result.code).toBe(0);
    const lines = drawnAlone(result.stderr);
    expect(lines[0]).toMatch(
      new RegExp(`^${SPIN} rate limited: waiting 1 s as the API asked \\(Retry-After\\), 1\\.0 s left$`),
    );
    expect(lines.some((line) => / 0\.[1-9] s left$/.test(line))).toBe(true);
    expect(result.stdout).toBe(result.plain);
  });

  it.each([50, 80])(
    'a reason longer than %i columns is cut to the width, so the line redraws in place; the error stays',
    async (columns) => {
      const port = await closedPort();
      const env = { ...sandboxEnv(await makeSandbox()), CDATA_BASE_URL: `http://127.0.0.1:${port}` };
      const result = await run([...TENDERS, '--retries', '1'], { env, stderrTTY: true, columns, realSleep: true });
      expect(result.code).toBe(6);
      const cleared = result.stderr.lastIndexOf(CLEAR) + CLEAR.length;
      const lines = drawnAlone(result.stderr.slice(0, cleared));
      expect(lines[0]).toMatch(new RegExp(`^${SPIN} retrying in 0\\.[0-3] s \\(attempt 2 of 2\\): conn.*…$`));
      expect([...lines[0]!].length).toBe(columns - 1);
      for (const line of lines) expect([...line].length).toBeLessThan(columns);
      expect(result.stderr.slice(cleared)).toMatch(/^error: connection refused by 127\.0\.0\.1:\d+/);
    },
  );
});

describe('nothing of it where it does not belong', () => {
  const SLOW_AND_RETRIED = { latencyMs: 700, faults: faultsAt({ 0: FAULTS.unavailable }) };

  it('stderr no terminal: no spinner, stderr as it always was', async () => {
    const sandbox = await makeSandbox(SLOW_AND_RETRIED);
    const result = await run(TENDERS, { env: sandboxEnv(sandbox), stdoutTTY: true, realSleep: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    // stdout a terminal: where a spinner would show if it took the wrong stream.
    expect(result.stdout).not.toContain('\r\u001b[2K');
    expect(result.stdout).toBe((await run(TENDERS, { env: sandboxEnv(await makeSandbox()), stdoutTTY: true })).stdout);
  });

  it('-q silences it at a terminal', async () => {
    const result = await atTerminal(SLOW_AND_RETRIED, [...TENDERS, '-q']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(result.plain);
  });
});
