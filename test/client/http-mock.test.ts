// Handler tests with no socket: the command context's transport answered in-process
// (test/helpers/http-mock.ts). What the sandbox cannot easily be made to do is answered here.
import { describe, expect, it } from 'vitest';
import { writeProfiles } from '../export/fleet.js';
import { scratch as scratchFolder } from '../faults/scratch.js';
import { HttpMock, json, problem, runMocked } from '../helpers/http-mock.js';

const scratch = scratchFolder('cdata-http-mock');

/** A config folder holding `profiles`, as the env that points cdata at it. */
function scratchConfig(profiles: Parameters<typeof writeProfiles>[1]): Record<string, string> {
  const dir = scratch();
  writeProfiles(dir, profiles);
  return { CDATA_CONFIG_DIR: dir };
}

const TENDER = {
  ocid: 'ocds-9t57fa-1',
  title: 'Road works',
  buyer: 'City',
  province: 'Gauteng',
  closesOn: '2027-01-01',
  runwayDays: 30,
  score: 90,
  tier: 'RECOMMENDED',
  reasons: [],
  briefingNote: null,
  decision: null,
  analysisRunId: null,
  docCount: 1,
};

describe('a command whose requests a test answers', () => {
  it('sends one GET with the key header and the explicit limit, and closes its transport', async () => {
    const mock = new HttpMock().on('GET', '/api/v1/tenders', json(200, [TENDER]));
    const result = await runMocked(mock, ['tenders', '-o', 'json', '--tier', 'recommended']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toEqual([TENDER]);
    expect(mock.requests.map((r) => [r.method, r.url, r.headers['X-API-Key'] ?? r.headers['x-api-key']])).toEqual([
      ['GET', 'https://api.example.test/api/v1/tenders?tier=RECOMMENDED&limit=100', 'svc_mockedkey0123456789'],
    ]);
    expect([mock.opened, mock.closed, mock.unused()]).toEqual([1, 1, []]);
  });

  it('retries a 503 after the backoff it chose, then prints the answer', async () => {
    const mock = new HttpMock().on(
      'GET',
      '/api/v1/me',
      problem(503, 'Service Unavailable', 'try later'),
      json(200, { tenant: 'acme' }),
    );
    const result = await runMocked(mock, ['me', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ tenant: 'acme' });
    expect(mock.requests).toHaveLength(2);
    expect(result.sleeps).toHaveLength(1);
  });

  it('never retries a 401: one request, exit 3, the key not in the message', async () => {
    const mock = new HttpMock().on('GET', '/api/v1/me', problem(401, 'Unauthorized', 'The API key is not valid.'));
    const result = await runMocked(mock, ['me']);
    expect(result.code).toBe(3);
    expect(mock.requests).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: The API key is not valid\. \(HTTP 401, correlation id corr-1\)/);
    expect(result.stderr).not.toContain('svc_mockedkey0123456789');
  });
});

