// resolveSettings field by field, and requireProfile: what each command reads, from where, and
// what it tells the user (a readable config file, a typo in a profile name, -o against --json).
// test/config/resolve.test.ts has the precedence of each setting; the commands' view of it too.
import { chmodSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requireProfile, resolveSettings, type SettingsFlags } from '../../src/config/resolve.js';
import type { ConfigData } from '../../src/config/schema.js';
import { cdata } from '../helpers/checked.js';
import { testIo } from '../helpers/io.js';
import { configHome } from '../auth/harness.js';

const STORED: ConfigData = {
  profiles: {
    prod: { key: 'svc_prodprodprodprod', baseUrl: 'https://prod.example', output: 'csv', timeout: 12, pager: 'more' },
    cmd: { keyCommand: 'pass show cdata', baseUrl: 'https://cmd.example' },
    bare: {},
  },
};

function setup(config: ConfigData | null = STORED, env: Record<string, string> = {}, mode = 0o600) {
  const home = configHome();
  if (config) {
    writeFileSync(home.file, JSON.stringify(config));
    chmodSync(home.file, mode);
  }
  const test = testIo({ env: { ...home.env, ...env } });
  return { ...test, home };
}

function resolve(options: SettingsFlags, env: Record<string, string> = {}, config: ConfigData | null = STORED) {
  return resolveSettings(options, setup(config, env).io);
}

