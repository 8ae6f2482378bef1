// Profile names: ^[a-z0-9][a-z0-9_-]{0,63}$ wherever a name comes from. Dots would nest in conf;
// `__proto__` could reach Object.prototype.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cdata, configHome } from '../auth/harness.js';

const BAD: [string, string][] = [
  ['a dot', 'a.b'],
  ['__proto__', '__proto__'],
  ['constructor-like', '_constructor'],
  ['empty', ''],
  ['upper case', 'Prod'],
  ['65 characters', 'a'.repeat(65)],
  ['a slash', 'a/b'],
  ['a space', 'my prod'],
  ['a control character', 'a\u001b[31m'],
];

const GOOD = ['a', '0', 'prod-eu_2', 'a'.repeat(64)];

describe('bad profile names are refused with exit 2, nothing written', () => {
  it.each(BAD)('%s, in --profile', async (_what, name) => {
    const home = configHome();
    for (const argv of [
      ['profile', 'list'],
      ['config', 'set', 'timeout', '5'],
      ['auth', 'logout'],
      ['auth', 'login', '--base-url', 'https://api.example.com'],
    ]) {
      const result = await cdata(['--profile', name, ...argv], { env: home.env, stdin: 'svc_0123456789abcdefghij' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: invalid profile name ${JSON.stringify(name)}: use lowercase letters`);
    }
    expect(existsSync(home.file)).toBe(false);
  });

  it.each(BAD.filter(([, name]) => name !== ''))('%s, in CDATA_PROFILE', async (_what, name) => {
    const home = configHome();
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: { ...home.env, CDATA_PROFILE: name } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: invalid profile name');
    expect(existsSync(home.file)).toBe(false);
  });

  it.each(BAD)('%s, as profile use / remove NAME', async (_what, name) => {
    const home = configHome();
    writeFileSync(home.file, '{"profiles":{"a":{}}}', { mode: 0o600 });
    for (const command of ['use', 'remove']) {
      const result = await cdata(['profile', command, name], { env: home.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('error: invalid profile name');
    }
    expect(readFileSync(home.file, 'utf8')).toBe('{"profiles":{"a":{}}}');
  });

  it.each(BAD.filter(([, name]) => name !== ''))(
    '%s, in the config file: the file is reported as invalid',
    async (_what, name) => {
      const home = configHome();
      const text = JSON.stringify({ profiles: { [name]: { timeout: 1 } } });
      writeFileSync(home.file, text, { mode: 0o600 });
      const result = await cdata(['profile', 'list'], { env: home.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: the config file ${home.file} is not valid: profile name`);
      expect(readFileSync(home.file, 'utf8')).toBe(text);
    },
  );
});

describe('good profile names', () => {
  it.each(GOOD)('%s is stored and used', async (name) => {
    const home = configHome();
    expect((await cdata(['-p', name, 'config', 'set', 'timeout', '5'], { env: home.env })).code).toBe(0);
    expect((await cdata(['profile', 'use', name], { env: home.env })).code).toBe(0);
    expect(home.read()).toEqual({ profiles: { [name]: { timeout: 5 } }, defaultProfile: name });
  });
});
