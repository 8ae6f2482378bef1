// The key appears in no output: not in data, notes, errors, JSON error lines or --debug traces,
// even when a server echoes it back. (Every run in test/cli and test/client is also checked by
// test/helpers/checked.ts; this file goes after the traces and the echoes.)
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../src/sandbox/faults.js';
import { demoKey } from '../../src/sandbox/keys.js';
import { closedPort, faultAlways, NOW, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { run } from '../helpers/run.js';
import { htmlWith, problemWith, redirectWith } from '../helpers/hostile.js';
import { sandboxEnv } from '../helpers/sandbox.js';

const makeSandbox = useSandboxes();
const UNKNOWN_KEY = 'svc_NeverIssuedNeverIssuedNeverIss';

async function debugRun(fault: Fault | undefined, argv: string[], env: Record<string, string> = {}) {
  const target = await makeSandbox({ faults: fault && faultAlways(fault) });
  return cdata([...argv, '--debug', '-o', 'json', '--timeout', '0.3'], { env: { ...sandboxEnv(target), ...env } });
}

describe('--debug', () => {
  it('traces the request with the key as svc_***', async () => {
    const result = await debugRun(undefined, ['workspaces']);
    expect(result.code).toBe(0);
    const trace = result.stderr.split('\n');
    expect(trace[0]).toMatch(/^\[debug\] > GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/workspaces$/);
    expect(trace[1]).toBe('[debug] > X-API-Key: svc_***');
    expect(trace[2]).toMatch(/^\[debug\] < HTTP 200 in \d+ ms, \d+ bytes$/);
  });

  it('CDATA_DEBUG=1 does the same', async () => {
    const target = await makeSandbox();
    const result = await cdata(['workspaces'], { env: { ...sandboxEnv(target), CDATA_DEBUG: '1' } });
    expect(result.stderr).toContain('[debug] > X-API-Key: svc_***\n');
  });

  it.each([
    ['401 unknown key', undefined, { CDATA_API_KEY: UNKNOWN_KEY }, 3],
    ['401 revoked key', undefined, { CDATA_API_KEY: demoKey('revoked') }, 3],
    ['403', undefined, { CDATA_API_KEY: demoKey('graph') }, 4],
    ['400', FAULTS.badRequest, {}, 2],
    ['429', FAULTS.tooManyRequests('999'), {}, 5],
    ['5xx after retries', FAULTS.unavailable, {}, 6],
    ['timeout', FAULTS.stallAfterHeaders, { CDATA_API_KEY: UNKNOWN_KEY }, 6],
    ['redirect', FAULTS.redirect('https://elsewhere.example/'), {}, 7],
    ['HTML 200', FAULTS.html200, {}, 7],
  ] as [string, Fault | undefined, Record<string, string>, number][])(
    '%s: traced and reported without the key',
    async (_what, fault, env, code) => {
      const result = await debugRun(fault, ['tenders', '--retries', '1'], env);
      expect(result.code).toBe(code);
      expect(result.stderr).toMatch(/^error: /m);
      expect(result.stderr).toContain('[debug] > X-API-Key: svc_***\n');
    },
  );

  it('a key with a line break (a CRLF env file) is refused before sending: exit 3, not a network error', async () => {
    const target = await makeSandbox();
    const result = await cdata(['tenders', '--debug'], {
      env: { ...sandboxEnv(target), CDATA_API_KEY: `${UNKNOWN_KEY}\r` },
    });
    expect(target.requests).toEqual([]);
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      'error: the API key in CDATA_API_KEY contains whitespace or a control character',
      'hint: Set it again exactly as shown when it was created: svc_ followed by letters and digits, no spaces or line breaks.',
    ]);
  });

  it('a key of blanks alone is refused in words that stay words (no space is redacted as a key)', async () => {
    const target = await makeSandbox();
    for (const blank of [' ', '\t ']) {
      // run, not cdata: the checked helper would look for the "key" (a blank) in the output.
      const result = await run(['tenders'], { env: { ...sandboxEnv(target), CDATA_API_KEY: blank } });
      expect(result).toMatchObject({
        code: 3,
        stderr:
          'error: the API key in CDATA_API_KEY contains whitespace or a control character\n' +
          'hint: Set it again exactly as shown when it was created: svc_ followed by letters and digits, no spaces or line breaks.\n',
      });
    }
    expect(target.requests).toEqual([]);
  });

  it('connection refused', async () => {
    const result = await cdata(['tenders', '--debug', '--json'], {
      env: { CDATA_BASE_URL: `http://127.0.0.1:${await closedPort()}`, CDATA_API_KEY: UNKNOWN_KEY },
    });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('[debug] > X-API-Key: svc_***\n');
  });

  it('--sandbox, with its demo key', async () => {
    const result = await cdata(['--sandbox', 'me', '--debug', '--json'], {});
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).displayName).toBe('Sandbox: all scopes');
    expect(result.stderr).toContain('[debug] > X-API-Key: svc_***\n');
  });
});