describe('a server whose certificate this machine does not trust', () => {
  /** What undici throws for a self-signed certificate: OpenSSL's code on the innermost cause. */
  const untrusted = (code: string) => () => {
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error('self-signed certificate in certificate chain'), { code }),
    });
  };
  const HINT =
    'hint: If that is expected (a proxy that inspects TLS, a server of your own), give Node the CA that signed it: NODE_EXTRA_CA_CERTS=/path/to/ca.pem. cdata never turns certificate checks off.';

  it('the API (a proxy that inspects TLS): exit 6 at once, not retried, and how to trust its CA', async () => {
    const fail = untrusted('SELF_SIGNED_CERT_IN_CHAIN');
    const mock = new HttpMock().on('GET', '/api/v1/me', fail, fail, fail);
    const result = await runMocked(mock, ['me']);
    expect(result.code).toBe(6);
    expect(result.stderr).toBe(
      `error: cannot reach api.example.test: its certificate is not one this machine trusts (SELF_SIGNED_CERT_IN_CHAIN)\n${HINT}\n`,
    );
    expect([mock.requests.length, result.sleeps]).toEqual([1, []]); // the same certificate would come again
  });

  it.each([
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'its certificate is for another host name',
      'Check the host in the URL; a proxy that inspects TLS may show a certificate of its own.',
    ],
    [
      'CERT_HAS_EXPIRED',
      'its certificate has expired',
      "The server's certificate must be renewed, or this machine's clock is wrong (date shows it).",
    ],
    [
      'CERT_NOT_YET_VALID',
      'its certificate is not valid yet',
      "The server's certificate must be renewed, or this machine's clock is wrong (date shows it).",
    ],
  ])("%s: said in cdata's words, exit 6 at once, not retried", async (code, why, hint) => {
    const fail = untrusted(code);
    const mock = new HttpMock().on('GET', '/api/v1/me', fail, fail, fail);
    const result = await runMocked(mock, ['me']);
    expect(result).toMatchObject({
      code: 6,
      stderr: `error: cannot reach api.example.test: ${why} (${code})\nhint: ${hint} cdata never turns certificate checks off.\n`,
    });
    expect([mock.requests.length, result.sleeps]).toEqual([1, []]);
  });

  it('NODE_EXTRA_CA_CERTS set, yet the CA not among what it gave Node: the hint says so, for the API and a receiver', async () => {
    const extra = '/etc/ssl/corp-proxy.pem';
    const hint = `hint: NODE_EXTRA_CA_CERTS is set (${extra}), but the CA that signed this certificate is not among those it gave Node: check that the file holds that CA, in PEM. cdata never turns certificate checks off.\n`;
    const fail = untrusted('SELF_SIGNED_CERT_IN_CHAIN');
    const api = await runMocked(new HttpMock().on('GET', '/api/v1/me', fail), ['me'], {
      env: { NODE_EXTRA_CA_CERTS: extra },
    });
    expect(api).toMatchObject({
      code: 6,
      stderr: `error: cannot reach api.example.test: its certificate is not one this machine trusts (SELF_SIGNED_CERT_IN_CHAIN)\n${hint}`,
    });
    const mock = new HttpMock().on('POST', '/hooks', untrusted('DEPTH_ZERO_SELF_SIGNED_CERT'));
    const receiver = await runMocked(
      mock,
      ['webhook', 'ping', 'https://hooks.example.test/hooks', '--secret-env', 'S'],
      {
        env: { S: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', NODE_EXTRA_CA_CERTS: extra },
      },
    );
    expect(receiver).toMatchObject({
      code: 6,
      stderr: `error: cannot reach hooks.example.test: its certificate is not one this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT)\n${hint}`,
    });
  });

  it('a webhook receiver of your own with a certificate of its own: the same hint', async () => {
    const mock = new HttpMock().on('POST', '/hooks', untrusted('DEPTH_ZERO_SELF_SIGNED_CERT'));
    const result = await runMocked(mock, ['webhook', 'ping', 'https://hooks.example.test/hooks', '--secret-env', 'S'], {
      env: { S: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    expect(result.code).toBe(6);
    expect(result.stderr).toBe(
      `error: cannot reach hooks.example.test: its certificate is not one this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT)\n${HINT}\n`,
    );
  });
});

// RFC 9110: a 503's Retry-After says when the service expects to be back; the backoff alone
// (a fraction of a second) would spend every retry before then.
describe("a 503 with Retry-After: that wait, within --max-wait, in place of the backoff's", () => {
  const busy = (after: string) => () => problem(503, 'Service Unavailable', 'Back soon.', { 'retry-after': after });
  const me = () => json(200, { id: 'key-1', name: 'ETL', workspace: null, scopes: [] });

  it('2 seconds asked: waited 2 s, then the answer', async () => {
    const mock = new HttpMock().on('GET', '/api/v1/me', busy('2'), me);
    const result = await runMocked(mock, ['me', '-o', 'json']);
    expect([result.code, result.stderr, result.sleeps]).toEqual([0, '', [2000]]);
  });

  it('more than --max-wait asked: the backoff as before, not the wait', async () => {
    const mock = new HttpMock().on('GET', '/api/v1/me', busy('600'), me);
    const result = await runMocked(mock, ['me', '-o', 'json', '--max-wait', '30']);
    expect(result.code).toBe(0);
    expect(result.sleeps).toHaveLength(1);
    expect(result.sleeps[0]).toBeLessThan(2000);
  });
});

// undici gives a connection 10 s to be set up, whatever --timeout says: a longer --timeout was cut
// there, and a connection stuck in its TLS handshake outlived the command that gave up on it.
describe('how long a connection may take to be set up: the deadline of the requests it carries', () => {
  const me = () => json(200, { id: 'key-1', name: 'ETL', workspace: null, scopes: [] });

  it.each([
    ['--timeout', ['--timeout', '45'], 45_000],
    ['the default', [], 30_000],
  ])('an API command: %s', async (_what, flags, ms) => {
    const mock = new HttpMock().on('GET', '/api/v1/me', me);
    const result = await runMocked(mock, ['me', '-o', 'json', ...flags]);
    expect(result.code).toBe(0);
    expect(mock.made).toEqual([{ connectTimeoutMs: ms }]);
  });

  it("a profile's stored timeout", async () => {
    const config = scratchConfig({
      default: { baseUrl: 'https://api.example.test', key: 'svc_mockedkey0123456789', timeout: 12 },
    });
    const mock = new HttpMock().on('GET', '/api/v1/me', me);
    const result = await runMocked(mock, ['me', '-o', 'json'], { env: { ...config, CDATA_API_KEY: '' } });
    expect(result.code).toBe(0);
    expect(mock.made).toEqual([{ connectTimeoutMs: 12_000 }]);
  });

  it('a webhook delivery: the 5 s the platform gives a receiver', async () => {
    const mock = new HttpMock().on('POST', '/hooks', json(200, {}));
    const result = await runMocked(mock, ['webhook', 'ping', 'https://hooks.example.test/hooks', '--secret-env', 'S'], {
      env: { S: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    expect(result.code).toBe(0);
    expect(mock.made).toEqual([{ connectTimeoutMs: 5_000 }]);
  });

  it('export --profiles: the connections its profiles share, given the longest of their timeouts', async () => {
    const profile = (timeout?: number) => ({
      baseUrl: 'https://api.example.test',
      key: 'svc_mockedkey0123456789',
      ...(timeout === undefined ? {} : { timeout }),
    });
    const config = scratchConfig({ a: profile(12), b: profile(45), c: profile() });
    const dir = scratch();
    // No answers registered: every request fails, and the options are what the run was made with.
    const mock = new HttpMock();
    const run = (flags: string[]) =>
      runMocked(mock, ['export', '--all-profiles', '--dir', dir, '-q', ...flags], {
        env: { ...config, CDATA_API_KEY: '' },
      });
    expect((await run(['--concurrency', '3'])).code).toBe(10);
    expect((await run(['--timeout', '7'])).code).toBe(10);
    expect(mock.made).toEqual([
      { connections: 3, connectTimeoutMs: 45_000 },
      { connections: 8, connectTimeoutMs: 7_000 },
    ]);
  });
});
