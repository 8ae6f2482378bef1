// Exit codes 2, 3 and 4 with their causes and messages; the correlation id and the JSON error
// line. (5 and 6 are in test/client/retry.test.ts, 7 in test/client/bad-response.test.ts.)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/sandbox/faults.js';
import { demoKey } from '../../src/sandbox/keys.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { faultAlways, NOW, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempConfigDir } from '../helpers/run.js';

const sandbox = useSandbox({ now: () => NOW });
const makeSandbox = useSandboxes();
const env = () => sandboxEnv(sandbox.current);

/** A config folder whose default profile holds `key` for the sandbox: the key stored by auth login. */
function storedKey(key: string | undefined, profile = 'default'): Record<string, string> {
  const dir = tempConfigDir();
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      profiles: { [profile]: { ...(key === undefined ? {} : { key }), baseUrl: sandbox.current.url } },
    }),
    { mode: 0o600 },
  );
  return { CDATA_CONFIG_DIR: dir };
}

/** Runs cdata against `target` and returns the result and the requests it sent. */
async function against(target: Sandbox, argv: string[], environment: Record<string, string> = sandboxEnv(target)) {
  const before = target.requests.length;
  const result = await cdata(argv, { env: environment });
  return { ...result, requests: target.requests.slice(before) };
}

const NAME_RULE = (name: string) =>
  `error: invalid profile name ${JSON.stringify(name)}: use lowercase letters, digits, '-' and '_' (at most 64, starting with a letter or digit)`;

