// docs/api-reference.md sections 5.9 and 8: 25 failed authentications from one address within 15
// minutes, then 429 with Retry-After on every credential-bearing request until the window
// passes. The sandbox's clock is injected and moved by hand: nothing waits 15 minutes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCKOUT_THRESHOLD, LOCKOUT_WINDOW_MS } from '../../src/sandbox/lockout.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  KEY,
  NO_KEY,
  UNAUTHORIZED,
  UNKNOWN,
  UNKNOWN_KEY,
  call,
  expectProblem,
  rawGet,
  type Answer,
  type RequestOptions,
} from './http.js';

const START = Date.parse('2026-11-22T06:00:00.000Z');
let clock = START;
let sandbox: Sandbox;

beforeEach(async () => {
  clock = START;
  sandbox = await startSandbox({ now: () => clock });
});
afterEach(async () => {
  await sandbox.close();
});

const get = (options: RequestOptions = {}) => call(sandbox, '/api/v1/me', options);

async function fail(times: number): Promise<void> {
  for (let i = 0; i < times; i++) expectProblem(await get({ key: UNKNOWN_KEY }), 401, UNAUTHORIZED, UNKNOWN);
}

function expectLockedOut(answer: Answer, seconds: number): void {
  expectProblem(
    answer,
    429,
    'Too Many Requests',
    `Too many failed authentication attempts from this address; retry after ${seconds} seconds.`,
  );
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
}

describe('the failed-authentication lock-out', () => {
  it('is 25 failures within 15 minutes', () => {
    expect(LOCKOUT_THRESHOLD).toBe(25);
    expect(LOCKOUT_WINDOW_MS).toBe(15 * 60 * 1000);
  });

  it('answers the 25th failure with 401, and the 26th request with 429 and Retry-After', async () => {
    await fail(24);
    expect((await get({ key: KEY.all })).status).toBe(200);
    expectProblem(await get({ key: UNKNOWN_KEY }), 401, UNAUTHORIZED, UNKNOWN); // the 25th
    expectLockedOut(await get({ key: UNKNOWN_KEY }), 900); // the 26th
  });

  it('then refuses every credential-bearing request, a valid key through either header included', async () => {
    await fail(25);
    expectLockedOut(await get({ key: KEY.all }), 900);
    expectLockedOut(await get({ key: KEY.all, via: 'bearer' }), 900);
    expectLockedOut(await get({ key: KEY.revoked }), 900);
    expectLockedOut(await get({ headers: { Authorization: 'Basic c3ZjOng=' } }), 900);
    expectLockedOut(await call(sandbox, '/api/v1/tenders?tier=bogus', { key: KEY.all }), 900);
    expectLockedOut(await call(sandbox, '/api/v2/nowhere', { key: KEY.all, method: 'POST' }), 900);
  });

  it('still answers 401 to a request with no key, and counts neither it nor a malformed Authorization', async () => {
    await fail(24);
    for (let i = 0; i < 30; i++) expectProblem(await get(), 401, UNAUTHORIZED, NO_KEY);
    for (const authorization of ['Basic c3ZjOng=', 'Bearer'])
      expectProblem(await get({ headers: { Authorization: authorization } }), 401, UNAUTHORIZED, NO_KEY);
    expect((await get({ key: KEY.all })).status).toBe(200); // 24 failures, not 56
    await fail(1);
    expectProblem(await get(), 401, UNAUTHORIZED, NO_KEY); // locked out, but no key: still 401
    expectLockedOut(await get({ key: KEY.all }), 900);
  });

  it('counts down Retry-After as the clock moves, and lets requests through once the window passes', async () => {
    await fail(25);
    clock += 60_000;
    expectLockedOut(await get({ key: KEY.all }), 840);
    clock += 0.5 * 1000;
    expectLockedOut(await get({ key: KEY.all }), 840); // 839.5 s: whole seconds, rounded up
    clock = START + LOCKOUT_WINDOW_MS - 1;
    expectLockedOut(await get({ key: KEY.all }), 1);
    clock = START + LOCKOUT_WINDOW_MS;
    expect((await get({ key: KEY.all })).status).toBe(200);
    expect((await get({ key: KEY.all, via: 'bearer' })).status).toBe(200);
  });

  it('does not count the 429s: after the window one failure is a 401 again', async () => {
    await fail(25);
    for (let i = 0; i < 10; i++) expect((await get({ key: UNKNOWN_KEY })).status).toBe(429);
    clock += LOCKOUT_WINDOW_MS;
    expectProblem(await get({ key: UNKNOWN_KEY }), 401, UNAUTHORIZED, UNKNOWN);
    expect((await get({ key: KEY.all })).status).toBe(200);
  });

  it('slides: only failures within the last 15 minutes count', async () => {
    await fail(1); // at START
    clock += 10 * 60_000;
    await fail(24); // at START + 10 min: 25 within the window
    expectLockedOut(await get({ key: KEY.all }), 300); // until the first failure is 15 minutes old
    clock = START + LOCKOUT_WINDOW_MS;
    expect((await get({ key: KEY.all })).status).toBe(200); // 24 remain
    await fail(1);
    expectLockedOut(await get({ key: KEY.all }), 600); // until the failures at START + 10 min age out
  });

  it('counts revoked keys as failures too', async () => {
    for (let i = 0; i < 25; i++)
      expect((await get({ key: KEY.revoked, via: i % 2 ? 'bearer' : 'x-api-key' })).status).toBe(401);
    expectLockedOut(await get({ key: KEY.all }), 900);
  });

  it('is per address: another loopback address is not locked out', async () => {
    await fail(25);
    const headers = { 'X-API-Key': KEY.all };
    expect((await rawGet(sandbox, '/api/v1/me', { headers, localAddress: '127.0.0.1' })).status).toBe(429);
    expect((await rawGet(sandbox, '/api/v1/me', { headers, localAddress: '127.0.0.2' })).status).toBe(200);
  });
});
