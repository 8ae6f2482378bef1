// The sandbox's knobs for tests and demos: latency, a share of 503s, and the fault hook that
// replaces the n-th answer.
import { afterEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/sandbox/faults.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { KEY, NO_KEY, UNAUTHORIZED, call, expectProblem } from './http.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});
async function start(options: SandboxOptions): Promise<Sandbox> {
  sandbox = await startSandbox(options);
  return sandbox;
}

const UNAVAILABLE = 'The service is temporarily unavailable; retry with increasing delay.';

describe('latencyMs', () => {
  it.each([
    ['a success', KEY.all, 200],
    ['an error', undefined, 401],
  ])('delays %s by at least the latency', async (_what, key, status) => {
    const s = await start({ latencyMs: 120 });
    const started = performance.now();
    const answer = await call(s, '/api/v1/me', { key });
    // Timers count whole milliseconds, so the elapsed time may fall short by a fraction of one.
    expect(Math.ceil(performance.now() - started)).toBeGreaterThanOrEqual(120);
    expect(answer.status).toBe(status);
  });
});

describe('failRate', () => {
  it('1 answers every request 503 problem+json, before checking the key', async () => {
    const s = await start({ failRate: 1 });
    for (const key of [KEY.all, undefined, 'svc_unknown']) {
      expectProblem(await call(s, '/api/v1/tenders', { key }), 503, 'Service Unavailable', UNAVAILABLE);
    }
  });

  it('0 never does', async () => {
    const s = await start({ failRate: 0, random: () => 0 });
    const statuses = await Promise.all(Array.from({ length: 40 }, () => call(s, '/api/v1/agents', { key: KEY.all })));
    expect(statuses.map((a) => a.status)).toEqual(Array(40).fill(200));
  });

  it('answers 503 when the random draw falls below the rate', async () => {
    const draws = [0.1, 0.9, 0.29, 0.3];
    const s = await start({ failRate: 0.3, random: () => draws.shift()! });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(s, '/api/v1/agents', { key: KEY.all })).status);
    expect(statuses).toEqual([503, 200, 503, 200]);
  });

  it('does not count a 503 as a failed authentication', async () => {
    const s = await start({ failRate: 1 });
    for (let i = 0; i < 30; i++) await call(s, '/api/v1/me', { key: 'svc_unknown' });
    expect(s.requests.every((r) => r.status === 503)).toBe(true);
  });
});

describe('the fault hook', () => {
  it('replaces the n-th answer (0-based) and leaves the others alone', async () => {
    const seen: string[] = [];
    const s = await start({
      faults: (index, request) => {
        seen.push(`${index} ${request.url}`);
        return index === 1 ? FAULTS.html200 : index === 2 ? FAULTS.internal : undefined;
      },
    });
    const first = await call(s, '/api/v1/agents', { key: KEY.all });
    const second = await call(s, '/api/v1/agents', { key: KEY.all });
    const third = await call(s, '/api/v1/agents?x=1', { key: KEY.all });
    const fourth = await call(s, '/api/v1/agents');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(second.text).toContain('Sign in to the Wi-Fi');
    expectProblem(third, 500, 'Internal Server Error', 'Unexpected server error.');
    expectProblem(fourth, 401, UNAUTHORIZED, NO_KEY);
    expect(seen).toEqual(['0 /api/v1/agents', '1 /api/v1/agents', '2 /api/v1/agents?x=1', '3 /api/v1/agents']);
    expect(s.requests.map((r) => r.status)).toEqual([200, 200, 500, 401]);
  });

  it('tooManyRequests carries the Retry-After it is given', async () => {
    const s = await start({ faults: () => FAULTS.tooManyRequests('7') });
    const answer = await call(s, '/api/v1/me', { key: KEY.all });
    expectProblem(answer, 429, 'Too Many Requests', 'Too many failed authentication attempts from this address.');
    expect(answer.headers.get('retry-after')).toBe('7');
  });

  it('redirect answers with the Location and is not followed by the sandbox', async () => {
    const s = await start({ faults: () => FAULTS.redirect('https://elsewhere.example/api/v1/me', 301) });
    const response = await fetch(`${s.url}/api/v1/me`, { redirect: 'manual', headers: { 'X-API-Key': KEY.all } });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('https://elsewhere.example/api/v1/me');
  });
});

describe('keepRequests', () => {
  it('false keeps no record of what it served (cdata sandbox may serve for days); the fault hook still counts each request', async () => {
    const seen: number[] = [];
    const s = await start({
      keepRequests: false,
      faults: (index) => {
        seen.push(index);
        return index === 1 ? FAULTS.unavailable : undefined;
      },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(s, '/api/v1/me', { key: KEY.all })).status);
    expect(statuses).toEqual([200, 503, 200]);
    expect(seen).toEqual([0, 1, 2]);
    expect(s.requests).toEqual([]);
  });
});