describe('exit 2: usage and configuration', () => {
  it('an unknown command, with the suggestion', async () => {
    const result = await cdata(['tender'], { env: env() });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown command 'tender'\nhint: Did you mean tenders? Run 'cdata --help' for usage.\n",
      sleeps: [],
    });
  });

  it('an unknown option, with the suggestion when one is close', async () => {
    const far = await against(sandbox.current, ['tenders', '--bogus']);
    expect(far).toMatchObject({ code: 2, stdout: '', requests: [] });
    expect(far.stderr).toBe("error: unknown option '--bogus'\nhint: Run 'cdata tenders --help' for usage.\n");
    const near = await against(sandbox.current, ['tenders', '--teir', 'STRETCH']);
    expect(near.stderr).toBe(
      "error: unknown option '--teir'\nhint: Did you mean --tier? Run 'cdata tenders --help' for usage.\n",
    );
  });

  it('an option after --, taken as a command: said so, and no made-up name offered (commander offered --ndbox)', async () => {
    for (const word of ['--sandbox', '--tenders', '-q']) {
      const result = await against(sandbox.current, ['--', word, 'tenders']);
      expect(result).toMatchObject({ code: 2, stdout: '', requests: [] });
      expect(result.stderr).toBe(
        `error: unknown command '${word}'\nhint: Words after -- are never options: leave the -- out. Run 'cdata --help' for usage.\n`,
      );
    }
    // A command's name after -- is still a command, and a typo of one still gets its suggestion.
    expect((await against(sandbox.current, ['--', 'tendrs'])).stderr).toBe(
      "error: unknown command 'tendrs'\nhint: Did you mean tenders? Run 'cdata --help' for usage.\n",
    );
  });

  it('a bad value from CDATA_BASE_URL or CDATA_PROFILE: the hint names the variable; the same as a flag does not', async () => {
    const bad = { ...env(), CDATA_BASE_URL: 'garbage' };
    expect(await cdata(['me'], { env: bad })).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "error: base URL 'garbage' is not a URL: use https://host or https://host/api/v1\nhint: The value comes from CDATA_BASE_URL: set it right, or unset it.\n",
    });
    const { CDATA_BASE_URL: _unused, ...noUrl } = env();
    expect((await cdata(['me', '--base-url', 'garbage'], { env: noUrl })).stderr).toBe(
      "error: base URL 'garbage' is not a URL: use https://host or https://host/api/v1\n",
    );
    const named = NAME_RULE('Bad Name');
    expect(await cdata(['me'], { env: { ...env(), CDATA_PROFILE: 'Bad Name' } })).toMatchObject({
      code: 2,
      stderr: `${named}\nhint: The value comes from CDATA_PROFILE: set it right, or unset it.\n`,
    });
    expect((await cdata(['me', '-p', 'Bad Name'], { env: env() })).stderr).toBe(`${named}\n`);
  });

  it('--sandbox with --base-url: exit 2, not one of them passed over in silence; CDATA_BASE_URL is passed over', async () => {
    const both = await cdata(['--sandbox', '--base-url', 'https://api.example.com', 'me'], { env: env() });
    expect(both).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --sandbox and --base-url cannot be used together\n',
    });
    const variable = await cdata(['--sandbox', 'me', '-o', 'json'], {
      env: { ...env(), CDATA_BASE_URL: 'https://api.example.com' },
    });
    expect(variable).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(variable.stdout)).toMatchObject({ displayName: 'Sandbox: all scopes' });
  });

  it('--sandbox with a command that calls no API: exit 2 naming the whole command, nothing written', async () => {
    for (const argv of [
      ['config', 'set', 'output', 'json'],
      ['profile', 'list'],
    ]) {
      const dir = tempConfigDir();
      const result = await cdata(['--sandbox', ...argv], { env: { CDATA_CONFIG_DIR: dir } });
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: --sandbox applies only to commands that call the API, not '${argv.slice(0, 2).join(' ')}'\n`,
      });
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('an option with no value after it: named as cdata names options, with what it takes', async () => {
    for (const [argv, said] of [
      [
        ['tenders', '--limit'],
        "error: --limit needs a value: --limit <n>\nhint: Run 'cdata tenders --help' for usage.\n",
      ],
      [
        ['tenders', '-o'],
        "error: --output needs a value: --output <format>\nhint: Run 'cdata tenders --help' for usage.\n",
      ],
    ] as const) {
      const result = await against(sandbox.current, [...argv]);
      expect(result).toMatchObject({ code: 2, stdout: '', stderr: said, requests: [] });
    }
  });

  it.each([
    [['-o', 'xml'], "error: --output must be one of table, json, ndjson, csv, tsv (got 'xml')\n"],
    [['--color', 'rainbow'], "error: --color must be one of auto, always, never (got 'rainbow')\n"],
    [['--timeout', 'soon'], "error: --timeout must be a number of seconds above 0 up to 86400 (got 'soon')\n"],
    [['--timeout', '0'], "error: --timeout must be a number of seconds above 0 up to 86400 (got '0')\n"],
    [['--retries', '11'], "error: --retries must be a whole number from 0 to 10 (got '11')\n"],
    [['--max-wait', '-1'], "error: --max-wait must be a number of seconds from 0 up to 86400 (got '-1')\n"],
    [['--limit', 'x'], "error: --limit must be a whole number from 1 to 200 (got 'x')\n"],
  ])('bad value %j, nothing sent', async (argv, stderr) => {
    const result = await against(sandbox.current, ['tenders', ...argv]);
    expect(result).toMatchObject({ code: 2, stdout: '', requests: [] });
    expect(result.stderr).toBe(stderr);
  });

  it('--json with -o csv is a contradiction, reported the same (with its JSON line) in either order', async () => {
    const line =
      '{"error":{"status":null,"title":"Usage error","detail":"--json and --output csv disagree: use one of them","correlationId":null,"exitCode":2}}';
    for (const argv of [
      ['--json', '-o', 'csv'],
      ['-o', 'csv', '--json'],
    ]) {
      const result = await against(sandbox.current, ['tenders', ...argv]);
      expect(result).toMatchObject({ code: 2, stdout: '', requests: [] });
      expect(result.stderr).toBe(`error: --json and --output csv disagree: use one of them\n${line}\n`);
    }
  });

  it("a flag's bad value under a profile's stored `output json`: its JSON line too, as with --json", async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"output":"json"}}}', { mode: 0o600 });
    for (const [argv, detail] of [
      [['--tier', 'bogus'], "--tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got 'bogus')"],
      [['--limit', 'abc'], "--limit must be a whole number from 1 to 200 (got 'abc')"],
      [['--retries', 'x'], "--retries must be a whole number from 0 to 10 (got 'x')"],
      [['--color', 'x'], "--color must be one of auto, always, never (got 'x')"],
    ] as const) {
      const result = await cdata(['--sandbox', 'tenders', ...argv], { env: { CDATA_CONFIG_DIR: dir } });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        `error: ${detail}\n${JSON.stringify({ error: { status: null, title: 'Usage error', detail, correlationId: null, exitCode: 2 } })}\n`,
      );
    }
  });

  it('that reading of the stored output says nothing else: no warning, no --debug stack', async () => {
    const dir = tempConfigDir();
    // Readable by others and holding a key: a command that reads its settings warns of it.
    writeFileSync(join(dir, 'config.json'), `{"profiles":{"default":{"output":"json","key":"${demoKey('all')}"}}}`, {
      mode: 0o644,
    });
    const env = { CDATA_CONFIG_DIR: dir, CDATA_DEBUG: '1' };
    expect(await cdata(['completion', 'bogus'], { env })).toMatchObject({
      code: 2,
      stderr: "error: no completion for 'bogus': choose bash, zsh or fish\n",
    });
    const limit = await cdata(['tenders', '--limit', 'abc'], { env });
    expect(limit.stderr.split('\n')).toEqual([
      "error: --limit must be a whole number from 1 to 200 (got 'abc')",
      expect.stringMatching(/^\{"error":\{.*"exitCode":2\}\}$/),
      '',
    ]);
    // A format given on the command line decides, as for any error.
    expect((await cdata(['tenders', '-o', 'csv', '--limit', 'abc'], { env })).stderr).toBe(
      "error: --limit must be a whole number from 1 to 200 (got 'abc')\n",
    );
  });

  it('a 400 from the server, not retried, with its correlation id', async () => {
    const target = await makeSandbox({ faults: faultAlways(FAULTS.badRequest) });
    const result = await against(target, ['tenders']);
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 2, stdout: '', sleeps: [] });
    expect(result.stderr).toBe(
      `error: the API rejected the request: tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'x'. (HTTP 400, correlation id ${result.requests[0]!.correlationId})\n` +
        'hint: Fix the request; retrying it unchanged gives the same answer.\n',
    );
  });

  it('no base URL: says how to set one', async () => {
    const result = await cdata(['tenders'], {
      env: { CDATA_API_KEY: demoKey('all'), CDATA_CONFIG_DIR: tempConfigDir() },
    });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no base URL configured: the API address differs per deployment\n' +
        'hint: Set one with --base-url URL, CDATA_BASE_URL, `cdata auth login --base-url URL` or `cdata config set base-url URL`; or try `cdata --sandbox ...`.\n',
      sleeps: [],
    });
  });

  it('no base URL for a profile chosen with -p: the hint sets it for that profile', async () => {
    const env = { CDATA_API_KEY: demoKey('all'), CDATA_CONFIG_DIR: tempConfigDir() };
    expect((await cdata(['config', 'set', 'timeout', '10', '-p', 'nourl'], { env })).code).toBe(0);
    const result = await cdata(['tenders', '-p', 'nourl'], { env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: no base URL configured: the API address differs per deployment\n' +
        'hint: Set one with --base-url URL, CDATA_BASE_URL, `cdata auth login --profile nourl --base-url URL` or `cdata config set base-url URL --profile nourl`; or try `cdata --sandbox ...`.\n',
    );
  });

  it('http:// to a host that is not loopback', async () => {
    const result = await cdata(['tenders', '--base-url', 'http://api.example.com'], { env: env() });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: refusing plain http:// to api.example.com: the API key would cross the network in clear; use https://\n' +
        'hint: http:// is accepted only for loopback hosts (127.0.0.0/8, ::1, localhost), such as a local sandbox.\n',
    );
  });

  it('http://localhost is loopback, and allowed', async () => {
    const result = await against(sandbox.current, [
      'workspaces',
      '--base-url',
      `http://localhost:${sandbox.current.port}`,
    ]);
    expect(result.code).toBe(0);
    expect(result.requests).toHaveLength(1);
  });

  it('--base-url wins over CDATA_BASE_URL', async () => {
    const other = await makeSandbox();
    const result = await against(other, ['workspaces', '--base-url', `${other.url}/api/v1/`], env());
    expect(result.code).toBe(0);
    expect(result.requests.map((r) => r.path)).toEqual(['/api/v1/workspaces']);
  });
});

