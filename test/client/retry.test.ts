// Exit 5 and 6: 429 and Retry-After, retries with full-jitter backoff after 5xx, timeouts and
// network errors; and what is never retried. Sleeps are injected: run() records them.
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../src/client/retry-after.js';
import { FAULTS, type Fault } from '../../src/sandbox/faults.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { closedPort, faultAlways, faultsAt, NOW, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import type { TestIoOptions } from '../helpers/io.js';
import { sandboxEnv } from '../helpers/sandbox.js';

const makeSandbox = useSandboxes();

async function against(faults: SandboxOptions['faults'], argv: string[], io: TestIoOptions = {}) {
  const target: Sandbox = await makeSandbox({ faults });
  const result = await cdata(argv, { now: () => NOW, ...io, env: { ...sandboxEnv(target), ...io.env } });
  return { ...result, requests: target.requests, target };
}

describe('429', () => {
  const tooMany = FAULTS.tooManyRequests;

  it('within --max-wait: waits Retry-After once, then succeeds', async () => {
    const result = await against(faultsAt({ 0: tooMany('3') }), ['workspaces', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([3000]);
    expect(result.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
    expect(result.stderr).toBe('rate limited: waiting 3 s as the API asked (Retry-After), then trying once more\n');
  });

  it('an HTTP-date Retry-After counts from now; -q keeps the wait silent', async () => {
    const at = new Date(NOW + 20_000).toUTCString();
    const result = await against(faultsAt({ 0: tooMany(at) }), ['workspaces', '-q']);
    expect(result).toMatchObject({ code: 0, sleeps: [20_000], stderr: '' });
  });

  it.each([
    ['RFC 850', 'Sunday, 22-Nov-26 06:00:15 GMT'],
    ['asctime', 'Sun Nov 22 06:00:15 2026'],
    ['asctime, a one-digit day', 'Sun Nov  1 06:00:15 2026'],
  ])('the obsolete HTTP-date forms are honoured too: %s', async (_form, at) => {
    const result = await against(faultsAt({ 0: tooMany(at) }), ['workspaces', '-q', '--max-wait', '60']);
    const expected = Date.UTC(2026, 10, at.includes(' 1 ') ? 1 : 22, 6, 0, 15) - NOW;
    expect(result).toMatchObject({ code: 0, sleeps: [Math.max(0, expected)], stderr: '' });
  });

  it('a Retry-After too large to date (a broken server): exit 5, no figure like 1e+23, no crash', async () => {
    for (const value of ['9999999999999', '100000000000000000000000']) {
      const result = await against(faultAlways(tooMany(value)), ['workspaces']);
      expect(result).toMatchObject({ code: 5, sleeps: [] });
      expect(result.stderr).toMatch(/\nhint: Retry after more than ten years, it says; longer than --max-wait 30 s\./);
    }
  });

  it.each([
    ['a leap second, as the next second', 'Sun, 22 Nov 2026 23:59:60 GMT', 2026, Date.UTC(2026, 10, 23)],
    ['no second 60 but at the end of a day', 'Sun, 22 Nov 2026 12:00:60 GMT', 2026, undefined],
    ['RFC 850: a year 50 years ahead is ahead', 'Sunday, 22-Nov-76 06:00:00 GMT', 2026, Date.UTC(2076, 10, 22, 6)],
    ['RFC 850: one more is the last century', 'Sunday, 22-Nov-77 06:00:00 GMT', 2026, Date.UTC(1977, 10, 22, 6)],
    ['RFC 850: 50 years back is the next century', 'Sunday, 22-Nov-40 06:00:00 GMT', 2090, Date.UTC(2140, 10, 22, 6)],
    ['RFC 850: 49 years back is this one', 'Sunday, 22-Nov-41 06:00:00 GMT', 2090, Date.UTC(2041, 10, 22, 6)],
  ])('an HTTP-date: %s', (_what, text, year, at) => {
    expect(parseHttpDate(text, Date.UTC(year, 0, 1))).toBe(at);
  });

  it('over --max-wait: exit 5 at once, no wait, saying when to retry', async () => {
    const result = await against(faultAlways(tooMany('60')), ['workspaces', '--max-wait', '5']);
    expect(result).toMatchObject({ code: 5, stdout: '', sleeps: [] });
    expect(result.requests).toHaveLength(1);
    expect(result.stderr).toBe(
      `error: Too many failed authentication attempts from this address. (HTTP 429, correlation id ${result.requests[0]!.correlationId})\n` +
        'hint: Retry after 60 s (at 2026-11-22T06:01:00Z); longer than --max-wait 5 s. Too many failed authentications lock an address out for up to 15 minutes.\n',
    );
  });

  it('--max-wait defaults to 30 s', async () => {
    expect((await against(faultsAt({ 0: tooMany('30') }), ['workspaces'])).sleeps).toEqual([30_000]);
    const over = await against(faultsAt({ 0: tooMany('31') }), ['workspaces']);
    expect(over).toMatchObject({ code: 5, sleeps: [] });
  });

  it('waits only once: a second 429 is exit 5', async () => {
    const result = await against(faultAlways(tooMany('2')), ['workspaces']);
    expect(result).toMatchObject({ code: 5, sleeps: [2000] });
    expect(result.requests).toHaveLength(2);
    expect(result.stderr).toMatch(
      /\nhint: Retry after 2 s \(at 2026-11-22T06:00:02Z\); still rate limited after waiting once\./,
    );
  });

  it('without a usable Retry-After: exit 5, no blind wait', async () => {
    for (const value of [
      undefined,
      'soon',
      '-5',
      'Tue, 31 Feb 2026 06:00:15 GMT',
      'Sun Nov 22 06:00:15 2026 GMT',
      'Sunday, 22-Nov-26 25:00:15 GMT',
    ]) {
      const result = await against(faultAlways(tooMany(value)), ['workspaces']);
      expect(result).toMatchObject({ code: 5, sleeps: [] });
      expect(result.stderr).toMatch(/\nhint: The API gave no usable Retry-After: wait before retrying/);
    }
  });
});

describe('5xx: retried, then exit 6 with the attempt count', () => {
  it('--retries 0: one request', async () => {
    const result = await against(faultAlways(FAULTS.internal), ['tenders', '--retries', '0']);
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 6, stdout: '', sleeps: [] });
    expect(result.stderr).toBe(
      `error: Unexpected server error. (HTTP 500, correlation id ${result.requests[0]!.correlationId})\n` +
        'hint: The service failed; if this persists, report the correlation id.\n',
    );
  });

  it('default --retries 2: three requests, full-jitter backoff from 250 ms', async () => {
    const result = await against(faultAlways(FAULTS.unavailable), ['tenders'], { random: () => 0.5 });
    expect(result.requests).toHaveLength(3);
    expect(result).toMatchObject({ code: 6, sleeps: [125, 250] });
    expect(result.stderr.split('\n')[0]).toBe(
      `error: The service is temporarily unavailable; retry with increasing delay. (gave up after 3 attempts) (HTTP 503, correlation id ${result.requests[2]!.correlationId})`,
    );
  });

  it('--retries 3: four requests, each wait a random share of a doubling ceiling', async () => {
    const result = await against(faultAlways(FAULTS.internal), ['tenders', '--retries', '3'], { random: () => 0.9 });
    expect(result.requests).toHaveLength(4);
    expect(result).toMatchObject({ code: 6, sleeps: [225, 450, 900] });
    expect(result.stderr).toContain('(gave up after 4 attempts)');
  });

  it('the ceiling is capped at 8 s', async () => {
    const randoms = [0, 1 - 1e-9, 0.5, 0.25, 1 - 1e-9, 1 - 1e-9, 1 - 1e-9];
    const result = await against(faultAlways(FAULTS.internal), ['tenders', '--retries', '7'], {
      random: () => randoms.shift()!,
    });
    expect(result.requests).toHaveLength(8);
    expect(result.sleeps).toEqual([0, 500, 500, 500, 4000, 8000, 8000]);
  });

  it('a retry that succeeds is success', async () => {
    const result = await against(faultsAt({ 0: FAULTS.unavailable, 1: FAULTS.internal }), ['workspaces', '-o', 'json']);
    expect(result).toMatchObject({ code: 0, sleeps: [125, 250], stderr: '' });
    expect(result.requests.map((r) => r.status)).toEqual([503, 500, 200]);
  });
});

describe('network failures: retried, then exit 6', () => {
  it('connection refused', async () => {
    const port = await closedPort();
    const result = await cdata(['tenders', '--retries', '1'], {
      env: { CDATA_BASE_URL: `http://127.0.0.1:${port}`, CDATA_API_KEY: 'svc_x' },
    });
    expect(result).toMatchObject({ code: 6, stdout: '', sleeps: [125] });
    expect(result.stderr).toBe(
      `error: connection refused by 127.0.0.1:${port}: nothing is listening on that port (gave up after 2 attempts)\n` +
        'hint: Check the host and port of the base URL (cdata auth status shows it), and that the server is running.\n',
    );
  });

  it('connection refused with --base-url: the hint points at the flag, where the URL already is', async () => {
    const port = await closedPort();
    const result = await cdata(['tenders', '--retries', '0', '--base-url', `http://127.0.0.1:${port}`], {
      env: { CDATA_API_KEY: 'svc_x' },
    });
    expect(result).toMatchObject({ code: 6, stdout: '' });
    expect(result.stderr).toBe(
      `error: connection refused by 127.0.0.1:${port}: nothing is listening on that port\n` +
        'hint: Check the host and port of the base URL (--base-url), and that the server is running.\n',
    );
  });

  it('a timeout: headers, then nothing, past --timeout', async () => {
    const result = await against(faultAlways(FAULTS.stallAfterHeaders), [
      'tenders',
      '--timeout',
      '0.3',
      '--retries',
      '1',
    ]);
    expect(result.requests).toHaveLength(2);
    expect(result).toMatchObject({ code: 6, stdout: '', sleeps: [125] });
    expect(result.stderr).toBe(
      `error: no complete answer from ${new URL(result.target.url).host} within 0.3 s (--timeout) (gave up after 2 attempts)\n`,
    );
  });

  it('a TLS handshake that never ends: each attempt gives up at --timeout, on a connection of its own', async () => {
    // Accepts the connection and says nothing, so the handshake waits (undici's own limit is 10 s).
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket.on('error', () => undefined).resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const result = await cdata(['tenders', '--timeout', '0.3', '--retries', '1', '--base-url', `https://${host}`], {
        env: { CDATA_API_KEY: 'svc_x' },
      });
      expect(result).toMatchObject({ code: 6, stdout: '', sleeps: [125] });
      expect(result.stderr).toBe(
        `error: no complete answer from ${host} within 0.3 s (--timeout) (gave up after 2 attempts)\n`,
      );
      expect(sockets).toHaveLength(2);
      // Both ended with the command, and so keep no process alive: undici's own timer would end
      // them only 10 s after each began.
      const ended = Promise.all(sockets.map((socket) => socket.closed || once(socket, 'close')));
      expect(
        await Promise.race([
          ended.then(() => 'ended'),
          delay(5_000, undefined, { ref: false }).then(() => 'still open after 5 s'),
        ]),
      ).toBe('ended');
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it.each([
    ['reset mid-body', FAULTS.resetMidBody],
    ['a body shorter than its Content-Length', FAULTS.shortContentLength],
  ] as [string, Fault][])('%s', async (_what, fault) => {
    const result = await against(faultAlways(fault), ['tenders', '--retries', '0']);
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 6, stdout: '' });
    expect(result.stderr).toMatch(
      /^error: the answer from 127\.0\.0\.1:\d+ broke off before its end: \S.* \(HTTP 200\)\n/,
    );
    expect(result.stderr).toMatch(
      /\nhint: The connection was cut mid-answer \(the server, a proxy or the network\); retrying usually helps\.\n$/,
    );
    // An answer came: its status is in the JSON line.
    const json = await against(faultAlways(fault), ['tenders', '--retries', '0', '--json']);
    expect(JSON.parse(json.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ status: 200, exitCode: 6 });
  });
});

/** A status with its headers, half a problem body, then a reset: the refusal was said, the body lost. */
const cutShort =
  (status: number, headers: Record<string, string> = {}): Fault =>
  (_req, res, { correlationId }) => {
    res.writeHead(status, {
      'Content-Type': 'application/problem+json',
      'Content-Length': '1000',
      'X-Correlation-Id': correlationId,
      ...headers,
    });
    res.write('{"type":"about:blank","title":"Unauth');
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
    return status;
  };

describe('a refusal whose body breaks off is still the refusal', () => {
  it('401: exit 3 after one request, not retried towards a lock-out as a network failure', async () => {
    const result = await against(faultAlways(cutShort(401)), ['tenders', '--retries', '5']);
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 3, stdout: '', sleeps: [] });
    expect(result.stderr).toMatch(
      new RegExp(`^error: .*\\(HTTP 401, correlation id ${result.requests[0]!.correlationId}\\)\n`),
    );
  });

  it('429: its Retry-After still counts', async () => {
    const result = await against(faultsAt({ 0: cutShort(429, { 'Retry-After': '2' }) }), ['workspaces', '-q']);
    expect(result).toMatchObject({ code: 0, sleeps: [2000] });
  });
});

describe('never retried', () => {
  it.each([
    ['400', FAULTS.badRequest, 2],
    ['401', undefined, 3],
    ['403', undefined, 4],
  ] as [string, Fault | undefined, number][])(
    '%s: exactly one request, even with --retries 5',
    async (status, fault, code) => {
      const key = status === '401' ? 'revoked' : status === '403' ? 'workspaces' : 'all';
      const target = await makeSandbox({ faults: fault && faultAlways(fault) });
      const result = await cdata(['tenders', '--retries', '5'], { env: sandboxEnv(target, key) });
      expect(result).toMatchObject({ code, sleeps: [] });
      expect(target.requests.map((r) => r.status)).toEqual([Number(status)]);
    },
  );
});
