// Exit 7: a 2xx that is not the JSON the reference promises, and redirects, never followed.
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../src/sandbox/faults.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { faultAlways, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv } from '../helpers/sandbox.js';

const makeSandbox = useSandboxes();

async function against(faults: SandboxOptions['faults'], argv: string[]) {
  const target = await makeSandbox({ faults });
  const result = await cdata(argv, { env: sandboxEnv(target) });
  return { ...result, requests: target.requests, host: new URL(target.url).host };
}

describe('a 2xx that is not the promised JSON: exit 7, not retried', () => {
  it('an HTML 200 (a captive portal)', async () => {
    const result = await against(faultAlways(FAULTS.html200), ['tenders']);
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 7, stdout: '', sleeps: [] });
    expect(result.stderr).toBe(
      'error: expected JSON from /api/v1/tenders but got text/html; charset=utf-8: "<!doctype html><html><body><h1>Sign in to the Wi-Fi</h1></bo" (HTTP 200)\n' +
        'hint: A proxy or captive portal may be answering instead of the API; check the base URL and proxy settings.\n',
    );
  });

  it('an object where an array is promised', async () => {
    const result = await against(faultAlways(FAULTS.objectForArray), ['obligations', '-o', 'json']);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(
      'error: the answer from /api/v1/graph/obligations is not a JSON array of objects as the API promises: "{\\"items\\":[]}" (HTTP 200)',
    );
  });

  it('an array where an object is promised', async () => {
    const result = await against(faultAlways(FAULTS.emptyList), ['me']);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr).toBe(
      'error: the answer from /api/v1/me is not a JSON object as the API promises: "[]" (HTTP 200)\n',
    );
  });

  it('broken JSON', async () => {
    const result = await against(faultAlways(FAULTS.brokenJson), ['tenders', '-o', 'csv']);
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr).toMatch(
      /^error: the answer from \/api\/v1\/tenders is not valid JSON \(.+\): "\[\{\\"ocid\\": \\"ocds-9t57fa-1\\"," \(HTTP 200\)\n$/,
    );
  });
});

describe('redirects are never followed', () => {
  it.each([301, 302, 307, 308])('%i: exit 7, and the target receives nothing', async (status) => {
    const elsewhere = await makeSandbox();
    const location = `${elsewhere.url}/api/v1/tenders?limit=100`;
    const result = await against(faultAlways(FAULTS.redirect(location, status)), ['tenders', '--retries', '3']);
    expect(result.requests).toHaveLength(1);
    expect(elsewhere.requests).toEqual([]);
    expect(result).toMatchObject({ code: 7, stdout: '', sleeps: [] });
    expect(result.stderr).toBe(
      `error: the API redirected to ${location}; cdata never follows redirects, so the key stays with ${result.host} (HTTP ${status})\n` +
        'hint: Check the base URL (cdata auth status): it should be the API origin itself, with https://.\n',
    );
  });
});

describe('error answers that are not problem+json', () => {
  const html =
    (status: number): Fault =>
    (_req, res) => (res.writeHead(status, { 'Content-Type': 'text/html' }).end('<h1>nginx</h1>'), status);

  it('a 404 (the base URL is some other site): exit 2, named by its reason phrase', async () => {
    const result = await against(faultAlways(html(404)), ['tenders']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: Not Found: the base URL http://${result.host} does not look like this API (HTTP 404)\nhint: Check the base URL: cdata auth status.\n`,
    );
  });

  it("a proxy's HTML 502: retried, then exit 6", async () => {
    const result = await against(faultAlways(html(502)), ['tenders', '--retries', '1']);
    expect(result.requests).toHaveLength(2);
    expect(result).toMatchObject({ code: 6, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe('error: Bad Gateway (gave up after 2 attempts) (HTTP 502)');
  });

  it('an unexpected status: exit 7', async () => {
    const result = await against(faultAlways(html(418)), ['tenders']);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr).toBe("error: unexpected answer: I'm a Teapot (HTTP 418)\n");
  });
});

describe('the correlation id and the status reach every error that had an answer', () => {
  const withId =
    (status: number, body: string, headers: Record<string, string> = {}): Fault =>
    (_req, res, { correlationId }) => (
      res
        .writeHead(status, { 'Content-Type': 'application/json', 'X-Correlation-Id': correlationId, ...headers })
        .end(body),
      status
    );

  it.each([
    ['a redirect', withId(302, '', { Location: 'https://elsewhere.example/' }), 302],
    ['an object where an array is promised', withId(200, '{"items":[]}'), 200],
    ['broken JSON', withId(200, '[{"ocid":'), 200],
  ])('%s: in the message and in the JSON error line', async (_what, fault, status) => {
    const result = await against(faultAlways(fault), ['tenders', '--json']);
    const id = result.requests[0]!.correlationId;
    expect(result.code).toBe(7);
    const lines = result.stderr.trimEnd().split('\n');
    const [message, json] = [lines[0], lines.at(-1)];
    expect(message).toMatch(new RegExp(` \\(HTTP ${status}, correlation id ${id}\\)$`));
    expect(JSON.parse(json!).error).toMatchObject({ status, correlationId: id, exitCode: 7 });
  });

  it("the JSON error line's detail is the API's own detail when it sent a problem", async () => {
    const result = await against(faultAlways(FAULTS.badRequest), ['tenders', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(
      /^error: the API rejected the request: tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'x'\. \(HTTP 400/,
    );
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!).error).toEqual({
      status: 400,
      title: 'Bad Request',
      detail: "tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'x'.",
      correlationId: result.requests[0]!.correlationId,
      exitCode: 2,
    });
  });
});