describe('a server that echoes the key', () => {
  it.each([
    ['in a 401 problem', problemWith(401, (key) => `for ${key}`), 3],
    ['in a 500 problem, retried', problemWith(500, (key) => `for ${key}`), 6],
    ['in a redirect', redirectWith((key) => key), 7],
    ['in an HTML page', htmlWith((key) => `your key is ${key}`), 7],
  ] as [string, Fault, number][])('%s: shown as svc_***', async (_what, fault, code) => {
    for (const key of [demoKey('all'), UNKNOWN_KEY]) {
      const result = await debugRun(fault, ['tenders', '--retries', '1'], { CDATA_API_KEY: key });
      expect(result.code).toBe(code);
      expect(result.stderr).toMatch(/^error: .*svc_\*\*\*/m);
    }
  });
});

describe('usage errors never echo the key', () => {
  it('a --base-url refused while a key is set', async () => {
    const result = await cdata(['tenders', '--base-url', 'http://example.com', '--debug'], {
      env: { CDATA_API_KEY: UNKNOWN_KEY },
    });
    expect(result.code).toBe(2);
  });

  it('a bad flag under --debug --json: nothing sent', async () => {
    const target = await makeSandbox();
    const result = await cdata(['tenders', '--tier', 'nope', '--debug', '--json'], {
      env: sandboxEnv(target),
      now: () => NOW,
    });
    expect(result.code).toBe(2);
    expect(target.requests).toEqual([]);
  });
});

describe('a secret typed where it does not belong is not echoed in the usage error', () => {
  const SECRET = 'whsec_TypedOnTheCommandLine0123456789';
  it.each([
    [['tenders', `--api-key=${UNKNOWN_KEY}`], "error: unknown option '--api-key=…'"],
    [['me', `--key=${UNKNOWN_KEY}`], "error: unknown option '--key=…'"],
    [['me', '--password=hunter2'], "error: unknown option '--password=…'"],
    [['me', "--password=it's-hunter2"], "error: unknown option '--password=…'"],
    [['me', '-qhunter2'], "error: unknown option '-h…'"],
    [['me', '--password=hunter2\nline2'], "error: unknown option '--password=…'"],
    [['me', '--pass\nhunter2'], "error: unknown option '--pass…'"],
    [['me', '-Zhunter2\nline2'], "error: unknown option '-Z…'"],
    [['me', '-Xhunter2'], "error: unknown option '-X…'"],
    [['me', '-X'], "error: unknown option '-X'"],
    // A switch given a value is said as that, the value not echoed.
    [['tenders', '--decided=hunter2'], 'error: --decided takes no value: give it alone, or leave it out'],
    [['me', '--quiet=hunter2'], 'error: --quiet takes no value: give it alone, or leave it out'],
    [
      ['webhook', 'verify', '--signature', 'ab', `--secret=${SECRET}`],
      'error: the signing secret is never accepted on the command line: use --secret-env VAR, --secret-file FILE, or stdin',
    ],
    [
      ['webhook', 'ping', 'https://hooks.example.com/', `--signing-secret=${SECRET}`],
      "error: unknown option '--signing-secret=…'",
    ],
    [[UNKNOWN_KEY], "error: unknown command 'svc_***'"],
    [['me', SECRET], "error: too many arguments for 'me'. Expected 0 arguments but got 1."],
  ])('%j', async (argv, first) => {
    const result = await cdata(argv, { env: { CDATA_API_KEY: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(first);
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).not.toContain('line2');
    expect(result.stderr).not.toContain(SECRET);
    expect(result.stderr).not.toContain(UNKNOWN_KEY);
  });

  it("keeps commander's suggestion for a mistyped option given a value", async () => {
    const result = await cdata(['tenders', '--limt=5'], { env: { CDATA_API_KEY: '' } });
    expect(result.stderr).toBe(
      "error: unknown option '--limt=…'\nhint: Did you mean --limit? Run 'cdata tenders --help' for usage.\n",
    );
  });

  it('the key in CDATA_API_KEY is redacted from errors raised while the flags parse', async () => {
    const key = 'svc_EnvironmentKeyEnvironmentKey';
    for (const argv of [
      ['tenders', '--tier', key],
      ['tenders', '--fields', key],
      ['-p', key, 'tenders'],
      ['export', '--dir', '.', key],
    ]) {
      const result = await cdata([...argv, '--json'], {
        env: { CDATA_API_KEY: key, CDATA_BASE_URL: 'https://api.example.com' },
      });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain('svc_***');
      expect(result.stderr).not.toContain(key);
    }
  });
});
