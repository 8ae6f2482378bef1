// `cdata sandbox` as a user runs it: the built binary in the foreground, its URL and keys on
// stdout, requests answered (by a real curl when the machine has one), Ctrl-C stops it; bad
// input exits 2 with a clear message. Needs the build (npm test builds first).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoKey } from '../../src/sandbox/keys.js';
import { run } from '../helpers/run.js';
import { BIN, runBin, runProcess } from '../helpers/spawn.js';
import { tryLines } from '../../src/commands/sandbox/index.js';

const HAS_CURL = spawnSync('curl', ['--version']).status === 0;

let child: ChildProcessWithoutNullStreams | undefined;
let blocker: Server | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  blocker?.close();
  blocker = undefined;
});

/** Starts `cdata sandbox ...` and resolves once it has printed its banner (the last line says how to stop it). */
async function startCommand(
  args: string[],
): Promise<{ stdout: string; stderr: () => string; process: ChildProcessWithoutNullStreams }> {
  const proc = spawn(process.execPath, [BIN, 'sandbox', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  child = proc;
  let stdout = '';
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('Ctrl-C stops it.\n')) resolve();
    });
    proc.once('close', (code) => reject(new Error(`cdata sandbox exited ${code} before starting: ${stderr}`)));
  });
  return { stdout, stderr: () => stderr, process: proc };
}

/** GET with an X-API-Key, through curl when present (the "done when"), else fetch. */
async function get(url: string, key?: string): Promise<{ status: number; contentType: string; body: string }> {
  if (!HAS_CURL) {
    const response = await fetch(url, { headers: key ? { 'X-API-Key': key } : {} });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: await response.text(),
    };
  }
  const result = await runProcess('curl', ['-sS', '-i', ...(key ? ['-H', `X-API-Key: ${key}`] : []), url]);
  expect(result.code, result.stderr).toBe(0);
  const [head = '', body = ''] = result.stdout.split('\r\n\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]);
  const contentType = /^content-type: (.*)$/im.exec(head)?.[1]?.trim() ?? '';
  return { status, contentType, body };
}