describe('exit 3: not authenticated', () => {
  it('no key configured', async () => {
    const result = await against(sandbox.current, ['tenders'], {
      CDATA_BASE_URL: sandbox.current.url,
      CDATA_CONFIG_DIR: tempConfigDir(),
    });
    expect(result).toMatchObject({ code: 3, stdout: '', requests: [] });
    expect(result.stderr).toBe(
      "error: no API key for profile 'default'\nhint: Run `cdata auth login` (the key is read from stdin or a prompt), or set CDATA_API_KEY.\n",
    );
  });

  it.each([
    ['an unknown key', 'svc_ThisKeyWasNeverIssuedByAnyone00', 'Unknown API key.'],
    ['a revoked key', demoKey('revoked'), 'This API key has been revoked.'],
  ])('401 for %s, not retried, with a hint to check or replace the key', async (_what, key, detail) => {
    const result = await against(sandbox.current, ['tenders'], storedKey(key));
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 3, stdout: '', sleeps: [] });
    expect(result.stderr).toBe(
      `error: ${detail} (HTTP 401, correlation id ${result.requests[0]!.correlationId})\n` +
        'hint: Check the key, or replace it: cdata auth login (or set CDATA_API_KEY).\n',
    );
  });

  // `cdata auth login` alone stores into the default profile (or the one `profile use` chose):
  // for a profile named by -p or CDATA_PROFILE, each hint names it too.
  it.each([
    ['-p', ['-p', 'client-c'], {}],
    ['CDATA_PROFILE', [], { CDATA_PROFILE: 'client-c' }],
  ])('a profile chosen by %s: the hints to store a key name it', async (_how, flags, chosen) => {
    const tenders = (key: string | undefined) =>
      against(sandbox.current, [...flags, 'tenders'], { ...storedKey(key, 'client-c'), ...chosen });
    const none = await tenders(undefined);
    expect(none).toMatchObject({ code: 3, requests: [] });
    expect(none.stderr).toBe(
      "error: no API key for profile 'client-c'\nhint: Run `cdata auth login --profile client-c` (the key is read from stdin or a prompt), or set CDATA_API_KEY.\n",
    );
    const revoked = await tenders(demoKey('revoked'));
    expect([revoked.code, revoked.stderr.split('\n')[1]]).toEqual([
      3,
      'hint: Check the key, or replace it: cdata auth login --profile client-c (or set CDATA_API_KEY).',
    ]);
    const graph = await tenders(demoKey('graph'));
    expect([graph.code, graph.stderr.split('\n')[1]]).toEqual([
      4,
      "hint: A key's scopes are fixed when it is created: ask a company owner or admin for a new key with tenders.read, then run cdata auth login --profile client-c.",
    ]);
  });

  it('a profile that is the default by `profile use`: `cdata auth login` alone stores there, and the hint says so', async () => {
    const env = storedKey(undefined, 'client-c');
    const config = join(env.CDATA_CONFIG_DIR!, 'config.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), defaultProfile: 'client-c' }));
    const result = await against(sandbox.current, ['tenders'], env);
    expect(result.stderr).toBe(
      "error: no API key for profile 'client-c'\nhint: Run `cdata auth login` (the key is read from stdin or a prompt), or set CDATA_API_KEY.\n",
    );
  });

  it('401 for a key from CDATA_API_KEY: the hint says to replace it there, as auth login would not help', async () => {
    const result = await against(sandbox.current, ['tenders'], {
      ...storedKey(demoKey('all')),
      CDATA_API_KEY: demoKey('revoked'),
    });
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[1]).toBe(
      'hint: Check the key in CDATA_API_KEY, or replace it there: it wins over any key stored with auth login.',
    );
  });
});

