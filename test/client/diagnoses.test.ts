// Diagnoses that blame the right thing: a base URL that is not the API root is a usage error
// naming it (exit 2), not a 403 that blames the key; TLS to a plain-HTTP server, a refused
// connection and a name that does not resolve each get one clean line and a hint: the screen a
// person reads at a terminal (stdout and stderr both terminals), from main in-process; and once
// through the built binary, whose stderr must hold nothing else (no text of Node's or OpenSSL's).
import { describe, expect, it } from 'vitest';
import { closedPort, useSandboxes } from '../helpers/api.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { run } from '../helpers/run.js';
import { screen } from '../helpers/screen.js';
import { runBin } from '../helpers/spawn.js';

const makeSandbox = useSandboxes();

/** What cdata says of https:// to a server on `port` speaking plain HTTP: an error and its hint. */
const plainHttpLines = (port: number) => [
  `error: 127.0.0.1:${port} answered in plain HTTP, not the TLS that https:// needs: the base URL names a server or port without TLS`,
  `hint: Check the port (https is usually 443). A local server without TLS is reached as http://127.0.0.1:${port} (http:// is accepted for loopback only).`,
];

describe.each([80, 120])('at a terminal %i columns wide', (columns) => {
  async function tenders(baseUrl: (sandbox: { url: string; port: number }) => string, args: string[] = []) {
    const sandbox = await makeSandbox();
    const env = { ...sandboxEnv(sandbox), CDATA_BASE_URL: baseUrl(sandbox) };
    const result = await run(['tenders', ...args], { env, columns, stdoutTTY: true, stderrTTY: true });
    expect(result.stdout).toBe('');
    return { code: result.code, screen: screen(result.stderr), requests: sandbox.requests.length, port: sandbox.port };
  }

  it('https:// to a server speaking plain HTTP: exit 2, no OpenSSL text, the way that works', async () => {
    const result = await tenders((sandbox) => `https://127.0.0.1:${sandbox.port}`);
    expect(result).toMatchObject({ code: 2, requests: 0 });
    expect(result.screen).toBe(plainHttpLines(result.port).join('\n'));
  });

  it('a refused connection: exit 6, said as such', async () => {
    const port = await closedPort();
    const result = await tenders(() => `http://127.0.0.1:${port}`, ['--retries', '0']);
    expect(result).toMatchObject({ code: 6, requests: 0 });
    expect(result.screen).toBe(
      [
        `error: connection refused by 127.0.0.1:${port}: nothing is listening on that port`,
        'hint: Check the host and port of the base URL (cdata auth status shows it), and that the server is running.',
      ].join('\n'),
    );
  });

  it('a name that does not resolve (.invalid never does): exit 6, said as such', async () => {
    const result = await tenders(() => 'https://cdata-test.invalid', ['--retries', '0']);
    expect(result.code).toBe(6);
    // No DNS server at all (a machine offline) says "for now" rather than "no such host".
    expect(result.screen).toMatch(
      /^error: cannot resolve cdata-test\.invalid(: no such host \(DNS\)\nhint: Check the host name in the base URL for a typo| just now: the DNS lookup failed \(EAI_AGAIN\)\nhint: Check the network connection)[^\n]*$/,
    );
  });

  it.each(['/api/v2', '/api', '/api/v1/tenders'])(
    'a base URL ending in %s: exit 2 naming it, before any request',
    async (path) => {
      const result = await tenders((sandbox) => `${sandbox.url}${path}`);
      expect(result).toMatchObject({ code: 2, requests: 0 });
      const origin = `http://127.0.0.1:${result.port}`;
      expect(result.screen).toBe(
        [
          `error: base URL '${origin}${path}' is not the API root: cdata adds /api/v1 and each endpoint's path itself`,
          `hint: Use the API's origin, ${origin}, or ${origin}/api/v1. (The value comes from CDATA_BASE_URL.)`,
        ].join('\n'),
      );
    },
  );

  it('a path before /api/v1 that the API refuses as not open to keys: exit 2 naming the base URL, not 4', async () => {
    const result = await tenders((sandbox) => `${sandbox.url}/gateway`);
    expect(result).toMatchObject({ code: 2, requests: 1 });
    const origin = `http://127.0.0.1:${result.port}`;
    expect(result.screen).toMatch(
      new RegExp(
        `^error: the base URL ${origin}/gateway does not lead to the API root: /gateway/api/v1/tenders is not open to API keys\\. \\(HTTP 403, correlation id [0-9a-f-]{36}\\)\nhint: The base URL is the API's origin \\(such as ${origin}\\), or that with /api/v1; the path /gateway before it is not the API's\\.`,
      ),
    );
  });
});

describe('through the built binary', () => {
  it('TLS to plain HTTP: stderr holds the two lines alone, nothing Node or OpenSSL writes of its own', async () => {
    const sandbox = await makeSandbox();
    const env = { ...sandboxEnv(sandbox), CDATA_BASE_URL: `https://127.0.0.1:${sandbox.port}` };
    const result = await runBin(['tenders'], { env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe([...plainHttpLines(sandbox.port), ''].join('\n'));
  });
});

describe('a Node without WebAssembly (--jitless)', () => {
  it('is exit 2 saying so, before any request: not a network failure retried three times', async () => {
    const sandbox = await makeSandbox();
    const result = await runBin(['tenders'], { env: { ...sandboxEnv(sandbox), NODE_OPTIONS: '--jitless' } });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(
      "error: this Node runs without WebAssembly, which cdata's HTTP client (undici) needs to read answers\nhint: Run it without --jitless (in NODE_OPTIONS, or on the node command line).\n",
    );
    expect(sandbox.requests).toEqual([]);
  });
});
