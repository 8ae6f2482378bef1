import { existsSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { useSandbox } from '../helpers/sandbox.js';
import { cdata, configHome } from './harness.js';

const sandbox = useSandbox();

/** A config with profiles prod (all scopes, the default) and staging (tenders.read only). */
async function twoProfiles() {
  const home = configHome();
  for (const [profile, key] of [
    ['prod', demoKey('all')],
    ['staging', demoKey('tenders')],
  ] as const) {
    const result = await cdata(['auth', 'login', '-p', profile, '--base-url', sandbox.current.url], {
      stdin: key,
      env: home.env,
    });
    expect(result.code).toBe(0);
  }
  return home;
}

async function whoAmI(env: Record<string, string>, args: string[] = []) {
  const result = await cdata([...args, 'auth', 'status', '--json'], { env });
  return JSON.parse(result.stdout) as { profile: string; profileSource: string; key: string };
}

describe('profile list', () => {
  it('lists names, the default, base URL and masked key: a table at a terminal', async () => {
    const home = await twoProfiles();
    const result = await cdata(['profile', 'list', '--color', 'never'], { env: home.env, stdoutTTY: true });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').map((line) => line.trimEnd());
    expect(lines[0]).toMatch(/^name\s+default\s+baseUrl\s+key$/);
    expect(lines[1]).toMatch(new RegExp(`^prod\\s+\\*\\s+${sandbox.current.url}\\s+${demoKey('all').slice(0, 12)}…$`));
    expect(lines[2]).toMatch(new RegExp(`^staging\\s+${sandbox.current.url}\\s+${demoKey('tenders').slice(0, 12)}…$`));
  });

  it('-o json for scripts', async () => {
    const home = await twoProfiles();
    await cdata(['-p', 'staging', 'config', 'set', 'output', 'csv'], { env: home.env });
    const result = await cdata(['profile', 'list', '-o', 'json'], { env: home.env });
    expect(JSON.parse(result.stdout)).toEqual([
      {
        name: 'prod',
        default: true,
        baseUrl: sandbox.current.url,
        key: `${demoKey('all').slice(0, 12)}…`,
        keyCommand: null,
        output: null,
        timeout: null,
      },
      {
        name: 'staging',
        default: false,
        baseUrl: sandbox.current.url,
        key: `${demoKey('tenders').slice(0, 12)}…`,
        keyCommand: null,
        output: 'csv',
        timeout: null,
      },
    ]);
  });

  it('tsv in a pipe, --fields as for any list', async () => {
    const home = await twoProfiles();
    const result = await cdata(['profile', 'list', '--fields', 'name,default'], { env: home.env });
    expect(result.stdout).toBe('name\tdefault\nprod\ttrue\nstaging\tfalse\n');
  });

  it('none marked: the profile named default is the default, as commands take it', async () => {
    const home = configHome();
    writeFileSync(
      home.file,
      JSON.stringify({ profiles: { ci: { baseUrl: sandbox.current.url }, default: { baseUrl: sandbox.current.url } } }),
      { mode: 0o600 },
    );
    const result = await cdata(['profile', 'list', '--fields', 'name,default'], { env: home.env });
    expect(result.stdout).toBe('name\tdefault\nci\tfalse\ndefault\ttrue\n');
    expect(await whoAmI(home.env)).toMatchObject({ profile: 'default' });
  });

  it('no profiles: an empty list, and a hint at a terminal', async () => {
    const home = configHome();
    expect((await cdata(['profile', 'list', '--json'], { env: home.env })).stdout).toBe('[]\n');
    const table = await cdata(['profile', 'list'], { env: home.env, stdoutTTY: true });
    expect(table.code).toBe(0);
    expect(table.stderr).toContain('No profiles yet');
  });
});

describe('profile use', () => {
  it('switches the default; --profile and CDATA_PROFILE still win', async () => {
    const home = await twoProfiles();
    expect(await whoAmI(home.env)).toMatchObject({ profile: 'prod', profileSource: 'profile' });
    const used = await cdata(['profile', 'use', 'staging'], { env: home.env });
    expect(used.code).toBe(0);
    expect(used.stderr).toBe("Profile 'staging' is now the default.\n");
    expect(await whoAmI(home.env)).toMatchObject({ profile: 'staging', key: `${demoKey('tenders').slice(0, 12)}…` });
    expect(await whoAmI({ ...home.env, CDATA_PROFILE: 'prod' })).toMatchObject({
      profile: 'prod',
      profileSource: 'env',
    });
    expect(await whoAmI({ ...home.env, CDATA_PROFILE: 'staging' }, ['-p', 'prod'])).toMatchObject({
      profile: 'prod',
      profileSource: 'flag',
    });
  });

  it('the commands follow the switch', async () => {
    const home = await twoProfiles();
    expect((await cdata(['companies', '--limit', '1'], { env: home.env })).code).toBe(0);
    await cdata(['profile', 'use', 'staging'], { env: home.env });
    const forbidden = await cdata(['companies', '--limit', '1'], { env: home.env });
    expect(forbidden.code).toBe(4); // staging's key has only tenders.read
  });

  it('a profile that does not exist: exit 2, listing the ones that do, file unchanged', async () => {
    const home = await twoProfiles();
    const before = home.text();
    const result = await cdata(['profile', 'use', 'nope'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: no profile 'nope' (profiles: prod, staging)\n");
    expect(home.text()).toBe(before);
  });
});

describe('profile remove', () => {
  it('removes a profile and its key; removing the default leaves no default', async () => {
    const home = await twoProfiles();
    const removed = await cdata(['profile', 'remove', 'prod'], { env: home.env });
    expect(removed.code).toBe(0);
    expect(removed.stderr).toContain("Removed profile 'prod' and its key. No profile is the default now");
    expect(home.read()).toEqual({ profiles: { staging: { key: demoKey('tenders'), baseUrl: sandbox.current.url } } });
    expect(await whoAmI(home.env)).toMatchObject({ profile: 'default', profileSource: 'default' });
  });

  it('with the default removed, a command asks for a profile among those left: exit 2', async () => {
    const home = await twoProfiles();
    await cdata(['profile', 'remove', 'prod'], { env: home.env });
    const said =
      'error: no profile is the default (profiles: staging)\nhint: Choose one with `cdata profile use NAME`, or name one with --profile NAME or CDATA_PROFILE.\n';
    expect(await cdata(['tenders'], { env: home.env })).toMatchObject({ code: 2, stdout: '', stderr: said });
    const status = await cdata(['auth', 'status'], { env: home.env });
    expect(status.code).toBe(2);
    expect(status.stderr).toBe(said);
    // config too: reading or changing "the profile in use" names none; set makes no `default`.
    const before = home.text();
    for (const argv of [
      ['config', 'get', 'timeout'],
      ['config', 'unset', 'timeout'],
      ['config', 'list'],
      ['config', 'set', 'output', 'json'],
    ])
      expect(await cdata(argv, { env: home.env })).toMatchObject({ code: 2, stdout: '', stderr: said });
    expect(home.text()).toBe(before);
    // Given what the profile would have given, no profile is needed.
    const given = { ...home.env, CDATA_BASE_URL: sandbox.current.url, CDATA_API_KEY: demoKey('all') };
    expect((await cdata(['tenders', '--limit', '1', '-o', 'json'], { env: given })).code).toBe(0);
  });

  it('removing the marked default falls back to the profile named default, and says so', async () => {
    const home = await twoProfiles();
    await cdata(['auth', 'login', '-p', 'default', '--base-url', sandbox.current.url], {
      stdin: demoKey('tenders'),
      env: home.env,
    });
    const removed = await cdata(['profile', 'remove', 'prod'], { env: home.env });
    expect(removed.stderr).toBe("Removed profile 'prod' and its key. Profile 'default' is the default now.\n");
    expect(await whoAmI(home.env)).toMatchObject({ profile: 'default', profileSource: 'default' });
    const gone = await cdata(['profile', 'remove', 'default'], { env: home.env });
    expect(gone.stderr).toBe(
      "Removed profile 'default' and its key. No profile is the default now: choose one with cdata profile use NAME.\n",
    );
  });

  it('the last profile removed: none is left to choose, and the note says how to make one', async () => {
    const home = configHome();
    await cdata(['auth', 'login', '-p', 'only', '--base-url', sandbox.current.url], {
      stdin: demoKey('tenders'),
      env: home.env,
    });
    const removed = await cdata(['profile', 'use', 'only'], { env: home.env }).then(() =>
      cdata(['profile', 'remove', 'only'], { env: home.env }),
    );
    expect(removed).toMatchObject({
      code: 0,
      stderr: "Removed profile 'only' and its key. No profile is left: cdata auth login makes one.\n",
    });
  });

  it('says what went with the profile: its key, its key command, or nothing', async () => {
    const home = configHome();
    const profiles = { keyed: { key: demoKey('all') }, commanded: { keyCommand: 'pass show cdata' }, bare: {} };
    writeFileSync(home.file, JSON.stringify({ profiles }), { mode: 0o600 });
    const notes = [];
    for (const name of Object.keys(profiles))
      notes.push((await cdata(['profile', 'remove', name], { env: home.env })).stderr);
    expect(notes).toEqual([
      "Removed profile 'keyed' and its key.\n",
      "Removed profile 'commanded' and its key command.\n",
      "Removed profile 'bare'.\n",
    ]);
    expect(home.read()).toEqual({ profiles: {} });
  });

  it('removing another profile keeps the default', async () => {
    const home = await twoProfiles();
    await cdata(['profile', 'remove', 'staging'], { env: home.env });
    expect(home.read()).toEqual({
      profiles: { prod: { key: demoKey('all'), baseUrl: sandbox.current.url } },
      defaultProfile: 'prod',
    });
  });

  it('a profile that does not exist: exit 2', async () => {
    const home = configHome();
    const result = await cdata(['profile', 'remove', 'ghost'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: no profile 'ghost' (there are no profiles yet)\n");
  });
});

describe('auth logout', () => {
  it("removes the profile's key; its base URL and settings stay", async () => {
    const home = await twoProfiles();
    await cdata(['-p', 'staging', 'config', 'set', 'timeout', '5'], { env: home.env });
    const result = await cdata(['auth', 'logout', '-p', 'staging'], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Removed the key of profile 'staging'; its base URL and settings stay");
    expect((home.read().profiles as Record<string, unknown>).staging).toEqual({
      baseUrl: sandbox.current.url,
      timeout: 5,
    });
    const after = await cdata(['tenders', '-p', 'staging'], { env: home.env });
    expect(after.code).toBe(3);
  });

  it('the default profile when none is named', async () => {
    const home = await twoProfiles();
    await cdata(['auth', 'logout'], { env: home.env });
    expect((home.read().profiles as Record<string, unknown>).prod).toEqual({ baseUrl: sandbox.current.url });
  });

  it('again: exit 0, saying there is no key, file unchanged', async () => {
    const home = await twoProfiles();
    await cdata(['auth', 'logout'], { env: home.env });
    const before = home.text();
    const again = await cdata(['auth', 'logout'], { env: home.env });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("Profile 'prod' has no stored key or key command: nothing to remove.\n");
    expect(home.text()).toBe(before);
  });

  it('a profile that does not exist: exit 2', async () => {
    const home = await twoProfiles();
    const result = await cdata(['auth', 'logout', '-p', 'nope'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: no profile 'nope' (profiles: prod, staging)\n");
  });

  it('with no profile at all: exit 0, nothing to remove, no file made', async () => {
    const home = configHome();
    const result = await cdata(['auth', 'logout'], { env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'No profile is logged in: nothing to remove.\n' });
    expect(existsSync(home.file)).toBe(false);
  });

  it('with profiles but none the default: exit 2, asking which', async () => {
    const home = await twoProfiles();
    await cdata(['profile', 'remove', 'prod'], { env: home.env });
    const before = home.text();
    const result = await cdata(['auth', 'logout'], { env: home.env });
    expect(result).toMatchObject({
      code: 2,
      stderr:
        'error: no profile is the default (profiles: staging)\nhint: Choose one with `cdata profile use NAME`, or name one with --profile NAME or CDATA_PROFILE.\n',
    });
    expect(home.text()).toBe(before);
  });

  it('warns that CDATA_API_KEY is still in use', async () => {
    const home = await twoProfiles();
    const result = await cdata(['auth', 'logout'], { env: { ...home.env, CDATA_API_KEY: demoKey('all') } });
    expect(result.stderr).toContain('warning: CDATA_API_KEY is still set');
  });
});

describe('a named profile that does not exist', () => {
  it('exit 2 for commands that need the API, naming the profiles', async () => {
    const home = await twoProfiles();
    const result = await cdata(['tenders', '-p', 'prdo'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: no profile 'prdo' (profiles: prod, staging)");
    const viaEnv = await cdata(['tenders'], { env: { ...home.env, CDATA_PROFILE: 'prdo' } });
    expect(viaEnv.code).toBe(2);
  });

  it('is fine when the key and the base URL come from the environment', async () => {
    const env = {
      ...configHome().env,
      CDATA_API_KEY: demoKey('all'),
      CDATA_BASE_URL: sandbox.current.url,
      CDATA_PROFILE: 'ci',
    };
    expect((await cdata(['tenders', '--limit', '1'], { env })).code).toBe(0);
  });

  it('is created by auth login and by config set', async () => {
    const home = configHome();
    expect((await cdata(['-p', 'fresh', 'config', 'set', 'output', 'json'], { env: home.env })).stderr).toBe(
      "Created profile 'fresh'.\n",
    );
    expect(home.read()).toEqual({ profiles: { fresh: { output: 'json' } } });
  });

  it('config set that creates a profile a typo away from another: made as asked, and a warning says how to undo it', async () => {
    const home = configHome();
    await cdata(['-p', 'prod', 'config', 'set', 'output', 'json'], { env: home.env });
    const typo = await cdata(['-p', 'prdo', 'config', 'set', 'output', 'csv'], { env: home.env });
    expect(typo).toMatchObject({
      code: 0,
      stdout: '',
      stderr:
        "Created profile 'prdo'.\nwarning: 'prdo' is close to 'prod': if that was meant, `cdata profile remove prdo` undoes this\n",
    });
    expect(home.read()).toEqual({ profiles: { prod: { output: 'json' }, prdo: { output: 'csv' } } });
    // A name like no other, or a profile that exists already: no warning.
    expect((await cdata(['-p', 'staging', 'config', 'set', 'output', 'tsv'], { env: home.env })).stderr).toBe(
      "Created profile 'staging'.\n",
    );
    // Names of a series (docs/many-profiles.md makes client-a, client-b, client-c): no warning.
    for (const name of ['client-a', 'client-b', 'client-c', 'prod2'])
      expect((await cdata(['-p', name, 'config', 'set', 'output', 'tsv'], { env: home.env })).stderr).toBe(
        `Created profile '${name}'.\n`,
      );
    expect((await cdata(['-p', 'prdo', 'config', 'set', 'output', 'json'], { env: home.env })).stderr).toBe('');
  });
});