describe('cdata sandbox', () => {
  it('prints its URL and demo keys, serves the API with them, and stops on Ctrl-C', async () => {
    const started = await startCommand(['--port', '0']);
    const url = /^cdata sandbox: the API reference with demo data, at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(
      started.stdout,
    )?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d{0,4}$/);
    expect(Number(new URL(url!).port)).toBeLessThan(65_536);
    const printed = started.stdout.match(/svc_[0-9A-Za-z]{32}/g) ?? [];
    for (const k of DEMO_KEYS)
      expect(started.stdout).toMatch(
        new RegExp(`${k.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${demoKey(k.id)}\\n`),
      );
    expect(new Set(printed)).toEqual(new Set(DEMO_KEYS.map((k) => demoKey(k.id))));
    expect(started.stdout).toContain(`curl -H "X-API-Key: ${demoKey('all')}" ${url}/api/v1/tenders`);

    const allKey = printed[0]!;
    const tenders = await get(`${url}/api/v1/tenders`, allKey);
    expect(tenders.status).toBe(200);
    expect(tenders.contentType).toBe('application/json');
    const rows = JSON.parse(tenders.body) as { tier: string }[];
    expect(rows).toHaveLength(50);
    expect(rows[0]!.tier).toBe('RECOMMENDED');

    const refused = await get(`${url}/api/v1/tenders`);
    expect(refused.status).toBe(401);
    expect(refused.contentType).toBe('application/problem+json');

    const revoked = await get(`${url}/api/v1/me`, demoKey('revoked'));
    expect(JSON.parse(revoked.body)).toMatchObject({ status: 401, detail: 'This API key has been revoked.' });

    // Each answer is logged on stderr, never the key.
    expect(started.stderr()).toContain('GET /api/v1/tenders -> 200\n');
    expect(started.stderr()).toContain('GET /api/v1/tenders -> 401\n');
    expect(started.stderr()).not.toContain('svc_');

    started.process.kill('SIGINT');
    const [code] = (await once(started.process, 'close')) as [number | null];
    expect(code).toBe(130);
    await expect(fetch(`${url}/api/v1/me`)).rejects.toThrow();
  });

  it('on every interface (--host 0.0.0.0): warns, and its Try: lines use a URL cdata accepts', async () => {
    const started = await startCommand(['--host', '0.0.0.0', '--port', '0']);
    const url =
      /^cdata sandbox: the API reference with demo data, at (http:\/\/127\.0\.0\.1:\d+) \(listening on every interface, 0\.0\.0\.0\)$/m.exec(
        started.stdout,
      )?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d{0,4}$/);
    expect(started.stdout).toContain(`export CDATA_BASE_URL=${url} CDATA_API_KEY=${demoKey('all')}`);
    expect(started.stderr()).toContain('warning: listening on 0.0.0.0: the demo keys are public');
    const me = await runBin(['me', '-o', 'json'], {
      env: { CDATA_BASE_URL: url!, CDATA_API_KEY: demoKey('all'), CDATA_CONFIG_DIR: '/nonexistent-cdata-config' },
    });
    expect(me.code).toBe(0);
    started.process.kill('SIGINT');
    await once(started.process, 'close');
  });

  it('exits 2 on an unknown flag, naming it', async () => {
    const result = await runBin(['sandbox', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("error: unknown option '--bogus'\nhint: Run 'cdata sandbox --help' for usage.\n");
  });

  it('exits 2 on a host it cannot listen on, without the warning for listening beyond loopback', async () => {
    // 203.0.113.1 (TEST-NET-3) is no address of this machine.
    const result = await runBin(['sandbox', '--host', '203.0.113.1', '--port', '0']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: cannot listen on 203.0.113.1:0 (EADDRNOTAVAIL)\n',
    });
  });

  it('exits 2 when the port is already in use, naming the port', async () => {
    blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    const result = await runBin(['sandbox', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: port ${port} on 127.0.0.1 is already in use: choose another with --port (0 picks a free one)\n`,
    );
  });

  it.each([
    ['--fail-rate', '1.5', 'a number from 0 to 1'],
    ['--fail-rate', '-0.1', 'a number from 0 to 1'],
    ['--fail-rate', 'abc', 'a number from 0 to 1'],
    ['--fail-rate', '', 'a number from 0 to 1'],
    ['--fail-rate', '50%', 'a number from 0 to 1'],
    ['--latency', '-1', 'a whole number from 0 to 600000'],
    ['--latency', '1.5', 'a whole number from 0 to 600000'],
    ['--latency', 'abc', 'a whole number from 0 to 600000'],
    ['--latency', '600001', 'a whole number from 0 to 600000'],
    ['--port', '65536', 'a whole number from 0 to 65535'],
    ['--port', 'http', 'a whole number from 0 to 65535'],
    ['--day', '366', 'a whole number from 0 to 365'],
    ['--day', '-1', 'a whole number from 0 to 365'],
    ['--day', '1.5', 'a whole number from 0 to 365'],
  ])('exits 2 on %s %j', async (flag, value, rule) => {
    const result = await run(['sandbox', '--port', '0', flag, value]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: ${flag} must be ${rule} (got '${value}')\n`);
  });

  it('exits 2 on a bad value from the built binary too', async () => {
    const result = await runBin(['sandbox', '--fail-rate', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: --fail-rate must be a number from 0 to 1 (got '2')\n");
  });
});

describe('cdata sandbox --day', () => {
  it("serves that day's data, and says so", async () => {
    const started = await startCommand(['--port', '0', '--day', '2']);
    expect(started.stdout).toContain(
      '\nThe demo data is that of day 2: rows added, changed and removed since day 0 (docs/sandbox.md).\n',
    );
    const url = /at (http:\/\/\S+)\n/.exec(started.stdout)![1]!;
    const served = (await (
      await fetch(`${url}/api/v1/tenders?limit=200`, { headers: { 'X-API-Key': demoKey('all') } })
    ).json()) as { ocid: string }[];
    // The same tenders as day 2 of a sandbox in this process (ocids and order do not depend on the clock).
    const { startSandbox } = await import('../../src/sandbox/server.js');
    const own = await startSandbox({ day: 2 });
    await own.close();
    expect(served.map((t) => t.ocid)).toEqual(own.data.rows.tenders.map((t) => t.ocid));
    started.process.kill('SIGINT');
    await once(started.process, 'close');
  });
});

describe('cdata sandbox --fault', () => {
  it('offers exactly the named faults the sandbox implements, in the same order', async () => {
    const { NAMED_FAULTS } = await import('../../src/sandbox/faults.js');
    const { FAULT_NAMES } = await import('../../src/sandbox/fault-names.js');
    expect([...FAULT_NAMES]).toEqual(Object.keys(NAMED_FAULTS));
  });

  it('answers every request with the fault: html-200 makes cdata exit 7', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--fault', 'html-200'], {
      env: { PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    while (!/at (http:\/\/\S+)/.test(stdout)) await once(child.stdout, 'data');
    expect(stdout).toContain("Every request is answered with the fault 'html-200'.");
    const url = /at (http:\/\/\S+)/.exec(stdout)![1]!;
    const result = await runBin(['tenders'], {
      env: { CDATA_BASE_URL: url, CDATA_API_KEY: demoKey('all'), CDATA_CONFIG_DIR: '/nonexistent' },
    });
    child.kill('SIGINT');
    await once(child, 'close');
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/^error: expected JSON from \/api\/v1\/tenders but got text\/html/);
  });

  it('an unknown fault is a usage error listing the names', async () => {
    const result = await runBin(['sandbox', '--port', '0', '--fault', 'gremlins']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "error: --fault must be one of unavailable, internal, too-many-requests, bad-request, reset-mid-body, stall-after-headers, short-content-length, html-200, object-for-array, broken-json, empty-list (got 'gremlins')\n",
    );
  });
});

describe("the banner's lines to try it with", () => {
  const key = demoKey('all');

  it('on loopback: cdata pointed at it, then curl', () => {
    expect(tryLines('http://127.0.0.1:4010', key)).toEqual([
      `  export CDATA_BASE_URL=http://127.0.0.1:4010 CDATA_API_KEY=${key}`,
      '  cdata tenders --tier RECOMMENDED',
      `  curl -H "X-API-Key: ${key}" http://127.0.0.1:4010/api/v1/tenders`,
    ]);
  });

  it('off loopback: curl, and not a cdata command that would refuse plain http:// there', () => {
    const lines = tryLines('http://192.0.2.2:4016', key);
    expect(lines[0]).toBe(`  curl -H "X-API-Key: ${key}" http://192.0.2.2:4016/api/v1/tenders`);
    expect(lines.join('\n')).not.toContain('CDATA_BASE_URL');
    expect(lines.join(' ')).toContain('to loopback only');
  });
});
