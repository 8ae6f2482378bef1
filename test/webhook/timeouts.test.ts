// The 5 s a receiver has to answer (as the platform gives it), on a fake clock: the command's
// transport is answered in-process (test/helpers/http-mock.ts) by a receiver that never answers,
// so the deadline is the only way out, and no test waits 5 real seconds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutgoingRequest } from '../../src/client/transport.js';
import { HttpMock, runMocked } from '../helpers/http-mock.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const URL_ = 'https://hooks.example.test/hooks';

/** A receiver that holds the request until the sender gives up. */
const silent = (request: OutgoingRequest) =>
  new Promise<never>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));

/** Runs `argv` with the clock stopped until `requests` have come, then moves it on by `ms`. */
async function afterSilence(mock: HttpMock, argv: string[], requests: number, ms: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const running = runMocked(mock, argv, { env: { WEBHOOK_SECRET: SECRET }, stdoutTTY: true });
  await vi.waitFor(() => expect(mock.requests).toHaveLength(requests), { timeout: 10_000 });
  await vi.advanceTimersByTimeAsync(ms);
  return running;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a receiver that does not answer within 5 s', () => {
  it('webhook ping: exit 1, said once, after exactly the 5 s (not before)', async () => {
    const mock = new HttpMock().on('POST', '/hooks', silent);
    const result = await afterSilence(mock, ['webhook', 'ping', URL_, '--secret-env', 'WEBHOOK_SECRET'], 1, 5_000);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      'no answer from hooks.example.test within 5 s, the time the platform gives a receiver\n',
    );
    expect([mock.opened, mock.closed]).toEqual([1, 1]);
  });

  it('webhook ping -o json: the answer that did not come, as one that did (status null), for a script', async () => {
    const mock = new HttpMock().on('POST', '/hooks', silent);
    const argv = ['webhook', 'ping', URL_, '--secret-env', 'WEBHOOK_SECRET', '-o', 'json'];
    const result = await afterSilence(mock, argv, 1, 5_000);
    expect(result.code).toBe(1);
    // ms by the real clock, which the fake timers leave running.
    expect(JSON.parse(result.stdout)).toEqual({
      status: null,
      statusText: null,
      location: null,
      ms: expect.any(Number),
    });
  });

  it('webhook ping at a terminal: a spinner says what is awaited while the receiver takes its time, then goes', async () => {
    const slow = () =>
      new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve) =>
        setTimeout(() => resolve({ status: 204, headers: {}, body: '' }), 900),
      );
    const mock = new HttpMock().on('POST', '/hooks', slow);
    const result = await runMocked(mock, ['webhook', 'ping', URL_, '--secret-env', 'WEBHOOK_SECRET'], {
      env: { WEBHOOK_SECRET: SECRET },
      stdoutTTY: true,
      stderrTTY: true,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^204 No Content in \d+ ms\n$/);
    expect(result.stderr).toMatch(/waiting for an answer from hooks\.example\.test \(0\.\d s\)/);
    expect(result.stderr.endsWith('\r\u001b[2K')).toBe(true); // cleared once answered
  });

  it('webhook ping: still waiting at 4.9 s', async () => {
    const mock = new HttpMock().on('POST', '/hooks', silent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let ended = false;
    const running = runMocked(mock, ['webhook', 'ping', URL_, '--secret-env', 'WEBHOOK_SECRET'], {
      env: { WEBHOOK_SECRET: SECRET },
    }).finally(() => (ended = true));
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1), { timeout: 10_000 });
    await vi.advanceTimersByTimeAsync(4_900);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect((await running).code).toBe(1);
  });

  it('webhook check: the cases one at a time, each given its own 5 s; every one fails as too slow, and the receiver counts as reached (exit 1, not 6)', async () => {
    const mock = new HttpMock().on('POST', '/hooks', silent, silent, silent, silent, silent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const running = runMocked(mock, ['webhook', 'check', URL_, '--secret-env', 'WEBHOOK_SECRET', '-o', 'json'], {
      env: { WEBHOOK_SECRET: SECRET },
      stdoutTTY: true,
    });
    for (let sent = 1; sent <= 5; sent++) {
      // Turns of the real event loop, the fake clock standing still (vi.waitFor would move it).
      for (let turns = 0; mock.requests.length < sent && turns < 10_000; turns++)
        await new Promise((resolve) => setImmediate(resolve));
      expect(mock.requests).toHaveLength(sent);
      // The next case waits for this one's answer, or its 5 s.
      await vi.advanceTimersByTimeAsync(4_900);
      expect(mock.requests).toHaveLength(sent);
      await vi.advanceTimersByTimeAsync(100);
    }
    const result = await running;
    expect(result.code).toBe(1);
    const rows = JSON.parse(result.stdout) as { got: string; pass: boolean }[];
    expect(rows.map((r) => [r.got, r.pass])).toEqual(Array(5).fill(['no answer within 5 s', false]));
    expect(result.stderr).toBe('5 of 5 checks failed\n');
  });
});
