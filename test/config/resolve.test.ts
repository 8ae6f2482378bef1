// Precedence, setting by setting: flag > environment > profile > default (docs/keys-and-profiles.md).
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveSettings, type SettingsFlags } from '../../src/config/resolve.js';
import type { ConfigData } from '../../src/config/schema.js';
import { demoKey } from '../../src/sandbox/keys.js';
import { testIo } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';
import { cdata, configHome } from '../auth/harness.js';

const STORED: ConfigData = {
  defaultProfile: 'prod',
  profiles: {
    prod: { key: 'svc_prodprodprodprod', baseUrl: 'https://prod.example', output: 'csv', timeout: 12 },
    other: { key: 'svc_otherotherother', baseUrl: 'https://other.example', output: 'ndjson', timeout: 7 },
  },
};

function resolve(options: SettingsFlags, env: Record<string, string> = {}, config: ConfigData | null = STORED) {
  const home = configHome();
  if (config) writeFileSync(home.file, JSON.stringify(config), { mode: 0o600 });
  return resolveSettings(options, testIo({ env: { ...home.env, ...env } }).io);
}

describe('resolution: flag > environment > profile > default', () => {
  it('profile', () => {
    expect(resolve({ profile: 'other' }, { CDATA_PROFILE: 'prod' }).profile).toMatchObject({
      name: 'other',
      source: 'flag',
    });
    expect(resolve({}, { CDATA_PROFILE: 'other' }).profile).toMatchObject({ name: 'other', source: 'env' });
    expect(resolve({}).profile).toMatchObject({ name: 'prod', source: 'profile' });
    expect(resolve({}, {}, null).profile).toMatchObject({ name: 'default', source: 'default', data: undefined });
    expect(resolve({}, { CDATA_PROFILE: '' }).profile.name).toBe('prod'); // an empty variable means unset
  });

  it('base URL', () => {
    const env = { CDATA_BASE_URL: 'https://env.example' };
    expect(resolve({ baseUrl: 'https://flag.example' }, env).baseUrl).toEqual({
      value: 'https://flag.example',
      source: 'flag',
    });
    expect(resolve({}, env).baseUrl).toEqual({ value: 'https://env.example', source: 'env' });
    expect(resolve({}).baseUrl).toEqual({ value: 'https://prod.example', source: 'profile' });
    expect(resolve({ profile: 'other' }).baseUrl.value).toBe('https://other.example');
    expect(resolve({}, {}, null).baseUrl).toEqual({ value: undefined, source: 'default' }); // no default exists
  });

  it('key (no flag exists: it never comes from argv)', () => {
    expect(resolve({}, { CDATA_API_KEY: 'svc_envenvenvenv' }).key).toEqual({
      value: 'svc_envenvenvenv',
      source: 'env',
    });
    expect(resolve({}).key).toEqual({ value: 'svc_prodprodprodprod', source: 'profile' });
    expect(resolve({ profile: 'other' }).key.value).toBe('svc_otherotherother');
    expect(resolve({}, {}, null).key).toEqual({ value: undefined, source: 'default' });
  });

  it('output: -o and --json beat the stored one; none stored leaves the choice to the command', () => {
    expect(resolve({ output: 'tsv' }).output).toEqual({ value: 'tsv', source: 'flag' });
    expect(resolve({ json: true }).output).toEqual({ value: 'json', source: 'flag' });
    expect(resolve({}).output).toEqual({ value: 'csv', source: 'profile' });
    expect(resolve({}, {}, null).output).toEqual({ value: undefined, source: 'default' });
  });

  it('timeout', () => {
    expect(resolve({ timeout: 3 }).timeoutSeconds).toBe(3);
    expect(resolve({}).timeoutSeconds).toBe(12);
    expect(resolve({ profile: 'other' }).timeoutSeconds).toBe(7);
    expect(resolve({}, {}, null).timeoutSeconds).toBe(30);
  });
});

const api = useSandbox();
const slow = useSandbox({ latencyMs: 300 });

describe('precedence as the commands see it', () => {
  async function home(profile: ConfigData['profiles'][string]) {
    const h = configHome();
    writeFileSync(h.file, JSON.stringify({ profiles: { default: { baseUrl: api.current.url, ...profile } } }), {
      mode: 0o600,
    });
    return h;
  }

  it('CDATA_API_KEY beats the stored key', async () => {
    const h = await home({ key: demoKey('revoked') });
    expect((await cdata(['agents'], { env: h.env })).code).toBe(3);
    expect((await cdata(['agents'], { env: { ...h.env, CDATA_API_KEY: demoKey('all') } })).code).toBe(0);
    const stored = await home({ key: demoKey('all') });
    expect((await cdata(['agents'], { env: { ...stored.env, CDATA_API_KEY: demoKey('revoked') } })).code).toBe(3);
  });

  it('a stored output applies, and an explicit -o or --json always beats it', async () => {
    const h = await home({ key: demoKey('all'), output: 'csv' });
    expect((await cdata(['agents', '--fields', 'name'], { env: h.env })).stdout).toMatch(/^name\r\ntender-scout\r\n/);
    expect(JSON.parse((await cdata(['agents', '--json'], { env: h.env })).stdout)).toBeInstanceOf(Array);
    expect((await cdata(['agents', '-o', 'ndjson'], { env: h.env })).stdout).toMatch(/^\{/);
  });

  it('a stored timeout applies, and --timeout beats it', async () => {
    const h = await home({ key: demoKey('all'), baseUrl: slow.current.url, timeout: 0.05 });
    const stored = await cdata(['agents', '--retries', '0'], { env: h.env });
    expect(stored.code).toBe(6);
    expect(stored.stderr).toContain('within 0.05 s (--timeout)');
    expect((await cdata(['agents', '--retries', '0', '--timeout', '20'], { env: h.env })).code).toBe(0);
  });

  it('--base-url and CDATA_BASE_URL beat the stored base URL', async () => {
    const h = await home({ key: demoKey('all'), baseUrl: 'http://127.0.0.1:1' });
    expect((await cdata(['agents', '--retries', '0'], { env: h.env })).code).toBe(6);
    expect((await cdata(['agents'], { env: { ...h.env, CDATA_BASE_URL: api.current.url } })).code).toBe(0);
    expect(
      (
        await cdata(['agents', '--base-url', api.current.url], {
          env: { ...h.env, CDATA_BASE_URL: 'http://127.0.0.1:1' },
        })
      ).code,
    ).toBe(0);
  });
});