describe('exit 4: forbidden', () => {
  it('a missing scope, from CDATA_API_KEY: the new key goes there', async () => {
    const result = await against(sandbox.current, ['tenders'], sandboxEnv(sandbox.current, 'graph'));
    expect(result.code).toBe(4);
    expect(result.stderr.split('\n')[1]).toBe(
      "hint: A key's scopes are fixed when it is created: ask a company owner or admin for a new key with tenders.read, then put it in CDATA_API_KEY.",
    );
  });

  it('a missing scope: named, and a new key is needed; not retried', async () => {
    const result = await against(sandbox.current, ['tenders'], storedKey(demoKey('graph')));
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 4, stdout: '', sleeps: [] });
    expect(result.stderr).toBe(
      `error: This key lacks the scope tenders.read, which /api/v1/tenders requires. Scopes are fixed when a key is created. (HTTP 403, correlation id ${result.requests[0]!.correlationId})\n` +
        "hint: A key's scopes are fixed when it is created: ask a company owner or admin for a new key with tenders.read, then run cdata auth login.\n",
    );
  });
});

describe('the JSON error line', () => {
  it.each([[['-o', 'json']], [['-o', 'ndjson']], [['--json']], [['-o', 'NDJSON']]])(
    '%j adds it to stderr after the message',
    async (format) => {
      const result = await against(sandbox.current, ['tenders', ...format], sandboxEnv(sandbox.current, 'graph'));
      const correlationId = result.requests[0]!.correlationId;
      const [message, hint, json, end] = result.stderr.split('\n');
      expect(message).toMatch(/^error: This key lacks the scope tenders\.read/);
      expect(hint).toMatch(/^hint: /);
      expect(end).toBe('');
      expect(JSON.parse(json!)).toEqual({
        error: {
          status: 403,
          title: 'Forbidden',
          detail:
            'This key lacks the scope tenders.read, which /api/v1/tenders requires. Scopes are fixed when a key is created.',
          correlationId,
          exitCode: 4,
        },
      });
      expect(Object.keys(JSON.parse(json!).error)).toEqual(['status', 'title', 'detail', 'correlationId', 'exitCode']);
    },
  );

  it('carries null status and correlation id for errors no server gave', async () => {
    const result = await cdata(['tenders', '--json', '--tier', 'best'], { env: env() });
    expect(result.stderr.split('\n')[1]).toBe(
      '{"error":{"status":null,"title":"Usage error","detail":"--tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got \'best\')","correlationId":null,"exitCode":2}}',
    );
  });

  it('is not written for the other formats', async () => {
    for (const format of ['csv', 'tsv', 'table']) {
      const result = await cdata(['tenders', '-o', format], { env: sandboxEnv(sandbox.current, 'graph') });
      expect(result.code).toBe(4);
      expect(result.stderr.split('\n')).toHaveLength(3);
    }
  });
});

describe('exit 1: a bug in cdata', () => {
  it('an unexpected error is exit 1, says it is a bug, and under -o json also writes the JSON line', async () => {
    const { testIo } = await import('../helpers/io.js');
    const { main } = await import('../../src/cli.js');
    // Something cdata never expects from its output stream: a TypeError out of write().
    const io = testIo({ env: { ...env(), CDATA_API_KEY: demoKey('all') } });
    const broken = {
      ...io.io,
      stdout: {
        isTTY: false,
        write: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'x')");
        },
      },
    };
    const code = await main(['agents', '-o', 'json'], broken);
    expect(code).toBe(1);
    const [message, hint, json] = io.stderr().trimEnd().split('\n');
    expect(message).toBe("error: internal error: Cannot read properties of undefined (reading 'x')");
    expect(hint).toBe(
      'hint: this is a bug in cdata; please report it with the command you ran and its --debug output.',
    );
    expect(JSON.parse(json!)).toEqual({
      error: {
        status: null,
        title: 'Internal error',
        detail: "internal error: Cannot read properties of undefined (reading 'x')",
        correlationId: null,
        exitCode: 1,
      },
    });
  });
});
