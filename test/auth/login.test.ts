import { chmodSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { TENANT } from '../../src/sandbox/vocabulary.js';
import { useSandbox } from '../helpers/sandbox.js';
import { cdata, configHome, secret } from './harness.js';

const sandbox = useSandbox();
const ALL = demoKey('all');

function login(
  home: ReturnType<typeof configHome>,
  stdin: string,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  return cdata(['auth', 'login', '--base-url', sandbox.current.url, ...args], { stdin, env: { ...home.env, ...env } });
}

describe('auth login from stdin', () => {
  it.each([
    ['\\n', `${ALL}\n`],
    ['\\r\\n', `${ALL}\r\n`],
    ['spaces and no line end', `  ${ALL}  `],
  ])('stores a key ending with %s, checked against /me first', async (_name, stdin) => {
    const home = configHome();
    const before = sandbox.current.requests.length;
    const result = await login(home, stdin);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Logged in to ${TENANT} as Sandbox: all scopes (profile default).\n`);
    const checks = sandbox.current.requests.slice(before);
    expect(checks.map((r) => [r.path, r.status])).toEqual([['/api/v1/me', 200]]);
    expect(home.read()).toEqual({
      profiles: { default: { key: ALL, baseUrl: sandbox.current.url } },
      defaultProfile: 'default',
    });
  });

  it('the first login into a folder others can write: warned at once, as every later command is; config set too', async () => {
    const home = configHome();
    chmodSync(home.dir, 0o777);
    const result = await login(home, `${ALL}\n`);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    const warning = `warning: the config folder ${home.dir} is writable by others (mode 0777): whoever can change it chooses where your keys go and what key commands run: run chmod 700 '${home.dir}'\n`;
    expect(result.stderr).toBe(`Logged in to ${TENANT} as Sandbox: all scopes (profile default).\n${warning}`);
    // Said once: the next command says it as every command does, the login no second time.
    expect((await login(home, `${ALL}\n`)).stderr).toBe(
      `${warning}Logged in to ${TENANT} as Sandbox: all scopes (profile default).\n`,
    );
    const other = configHome();
    chmodSync(other.dir, 0o777);
    expect((await cdata(['config', 'set', 'output', 'json'], { env: other.env })).stderr).toBe(
      `${warning.replaceAll(home.dir, other.dir)}Created profile 'default'.\n`,
    );
    const quiet = configHome();
    chmodSync(quiet.dir, 0o777);
    expect((await login(quiet, `${ALL}\n`, ['-q'])).stderr).toBe('');
  });

  it('then runs commands with nothing in the environment', async () => {
    const home = configHome();
    await login(home, `${ALL}\n`);
    const result = await cdata(['tenders', '--limit', '2', '--json'], { env: home.env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
  });

  it('stores the base URL normalised, from --base-url or CDATA_BASE_URL', async () => {
    const home = configHome();
    await login(home, ALL, ['--profile', 'prod', '--base-url', `${sandbox.current.url}/api/v1/`]);
    const viaEnv = await cdata(['auth', 'login', '-p', 'env'], {
      stdin: ALL,
      env: { ...home.env, CDATA_BASE_URL: sandbox.current.url },
    });
    expect(viaEnv.code).toBe(0);
    const profiles = home.read().profiles as Record<string, { baseUrl: string }>;
    expect(profiles.prod!.baseUrl).toBe(sandbox.current.url);
    expect(profiles.env!.baseUrl).toBe(sandbox.current.url);
  });

  it('marks the first profile logged in to as the default, and no later one', async () => {
    const home = configHome();
    const first = await login(home, ALL, ['-p', 'prod']);
    expect(first.stderr).toContain("Profile 'prod' is now the default (no other was).");
    const second = await login(home, ALL, ['-p', 'staging']);
    expect(second.stderr).not.toContain('now the default');
    expect(home.read().defaultProfile).toBe('prod');
  });

  it('marks none while a profile named default is there: that one is the default unmarked', async () => {
    const home = configHome();
    await login(home, ALL, ['-p', 'prod']); // marked
    await login(home, ALL, ['-p', 'default']);
    await cdata(['profile', 'remove', 'prod'], { env: home.env }); // the default falls back to `default`
    const other = await login(home, ALL, ['-p', 'staging']);
    expect(other.code).toBe(0);
    expect(other.stderr).not.toContain('now the default');
    expect(home.read().defaultProfile).toBeUndefined();
    const listed = await cdata(['profile', 'list', '--fields', 'name,default'], { env: home.env });
    expect(listed.stdout).toBe('name\tdefault\ndefault\ttrue\nstaging\tfalse\n');
  });

  it('a profile named default that holds settings alone (config set without -p) does not keep the first login from being the default', async () => {
    const home = configHome();
    await cdata(['config', 'set', 'timeout', '60'], { env: home.env });
    const first = await login(home, ALL, ['-p', 'prod']);
    expect(first.stderr).toContain("Profile 'prod' is now the default (no other was).");
    expect(home.read().defaultProfile).toBe('prod');
  });

  it('replaces the key of a profile that had one, keeping its other settings', async () => {
    const home = configHome();
    await login(home, demoKey('tenders'), ['-p', 'prod']);
    await cdata(['-p', 'prod', 'config', 'set', 'timeout', '9'], { env: home.env });
    await login(home, ALL, ['-p', 'prod']);
    expect((home.read().profiles as Record<string, unknown>).prod).toEqual({
      key: ALL,
      baseUrl: sandbox.current.url,
      timeout: 9,
    });
  });

  it('stores a key without workspaces.read (403 on /me), saying its identity cannot be shown', async () => {
    const home = configHome();
    const result = await login(home, demoKey('graph'), ['-p', 'graph']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'Key stored (profile graph). Its identity cannot be shown: the key lacks workspaces.read',
    );
    expect((home.read().profiles as Record<string, { key: string }>).graph!.key).toBe(demoKey('graph'));
  });

  it('--debug traces the check with the new key redacted', async () => {
    const home = configHome();
    const result = await login(home, ALL, ['--debug']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[debug] > X-API-Key: svc_***');
    const revoked = await login(home, demoKey('revoked'), ['--debug', '-p', 'other']);
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toContain('[debug] < HTTP 401');
  });

  it('warns that CDATA_API_KEY still wins over the stored key', async () => {
    const home = configHome();
    const result = await login(home, ALL, [], { CDATA_API_KEY: demoKey('tenders') });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: CDATA_API_KEY is set, and it wins over the stored key until you unset it.',
    );
  });
});

describe('auth login refuses, storing nothing', () => {
  const refusals: [string, string, string][] = [
    ['an empty stdin', '', 'the key is empty; nothing stored'],
    ['only a line end', '\r\n', 'the key is empty; nothing stored'],
    [
      'no svc_ prefix',
      secret('sk_live_0123456789abcdef0123456789'),
      "an API key starts with 'svc_'; this one does not; nothing stored",
    ],
    [
      'whitespace inside',
      secret('svc_abcdef 0123456789abcdef'),
      'the key holds whitespace (was more than one line pasted?); nothing stored',
    ],
    [
      'two lines',
      `${ALL}\n${demoKey('graph')}\n`,
      'the key holds whitespace (was more than one line pasted?); nothing stored',
    ],
    ['a tab inside', secret('svc_abcdef\t0123456789abcdef'), 'the key holds whitespace'],
    [
      'a control character',
      secret('svc_abcdef\u001b[2J0123456789'),
      'the key holds control characters; nothing stored',
    ],
    [
      'non-ASCII',
      secret('svc_abcdéf0123456789abcdef'),
      'the key holds characters other than printable ASCII; nothing stored',
    ],
    ['nothing after the prefix', 'svc_', "the key holds nothing after 'svc_'; nothing stored"],
  ];

  it.each(refusals)('%s: exit 2, no request, no file', async (_name, stdin, message) => {
    const home = configHome();
    const before = sandbox.current.requests.length;
    const result = await login(home, stdin);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(sandbox.current.requests.length).toBe(before);
    expect(existsSync(home.file)).toBe(false);
  });

  it('a revoked key: exit 3 after /me answers 401', async () => {
    const home = configHome();
    const result = await login(home, `${demoKey('revoked')}\n`);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /^error: This API key has been revoked; nothing stored \(HTTP 401, correlation id [0-9a-f-]+\)\n/,
    );
    expect(existsSync(home.file)).toBe(false);
  });

  it('on a first login, each hint keeps --base-url (nothing was stored, so the command without it fails)', async () => {
    const home = configHome();
    const again = `cdata auth login --profile prod --base-url ${sandbox.current.url}`;
    const shape = await login(home, 'notakey\n', ['-p', 'prod']);
    expect(shape).toMatchObject({ code: 2 });
    expect(shape.stderr.split('\n')[1]).toBe(
      `hint: Copy the whole key from the platform's Developers page (it starts with svc_), then: echo "$KEY" | ${again}`,
    );
    const revoked = await login(home, `${demoKey('revoked')}\n`, ['-p', 'prod']);
    expect(revoked).toMatchObject({ code: 3 });
    expect(revoked.stderr.split('\n')[1]).toBe(`hint: Check the key, or replace it: ${again} (or set CDATA_API_KEY).`);
    expect(existsSync(home.file)).toBe(false);
  });

  it('a revoked key leaves an existing profile as it was', async () => {
    const home = configHome();
    await login(home, ALL, ['-p', 'prod']);
    const before = home.text();
    expect((await login(home, demoKey('revoked'), ['-p', 'prod'])).code).toBe(3);
    expect(home.text()).toBe(before);
  });

  it.each([
    ['an argument', ['auth', 'login', ALL]],
    ['--key', ['auth', 'login', '--key', ALL]],
    ['--key=', ['auth', 'login', `--key=${ALL}`]],
    ['--token', ['auth', 'login', '--token', ALL]],
    ['--api-key=', ['auth', 'login', `--api-key=${ALL}`]],
  ])('the key as %s: exit 2, saying to pipe it, never echoing it', async (_name, argv) => {
    const home = configHome();
    const before = sandbox.current.requests.length;
    const result = await cdata([...argv, '--base-url', sandbox.current.url], { env: home.env, stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pipe it instead: echo "$KEY" | cdata auth login');
    expect(sandbox.current.requests.length).toBe(before);
    expect(existsSync(home.file)).toBe(false);
  });

  it('the refused options stay out of help', async () => {
    const result = await cdata(['auth', 'login', '--help']);
    expect(result.stdout).not.toMatch(/--key(?!-command)|--token|--api-key/);
  });

  it('no base URL: exit 2 before reading any key', async () => {
    const home = configHome();
    const result = await cdata(['auth', 'login'], { env: home.env, stdin: ALL });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: no base URL configured');
    expect(existsSync(home.file)).toBe(false);
  });

  it('a bad profile name: exit 2', async () => {
    const home = configHome();
    const result = await login(home, ALL, ['--profile', 'Prod']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid profile name "Prod"');
    expect(existsSync(home.file)).toBe(false);
  });

  it('--sandbox: exit 2 (its URL would be gone when the command ends)', async () => {
    const result = await cdata(['--sandbox', 'auth', 'login'], { stdin: ALL });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--sandbox does not apply to auth login');
  });

  it('an unreachable API: exit 6, nothing stored', async () => {
    const home = configHome();
    const result = await cdata(['auth', 'login', '--base-url', 'http://127.0.0.1:1', '--retries', '0'], {
      stdin: ALL,
      env: home.env,
    });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('; nothing stored');
    expect(existsSync(home.file)).toBe(false);
  });
});
