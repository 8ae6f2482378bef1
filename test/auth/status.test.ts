import { chmodSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { TENANT } from '../../src/sandbox/vocabulary.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ALL_SCOPES_IDENTITY, cdata, configHome } from './harness.js';

const sandbox = useSandbox();

async function loggedIn(key = demoKey('all'), profile = 'default') {
  const home = configHome();
  const result = await cdata(['auth', 'login', '-p', profile, '--base-url', sandbox.current.url], {
    stdin: key,
    env: home.env,
  });
  expect(result.code).toBe(0);
  return home;
}

describe('auth status', () => {
  it('shows profile, base URL, masked key and its source, the file and its mode, then what /me says', async () => {
    const home = await loggedIn();
    const result = await cdata(['auth', 'status'], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'profile      default (the default profile)',
        `base URL     ${sandbox.current.url} (from the profile)`,
        `key          ${demoKey('all').slice(0, 12)}… (from the profile; stored in plain text in the config file)`,
        `config file  ${home.file} (mode 0600)`,
        ...ALL_SCOPES_IDENTITY,
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
  });

  it('says when CDATA_API_KEY wins over the stored key, and checks that key', async () => {
    const home = await loggedIn();
    const result = await cdata(['auth', 'status', '--json'], {
      env: { ...home.env, CDATA_API_KEY: demoKey('workspaces') },
    });
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout);
    expect(status).toMatchObject({
      key: `${demoKey('workspaces').slice(0, 12)}…`,
      keySource: 'env',
      identity: { displayName: 'Sandbox: workspaces.read only' },
    });
    const text = await cdata(['auth', 'status'], { env: { ...home.env, CDATA_API_KEY: demoKey('workspaces') } });
    expect(text.stdout).toContain("(from CDATA_API_KEY, which wins over the profile's stored key)");
  });

  it('a key without workspaces.read: exit 0, identity not shown', async () => {
    const home = await loggedIn(demoKey('tenders'), 'tenders');
    const result = await cdata(['auth', 'status', '-p', 'tenders'], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('profile      tenders (from --profile)');
    expect(result.stdout).toContain('identity     not shown: the key lacks workspaces.read');
  });

  it('no key: the local part, then exit 3', async () => {
    const home = configHome();
    const result = await cdata(['auth', 'status'], { env: home.env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe(
      [
        'profile      default (no default profile marked; not in the config file)',
        'base URL     - (not set)',
        'key          - (not set)',
        `config file  ${home.file} (not created yet)`,
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain("error: not logged in: no API key for profile 'default'");
  });

  it('a profile chosen with -p: its hint logs in to that profile; one that does not exist is exit 2, the profiles listed', async () => {
    const home = await loggedIn(demoKey('all'), 'acme');
    const { env } = home;
    expect(await cdata(['config', 'set', 'base-url', sandbox.current.url, '-p', 'bare'], { env })).toMatchObject({
      code: 0,
    });
    const bare = await cdata(['auth', 'status', '-p', 'bare'], { env });
    expect(bare.code).toBe(3);
    expect(bare.stderr).toBe(
      "error: not logged in: no API key for profile 'bare'\n" +
        'hint: Run `echo "$KEY" | cdata auth login --profile bare`, or set CDATA_API_KEY.\n',
    );
    const typo = await cdata(['auth', 'status'], { env: { ...env, CDATA_PROFILE: 'acne' } });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^error: no profile 'acne' \(profiles: acme, bare\)\n/);
  });

  it('a revoked key (401): exit 3 after the local part', async () => {
    const result = await cdata(['auth', 'status'], {
      env: { ...configHome().env, CDATA_API_KEY: demoKey('revoked'), CDATA_BASE_URL: sandbox.current.url },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('key          svc_QNXGw1by… (from CDATA_API_KEY)');
    expect(result.stderr).toContain('error: This API key has been revoked.');
  });

  it('an unreachable API: exit 6 after the local part; with --json the outcome is in the document', async () => {
    const env = { ...configHome().env, CDATA_API_KEY: demoKey('all'), CDATA_BASE_URL: 'http://127.0.0.1:1' };
    const text = await cdata(['auth', 'status', '--retries', '0'], { env });
    expect(text.code).toBe(6);
    expect(text.stdout).toContain('base URL     http://127.0.0.1:1 (from CDATA_BASE_URL)');
    expect(text.stderr).toContain('error: connection refused by 127.0.0.1:1: nothing is listening on that port');
    const json = await cdata(['auth', 'status', '--retries', '0', '--json'], { env });
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toMatchObject({ identity: null, error: { exitCode: 6 } });
  });

  it('no base URL: exit 2 after the local part', async () => {
    const result = await cdata(['auth', 'status'], { env: { ...configHome().env, CDATA_API_KEY: demoKey('all') } });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('key          svc_yye8NHLb… (from CDATA_API_KEY)');
    expect(result.stderr).toContain('error: no base URL configured');
  });

  it('shows a wider mode as it is, with one warning naming the fix', async () => {
    const home = await loggedIn();
    chmodSync(home.file, 0o644);
    const result = await cdata(['auth', 'status'], { env: home.env });
    expect(result.stdout).toContain(`config file  ${home.file} (mode 0644)`);
    expect(result.stderr.match(/warning: .*readable by others.*chmod 600/g)).toHaveLength(1);
  });

  it('with --sandbox, reports the in-process sandbox and its demo key', async () => {
    const result = await cdata(['--sandbox', 'auth', 'status', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      baseUrlSource: 'sandbox',
      keySource: 'sandbox',
      identity: { tenant: TENANT },
    });
  });
});
