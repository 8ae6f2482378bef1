// Every way the server, a proxy or the network can misbehave, through each way of asking:
// plain output, --out over an existing file, and export over a previous export. For each: the
// exit code of docs/errors.md, the number of attempts, a bounded total time, no partial
// or replaced file, the correlation id in the message where the answer carried one, and the key
// in no output.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../src/sandbox/faults.js';
import { demoKey } from '../../src/sandbox/keys.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { run, type RunResult } from '../helpers/run.js';

interface Case {
  name: string;
  /** The fault for the n-th request (0-based); undefined answers normally. */
  fault: (n: number, recorder: Sandbox) => Fault | undefined;
  code: number;
  attempts: number;
  /** The answer was problem+json with a correlation id, which the message must carry. */
  correlation?: boolean;
  args?: string[];
  /** Waits the client asked for on 429 (backoff sleeps are random and not listed). */
  waited?: number[];
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();

const CASES: Case[] = [
  { name: 'connection reset mid-body', fault: () => FAULTS.resetMidBody, code: 6, attempts: 3 },
  {
    name: 'a stall after the headers',
    fault: () => FAULTS.stallAfterHeaders,
    code: 6,
    attempts: 3,
    args: ['--timeout', '0.3'],
  },
  {
    name: 'a 1-byte-per-second trickle',
    fault: () => FAULTS.trickle('[{"ocid":"x"}]', 1000),
    code: 6,
    attempts: 3,
    args: ['--timeout', '0.3'],
  },
  { name: 'a Content-Length longer than the body', fault: () => FAULTS.shortContentLength, code: 6, attempts: 3 },
  { name: 'an HTML 200 from a proxy', fault: () => FAULTS.html200, code: 7, attempts: 1 },
  { name: 'a JSON object where an array is promised', fault: () => FAULTS.objectForArray, code: 7, attempts: 1 },
  { name: 'broken JSON', fault: () => FAULTS.brokenJson, code: 7, attempts: 1 },
  {
    name: 'a 302 to another origin',
    fault: (_n, recorder) => FAULTS.redirect(`${recorder.url}/api/v1/tenders?limit=100`),
    code: 7,
    attempts: 1,
  },
  {
    name: 'a 307 to another origin',
    fault: (_n, recorder) => FAULTS.redirect(`${recorder.url}/steal`, 307),
    code: 7,
    attempts: 1,
  },
  {
    name: '429, Retry-After 2 (seconds), still 429 after the wait',
    fault: () => FAULTS.tooManyRequests('2'),
    code: 5,
    attempts: 2,
    correlation: true,
    waited: [2000],
  },
  {
    name: '429, Retry-After 2, then an answer',
    fault: (n) => (n === 0 ? FAULTS.tooManyRequests('2') : undefined),
    code: 0,
    attempts: 2,
    waited: [2000],
  },
  {
    name: '429, Retry-After beyond --max-wait',
    fault: () => FAULTS.tooManyRequests('999'),
    code: 5,
    attempts: 1,
    correlation: true,
    waited: [],
  },
  {
    name: '429, Retry-After an HTTP-date 3 s ahead',
    fault: () => FAULTS.tooManyRequests(inSeconds(3)),
    code: 5,
    attempts: 2,
    correlation: true,
  },
  {
    name: '429, Retry-After an HTTP-date an hour ahead',
    fault: () => FAULTS.tooManyRequests(inSeconds(3600)),
    code: 5,
    attempts: 1,
    correlation: true,
    waited: [],
  },
  {
    name: '429, Retry-After negative',
    fault: () => FAULTS.tooManyRequests('-5'),
    code: 5,
    attempts: 1,
    correlation: true,
    waited: [],
  },
  {
    name: '429, Retry-After garbage',
    fault: () => FAULTS.tooManyRequests('soon, maybe'),
    code: 5,
    attempts: 1,
    correlation: true,
    waited: [],
  },
  {
    name: '429 without Retry-After',
    fault: () => FAULTS.tooManyRequests(undefined),
    code: 5,
    attempts: 1,
    correlation: true,
    waited: [],
  },
  { name: 'a 503 storm', fault: () => FAULTS.unavailable, code: 6, attempts: 3, correlation: true },
  {
    name: 'a 503 storm with --retries 5',
    fault: () => FAULTS.unavailable,
    code: 6,
    attempts: 6,
    correlation: true,
    args: ['--retries', '5'],
  },
  { name: 'a 503 storm that passes', fault: (n) => (n < 2 ? FAULTS.unavailable : undefined), code: 0, attempts: 3 },
  { name: 'a 500', fault: () => FAULTS.internal, code: 6, attempts: 3, correlation: true },
  { name: 'a 400', fault: () => FAULTS.badRequest, code: 2, attempts: 1, correlation: true },
];

const KEY = demoKey('all');
const MODES = ['plain', '--out', 'export'] as const;

async function runMode(
  mode: (typeof MODES)[number],
  sandbox: Sandbox,
  args: string[],
): Promise<{ result: RunResult; dir: string; old: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cdata-fault-'));
  const env = { CDATA_BASE_URL: sandbox.url, CDATA_API_KEY: KEY };
  if (mode === 'plain') return { result: await run(['tenders', '-o', 'json', ...args], { env }), dir, old: '' };
  const old = 'ocid,title\nocds-old,An earlier export\n';
  writeFileSync(join(dir, 'tenders.csv'), old);
  const argv =
    mode === '--out'
      ? ['tenders', '--out', join(dir, 'tenders.csv'), ...args]
      : ['export', 'tenders', '--dir', dir, ...args];
  return { result: await run(argv, { env }), dir, old };
}

describe.each(MODES)('faults, %s', (mode) => {
  it.each(CASES)('$name: exit $code after $attempts attempt(s)', async (fault) => {
    const recorder = await startSandbox();
    const sandbox = await startSandbox({ faults: (n) => fault.fault(n, recorder) });
    try {
      const started = Date.now();
      const { result, dir, old } = await runMode(mode, sandbox, fault.args ?? []);
      const elapsed = Date.now() - started;

      expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: fault.code });
      expect(sandbox.requests).toHaveLength(fault.attempts);
      expect(recorder.requests).toHaveLength(0); // a redirect target never hears from cdata
      // Bounded: attempts x --timeout plus slack; waits on Retry-After are recorded, not slept.
      expect(elapsed).toBeLessThan(fault.attempts * 1000 + 10_000);
      if (fault.waited) expect(result.sleeps.filter((ms) => ms >= 1000)).toEqual(fault.waited);
      expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);

      if (fault.correlation) {
        const ids = sandbox.requests.map((r) => r.correlationId);
        const cited = /correlation id ([0-9a-f-]{36})/.exec(result.stderr)?.[1];
        expect(ids).toContain(cited);
      }
      if (fault.code !== 0) {
        if (mode === 'plain') expect(result.stdout).toBe('');
        if (mode !== 'plain') expect(readFileSync(join(dir, 'tenders.csv'), 'utf8')).toBe(old);
      } else if (mode !== 'plain') {
        expect(readFileSync(join(dir, 'tenders.csv'), 'utf8')).toMatch(/^ocid,title,buyer,/);
      }
      if (mode !== 'plain') expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      if (mode === 'export') {
        const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
          exitCode: number;
          resources: { status: string }[];
        };
        expect(manifest.exitCode).toBe(fault.code);
        expect(manifest.resources[0]!.status).toBe(fault.code === 0 ? 'ok' : 'error');
      }
    } finally {
      await sandbox.close();
      await recorder.close();
    }
  });
});

describe('no server at all', () => {
  it.each(MODES)('connection refused (%s): exit 6 after 3 attempts, files untouched', async (mode) => {
    const closed = await startSandbox();
    await closed.close(); // its port is now refused
    const { result, dir, old } = await runMode(mode, closed, []);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(
      /connection refused by 127\.0\.0\.1:\d+: nothing is listening on that port \(gave up after 3 attempts\)/,
    );
    if (mode !== 'plain') expect(readFileSync(join(dir, 'tenders.csv'), 'utf8')).toBe(old);
  });
});
