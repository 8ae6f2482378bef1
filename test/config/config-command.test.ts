import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { cdata, configHome, secret } from '../auth/harness.js';

describe('config set | get | unset', () => {
  it('round-trips each setting of the profile in use', async () => {
    const home = configHome();
    const cases: [string, string, string][] = [
      ['base-url', 'https://api.example.com/api/v1/', 'https://api.example.com'],
      ['output', 'JSON', 'json'],
      ['timeout', '2.5', '2.5'],
    ];
    for (const [name, value, stored] of cases) {
      const set = await cdata(['config', 'set', name, value], { env: home.env });
      expect(set.code).toBe(0);
      const get = await cdata(['config', 'get', name], { env: home.env });
      expect(get.stdout).toBe(`${stored}\n`);
    }
    expect(home.read()).toEqual({
      profiles: { default: { baseUrl: 'https://api.example.com', output: 'json', timeout: 2.5 } },
    });
    for (const [name] of cases) expect((await cdata(['config', 'unset', name], { env: home.env })).code).toBe(0);
    expect(home.read()).toEqual({ profiles: { default: {} } });
  });

  it('acts on --profile, CDATA_PROFILE or the default profile', async () => {
    const home = configHome();
    await cdata(['-p', 'a', 'config', 'set', 'timeout', '1'], { env: home.env });
    await cdata(['config', 'set', 'timeout', '2'], { env: { ...home.env, CDATA_PROFILE: 'b' } });
    await cdata(['profile', 'use', 'a'], { env: home.env });
    await cdata(['config', 'set', 'output', 'csv'], { env: home.env });
    expect(home.read()).toEqual({
      profiles: { a: { timeout: 1, output: 'csv' }, b: { timeout: 2 } },
      defaultProfile: 'a',
    });
  });

  it('get of a setting that is not set: nothing on stdout, a note, exit 0', async () => {
    const home = configHome();
    const result = await cdata(['config', 'get', 'timeout'], { env: home.env });
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr: "timeout is not set in profile 'default' (default: 30 s).\n",
    });
    expect((await cdata(['config', 'get', 'output', '-q'], { env: home.env })).stderr).toBe('');
  });

  it('unset of a setting that is not set: exit 0, a note', async () => {
    const home = configHome();
    await cdata(['config', 'set', 'timeout', '3'], { env: home.env });
    const result = await cdata(['config', 'unset', 'output'], { env: home.env });
    expect(result).toMatchObject({ code: 0, stderr: "output was not set in profile 'default'.\n" });
  });

  it('get and unset on a named profile that does not exist: exit 2', async () => {
    const home = configHome();
    for (const argv of [
      ['config', 'get', 'output'],
      ['config', 'unset', 'output'],
    ]) {
      const result = await cdata(['-p', 'nope', ...argv], { env: home.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe("error: no profile 'nope' (there are no profiles yet)\n");
    }
    expect(existsSync(home.file)).toBe(false);
  });

  it('warns when CDATA_BASE_URL hides the stored base URL', async () => {
    const home = configHome();
    const result = await cdata(['config', 'set', 'base-url', 'https://a.example'], {
      env: { ...home.env, CDATA_BASE_URL: 'https://b.example' },
    });
    expect(result.stderr).toContain('warning: CDATA_BASE_URL is set, and it wins over the stored base URL');
  });

  const refused: [string, string[], string][] = [
    ['an unknown setting', ['colour', 'red'], 'error: unknown setting "colour": use one of base-url, output, timeout'],
    [
      'the key',
      ['key', secret('svc_0123456789abcdef')],
      'error: the key is not a setting: store it with `cdata auth login`',
    ],
    ['api-key', ['api-key', 'svc_0123456789abcdef'], 'error: the key is not a setting'],
    [
      'an http base URL off loopback',
      ['base-url', 'http://api.example.com'],
      'error: refusing plain http:// to api.example.com',
    ],
    ['a base URL that is not a URL', ['base-url', 'api.example.com'], "error: base URL 'api.example.com' is not a URL"],
    ['an unknown format', ['output', 'xml'], "error: output must be one of table, json, ndjson, csv, tsv (got 'xml')"],
    ['a zero timeout', ['timeout', '0'], "error: timeout must be a number of seconds above 0 up to 86400 (got '0')"],
    ['a negative timeout', ['timeout', '-3'], 'error: timeout must be a number of seconds above 0'],
    ['a timeout that is not a number', ['timeout', '5s'], 'error: timeout must be a number of seconds above 0'],
  ];

  it.each(refused)('set refuses %s: exit 2, nothing written', async (_what, args, message) => {
    const home = configHome();
    const result = await cdata(['config', 'set', ...args], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(existsSync(home.file)).toBe(false);
  });

  it('set pager with a key in its place (a slip for key-command): exit 2, never stored or echoed', async () => {
    const home = configHome();
    for (const value of [demoKey('graph'), `'${demoKey('graph')}'`]) {
      const result = await cdata(['config', 'set', 'pager', value], { env: home.env });
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr:
          "error: that is an API key, not a pager: the key is never taken on the command line\nhint: Give the pager's command, such as 'less -R'. If that was a real key, it may now be in your shell history: consider revoking it.\n",
      });
    }
    expect(existsSync(home.file)).toBe(false);
    expect((await cdata(['config', 'set', 'pager', 'less -R'], { env: home.env })).code).toBe(0);
  });

  it('missing arguments: exit 2 from the parser', async () => {
    expect((await cdata(['config', 'set', 'timeout'])).code).toBe(2);
    expect((await cdata(['config', 'get'])).code).toBe(2);
  });
});

describe('on a fresh machine, a command that changes nothing creates nothing', () => {
  it.each([
    [['auth', 'logout'], 0],
    [['config', 'unset', 'timeout'], 0],
    [['profile', 'remove', 'x'], 2],
    [['profile', 'use', 'default'], 2],
  ])('%j: exit %i, no config folder, lock or file', async (argv, code) => {
    const dir = join(configHome().dir, 'not-yet');
    const result = await cdata(argv, { env: { CDATA_CONFIG_DIR: dir } });
    expect(result.code).toBe(code);
    expect(existsSync(dir)).toBe(false);
  });

  it('a command that does change it still creates the folder and the file', async () => {
    const dir = join(configHome().dir, 'not-yet');
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: { CDATA_CONFIG_DIR: dir } })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { timeout: 5 } },
    });
  });
});