describe('resolveSettings', () => {
  it('flag > environment > profile > default, setting by setting', () => {
    const env = { CDATA_PROFILE: 'cmd', CDATA_BASE_URL: 'https://env.example', CDATA_API_KEY: 'svc_envenvenvenv' };
    const withDefault: ConfigData = { ...STORED, defaultProfile: 'prod' };
    expect(resolve({ profile: 'prod' }, env, withDefault).profile).toMatchObject({ name: 'prod', source: 'flag' });
    expect(resolve({}, env, withDefault).profile).toMatchObject({ name: 'cmd', source: 'env' });
    expect(resolve({}, {}, withDefault).profile).toMatchObject({ name: 'prod', source: 'profile' });
    expect(resolve({ profile: 'prod', baseUrl: 'https://flag.example' }, env).baseUrl).toEqual({
      value: 'https://flag.example',
      source: 'flag',
    });
    expect(resolve({ profile: 'prod' }, env).baseUrl).toEqual({ value: 'https://env.example', source: 'env' });
    expect(resolve({ profile: 'prod' }).baseUrl).toEqual({ value: 'https://prod.example', source: 'profile' });
    expect(resolve({ profile: 'bare' }).baseUrl).toEqual({ value: undefined, source: 'default' });
    expect(resolve({ profile: 'prod' }, env).key).toEqual({
      value: 'svc_envenvenvenv',
      source: 'env',
      command: undefined,
    });
    expect(resolve({ profile: 'prod', output: 'tsv' }).output).toEqual({ value: 'tsv', source: 'flag' });
    expect(resolve({ profile: 'prod', json: true }).output).toEqual({ value: 'json', source: 'flag' });
    expect(resolve({ profile: 'prod' }).output).toEqual({ value: 'csv', source: 'profile' });
    expect(resolve({ profile: 'bare' }).output).toEqual({ value: undefined, source: 'default' });
    expect(resolve({ profile: 'prod', timeout: 3 }).timeoutSeconds).toBe(3);
    expect(resolve({ profile: 'prod' }).timeoutSeconds).toBe(12);
    expect(resolve({ profile: 'bare' }).timeoutSeconds).toBe(30);
  });

  it('a config file others can read: a warning naming the fix, unless -q', () => {
    const loud = setup(STORED, {}, 0o644);
    resolveSettings({ profile: 'prod' }, loud.io);
    expect(loud.stderr()).toBe(
      `warning: the config file ${loud.home.file} is readable by others (mode 0644); it holds API keys: run chmod 600 '${loud.home.file}'\n`,
    );
    const quiet = setup(STORED, {}, 0o644);
    resolveSettings({ profile: 'prod', quiet: true }, quiet.io);
    expect(quiet.stderr()).toBe('');
    const private_ = setup(STORED, {}, 0o600);
    resolveSettings({ profile: 'prod' }, private_.io);
    expect(private_.stderr()).toBe('');
  });

  it('a config file with no key in it (key commands, base URLs) may be read by others, not written', () => {
    const KEYLESS: ConfigData = { profiles: { cmd: STORED.profiles.cmd!, bare: {} } };
    const said = (mode: number) => {
      const test = setup(KEYLESS, {}, mode);
      resolveSettings({ profile: 'cmd' }, test.io);
      return test.stderr();
    };
    // As a Kubernetes Secret mounts it (docs/many-profiles.md): nothing to give away.
    expect([said(0o440), said(0o640), said(0o644)]).toEqual(['', '', '']);
    expect(said(0o620)).toMatch(
      /^warning: the config file .*config\.json is writable by others \(mode 0620\); whoever can write it chooses where your keys go and what key commands run: run chmod 600 '.*config\.json'\n$/,
    );
  });

  it('a config file others can write, or a folder they can: a warning that says which, naming the fix', () => {
    const warned = (mode: number, folder?: number) => {
      const test = setup(STORED, {}, mode);
      if (folder !== undefined) chmodSync(test.home.dir, folder);
      resolveSettings({ profile: 'prod' }, test.io);
      return { said: test.stderr(), file: test.home.file, dir: test.home.dir };
    };
    const writable = warned(0o620);
    expect(writable.said).toBe(
      `warning: the config file ${writable.file} is writable by others (mode 0620); it holds API keys, and whoever can write it chooses where they go and what key commands run: run chmod 600 '${writable.file}'\n`,
    );
    expect(warned(0o666).said).toMatch(/ is readable and writable by others \(mode 0666\); it holds API keys, and /);
    expect(warned(0o610).said).toBe('');
    const folder = warned(0o600, 0o777);
    expect(folder.said).toBe(
      `warning: the config folder ${folder.dir} is writable by others (mode 0777): whoever can change it chooses where your keys go and what key commands run: run chmod 700 '${folder.dir}'\n`,
    );
    expect(warned(0o600, 0o1777).said).toBe(''); // the sticky bit: nobody else can replace the file
    expect(warned(0o600, 0o750).said).toBe('');
  });

  it('--sandbox: its URL and key, whatever the flags, the environment and the profile say', () => {
    const sandbox = { url: 'http://127.0.0.1:9', key: 'svc_sandboxsandbox' };
    const env = { CDATA_BASE_URL: 'https://env.example', CDATA_API_KEY: 'svc_envenvenvenv' };
    const settings = resolveSettings(
      { profile: 'prod', baseUrl: 'https://flag.example' },
      setup(STORED, env).io,
      sandbox,
    );
    expect(settings.baseUrl).toEqual({ value: 'http://127.0.0.1:9', source: 'sandbox' });
    expect(settings.key).toEqual({ value: 'svc_sandboxsandbox', source: 'sandbox', command: undefined });
  });

  it("a profile's key command runs only for a request; CDATA_API_KEY still wins over it", () => {
    expect(resolve({ profile: 'cmd' }).key).toEqual({
      value: undefined,
      source: 'key-command',
      command: 'pass show cdata',
    });
    expect(resolve({ profile: 'cmd' }, { CDATA_API_KEY: 'svc_envenvenvenv' }).key).toEqual({
      value: 'svc_envenvenvenv',
      source: 'env',
      command: 'pass show cdata',
    });
    expect(resolve({ profile: 'prod' }).key).toEqual({
      value: 'svc_prodprodprodprod',
      source: 'profile',
      command: undefined,
    });
    expect(resolve({ profile: 'bare' }).key).toEqual({ value: undefined, source: 'default', command: undefined });
  });

  it('a profile name that is an Object property is no profile unless the file has it', () => {
    expect(resolve({ profile: 'constructor' }).profile).toEqual({
      name: 'constructor',
      source: 'flag',
      data: undefined,
    });
    expect(resolve({ profile: 'bare' }).profile).toEqual({ name: 'bare', source: 'flag', data: {} });
    expect(resolve({}).profile).toEqual({ name: 'default', source: 'default', data: undefined });
  });

  it('output: the stored one in any case; --json with another -o is refused; the stored one is checked only when used', () => {
    expect(resolve({ profile: 'prod' }, {}, { profiles: { prod: { output: 'JSON' as 'json' } } }).output).toEqual({
      value: 'json',
      source: 'profile',
    });
    expect(resolve({ json: true, output: 'json' }).output).toEqual({ value: 'json', source: 'flag' });
    expect(() => resolve({ json: true, output: 'csv' }).output).toThrow(
      expect.objectContaining({ name: 'UsageError', message: '--json and --output csv disagree: use one of them' }),
    );
    const broken: ConfigData = { profiles: { prod: { output: 'xml' as 'json', timeout: -1 } } };
    expect(resolve({ profile: 'prod', output: 'tsv' }, {}, broken).output).toEqual({ value: 'tsv', source: 'flag' });
    const bad = setup(broken);
    const settings = resolveSettings({ profile: 'prod' }, bad.io);
    expect(() => settings.output).toThrow(
      expect.objectContaining({
        name: 'UsageError',
        message: `the config file ${bad.home.file} is not valid: profiles.prod.output is not one of table, json, ndjson, csv, tsv (got "xml")`,
      }),
    );
    expect(resolve({ profile: 'prod', timeout: 5 }, {}, broken).timeoutSeconds).toBe(5);
    expect(() => settings.timeoutSeconds).toThrow(
      expect.objectContaining({
        name: 'UsageError',
        message: `the config file ${bad.home.file} is not valid: profiles.prod.timeout is not a number of seconds above 0 up to 86400, as \`config set timeout\` takes (got -1)`,
      }),
    );
    // No profile in the file: nothing stored to use.
    expect(resolve({ profile: 'absent' })).toMatchObject({
      output: { value: undefined, source: 'default' },
      timeoutSeconds: 30,
      timeoutSource: 'default',
    });
  });

  it('where the timeout came from (config list shows it)', () => {
    expect(resolve({ profile: 'prod', timeout: 3 }).timeoutSource).toBe('flag');
    expect(resolve({ profile: 'prod' }).timeoutSource).toBe('profile');
    expect(resolve({ profile: 'bare' }).timeoutSource).toBe('default');
  });

  it('--color takes auto, always or never, and says so', async () => {
    for (const when of ['auto', 'always', 'never'])
      expect((await cdata(['me', '--sandbox', '-o', 'json', '--color', when])).code).toBe(0);
    const result = await cdata(['me', '--sandbox', '--color', 'sometimes']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe("error: --color must be one of auto, always, never (got 'sometimes')");
  });

  it('retries, --max-wait, colour, -q: the flag, else the default', () => {
    expect(resolve({ retries: 0, maxWait: 0, color: 'never', quiet: true })).toMatchObject({
      retries: 0,
      maxWaitSeconds: 0,
      color: 'never',
      quiet: true,
    });
    expect(resolve({})).toMatchObject({ retries: 2, maxWaitSeconds: 30, color: 'auto', quiet: false });
  });

  it('--debug, or CDATA_DEBUG=1 and nothing else', () => {
    expect(resolve({ debug: true }).debug).toBe(true);
    expect(resolve({}, { CDATA_DEBUG: '1' }).debug).toBe(true);
    expect(resolve({}, { CDATA_DEBUG: '0' }).debug).toBe(false);
    expect(resolve({}, { CDATA_DEBUG: 'yes' }).debug).toBe(false);
    expect(resolve({ debug: false }).debug).toBe(false);
  });

  it('CDATA_DEBUG set to anything but 1 or 0: a warning that it does nothing, unless -q or --debug', () => {
    const said = (options: SettingsFlags, value: string) => {
      const test = setup(STORED, { CDATA_DEBUG: value });
      resolveSettings(options, test.io);
      return test.stderr();
    };
    const warning = 'warning: CDATA_DEBUG is set, but not to 1: no request trace (1 turns it on, 0 or unset off)\n';
    expect(said({}, 'true')).toBe(warning);
    expect(said({}, 'yes')).toBe(warning);
    expect(said({ quiet: true }, 'true')).toBe('');
    expect(said({ debug: true }, 'true')).toBe('');
    expect(said({}, '1')).toBe('');
    expect(said({}, '0')).toBe('');
    expect(said({}, '')).toBe('');
  });

  it("a profile's pager is not run from a config file others could change, as a key command is not: PAGER instead", () => {
    const withPager = (pager: string) => ({ profiles: { prod: { ...STORED.profiles.prod, pager } } });
    const refused = resolveSettings({ profile: 'prod' }, setup(STORED, { PAGER: 'less' }, 0o666).io);
    expect(refused).toMatchObject({ pager: 'less', pagerRefused: true });
    expect(resolveSettings({ profile: 'prod' }, setup(STORED, { PAGER: 'less' }).io)).toMatchObject({
      pager: 'more',
      pagerRefused: false,
    });
    // None ('') and cat run nothing: honoured from any file.
    for (const none of ['', 'cat'])
      expect(resolveSettings({ profile: 'prod' }, setup(withPager(none), { PAGER: 'less' }, 0o666).io)).toMatchObject({
        pager: none,
        pagerRefused: false,
      });
    // CDATA_PAGER or --no-pager decide first: nothing was refused.
    expect(resolveSettings({ profile: 'prod' }, setup(STORED, { CDATA_PAGER: 'most' }, 0o666).io).pagerRefused).toBe(
      false,
    );
    expect(resolveSettings({ profile: 'prod', pager: false }, setup(STORED, {}, 0o666).io).pagerRefused).toBe(false);
  });

  it('the pager: --no-pager, CDATA_PAGER, the profile, PAGER; an empty variable is no pager', () => {
    const env = { CDATA_PAGER: 'most', PAGER: 'less' };
    expect(resolve({ profile: 'prod', pager: false }, env).pager).toBe('');
    expect(resolve({ profile: 'prod', pager: true }, env).pager).toBe('most');
    expect(resolve({ profile: 'prod' }, { PAGER: 'less' }).pager).toBe('more');
    expect(resolve({ profile: 'bare' }, { PAGER: 'less' }).pager).toBe('less');
    expect(resolve({ profile: 'prod' }, { CDATA_PAGER: '', PAGER: 'less' }).pager).toBe('');
    expect(resolve({ profile: 'bare' }).pager).toBeUndefined();
  });
});

describe('requireProfile', () => {
  const hint = (name: string) => `Create it with: echo "$KEY" | cdata auth login --profile ${name} --base-url URL`;

  it('a named profile that is not in the file, when the key or the base URL would come from it: a usage error listing those that are', () => {
    for (const env of [{}, { CDATA_API_KEY: 'svc_envenvenvenv' }, { CDATA_BASE_URL: 'https://env.example' }] as Record<
      string,
      string
    >[]) {
      expect(() => requireProfile(resolve({ profile: 'prdo' }, env))).toThrow(
        expect.objectContaining({
          name: 'UsageError',
          message: "no profile 'prdo' (profiles: prod, cmd, bare)",
          // A typo of a profile there comes first.
          hint: `Did you mean prod? If not, c${hint('prdo').slice(1)}`,
        }),
      );
    }
    expect(() => requireProfile(resolve({}, { CDATA_PROFILE: 'prdo' }, null))).toThrow(
      expect.objectContaining({ message: "no profile 'prdo' (there are no profiles yet)", hint: hint('prdo') }),
    );
  });

  it('no error when nothing is needed from it, when it exists, or when none was named', () => {
    const env = { CDATA_API_KEY: 'svc_envenvenvenv', CDATA_BASE_URL: 'https://env.example' };
    expect(() => requireProfile(resolve({ profile: 'prdo' }, env))).not.toThrow();
    expect(() => requireProfile(resolve({ profile: 'bare' }))).not.toThrow();
    expect(() => requireProfile(resolve({}, {}, null))).not.toThrow();
    const sandbox = resolveSettings({ profile: 'prdo' }, setup().io, {
      url: 'http://127.0.0.1:9',
      key: 'svc_sandboxsandbox',
    });
    expect(() => requireProfile(sandbox)).not.toThrow();
  });
});
