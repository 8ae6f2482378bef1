// A config file edited by hand: each stored setting gets the limits `cdata config set` gives it,
// so a value `config set` refuses is refused where it is used too (exit 2, naming the file and
// the field, the file left as it is), and a spelling `config set` accepts (a format in capitals)
// is read as that value. A bad value stops only what uses it: not a profile not in use, not
// `--sandbox`, not the command that would fix it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { scratch } from './scratch.js';

const sandbox = useSandbox();
const folder = scratch('cdata-config');

/** A config folder holding `profile` as profile `prod`, and the env that uses it with the sandbox. */
function configWith(profile: Record<string, unknown>) {
  const dir = folder();
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify(
      { defaultProfile: 'prod', profiles: { prod: { key: 'svc_notsentnotsentnotsent', ...profile } } },
      null,
      2,
    ),
    { mode: 0o600 },
  );
  const { CDATA_API_KEY, CDATA_BASE_URL } = sandboxEnv(sandbox.current);
  return { file, text: readFileSync(file, 'utf8'), env: { CDATA_CONFIG_DIR: dir, CDATA_API_KEY, CDATA_BASE_URL } };
}

const SECONDS = 'is not a number of seconds above 0 up to 86400, as `config set timeout` takes';

describe('a stored value `config set` would refuse', () => {
  it.each([
    ['a timeout past a day', { timeout: 86_401 }, `profiles.prod.timeout ${SECONDS} (got 86401)`],
    [
      'a timeout of 1e308 (a request with no deadline)',
      { timeout: 1e308 },
      `profiles.prod.timeout ${SECONDS} (got 1e+308)`,
    ],
    ['a timeout of 0', { timeout: 0 }, `profiles.prod.timeout ${SECONDS} (got 0)`],
    ['a negative timeout', { timeout: -5 }, `profiles.prod.timeout ${SECONDS} (got -5)`],
    ['a timeout written as text', { timeout: '30' }, `profiles.prod.timeout ${SECONDS} (got "30")`],
    [
      'a timeout too small to write without an exponent',
      { timeout: 1e-7 },
      `profiles.prod.timeout ${SECONDS} (got 1e-7)`,
    ],
    [
      'an unknown output',
      { output: 'yaml' },
      'profiles.prod.output is not one of table, json, ndjson, csv, tsv (got "yaml")',
    ],
    [
      'an output that is not text',
      { output: 1 },
      'profiles.prod.output is not one of table, json, ndjson, csv, tsv (got 1)',
    ],
    [
      'a base URL that is no URL',
      { baseUrl: 'api.example.com' },
      "profiles.prod.baseUrl is not a base URL cdata can use: base URL 'api.example.com' is not a URL: use https://host or https://host/api/v1",
    ],
    [
      'a base URL of another scheme',
      { baseUrl: 'ftp://api.example.com' },
      "profiles.prod.baseUrl is not a base URL cdata can use: base URL 'ftp://api.example.com' must start with https://",
    ],
    [
      'plain http to a remote host',
      { baseUrl: 'http://api.example.com' },
      'profiles.prod.baseUrl is not a base URL cdata can use: refusing plain http:// to api.example.com: the API key would cross the network in clear; use https://',
    ],
    [
      'a base URL with a password',
      { baseUrl: 'https://u:p@api.example.com' },
      'profiles.prod.baseUrl is not a base URL cdata can use: the base URL must not contain a user name or password: the key is sent in a header',
    ],
  ])(
    '%s: where used, exit 2 naming the file and the field, before any request; the file untouched',
    async (_what, profile, problem) => {
      const config = configWith(profile);
      // The stored base URL is the one used only where no flag or variable gives one.
      const env = 'baseUrl' in profile ? { ...config.env, CDATA_BASE_URL: '' } : config.env;
      const before = sandbox.current.requests.length;
      const result = await cdata(['agents'], { env });
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: `error: the config file ${config.file} is not valid: ${problem}\nhint: Fix or move the file; cdata never rewrites a file it cannot read.\n`,
      });
      expect(readFileSync(config.file, 'utf8')).toBe(config.text);
      expect(sandbox.current.requests.length).toBe(before);
    },
  );

  it('stops nothing that does not use it: --sandbox, another profile, and the commands that fix it', async () => {
    const config = configWith({});
    const file = JSON.parse(readFileSync(config.file, 'utf8')) as { profiles: Record<string, unknown> };
    file.profiles.staging = { baseUrl: 'http://10.0.0.5:8080', timeout: 1e308, output: 'yaml' };
    writeFileSync(config.file, JSON.stringify(file));
    const env = { CDATA_CONFIG_DIR: config.env.CDATA_CONFIG_DIR };
    expect((await cdata(['--sandbox', 'me', '-o', 'json'], { env })).code).toBe(0);
    expect((await cdata(['agents'], { env: config.env })).code).toBe(0);
    // The bad profile itself: its fixes go through, one value at a time.
    expect(
      (await cdata(['config', 'set', 'base-url', 'https://staging.example.com', '-p', 'staging'], { env })).code,
    ).toBe(0);
    expect((await cdata(['config', 'unset', 'timeout', '-p', 'staging'], { env })).code).toBe(0);
    expect((await cdata(['config', 'set', 'output', 'csv', '-p', 'staging'], { env })).code).toBe(0);
    expect((JSON.parse(readFileSync(config.file, 'utf8')) as typeof file).profiles.staging).toEqual({
      baseUrl: 'https://staging.example.com',
      output: 'csv',
    });
    expect((await cdata(['profile', 'remove', 'staging'], { env })).code).toBe(0);
  });

  it('is refused by `config set` in the same words', async () => {
    const config = configWith({});
    for (const [value, got] of [
      ['86401', '86401'],
      ['1e308', '1e308'],
    ]) {
      const result = await cdata(['config', 'set', 'timeout', value!], { env: config.env });
      expect(result).toMatchObject({
        code: 2,
        stderr: `error: timeout must be a number of seconds above 0 up to 86400 (got '${got}')\n`,
      });
    }
    expect(readFileSync(config.file, 'utf8')).toBe(config.text);
  });
});

describe('a stored value `config set` would accept', () => {
  it('an output in capitals reads as that format, as `config set output JSON` and -o JSON take it', async () => {
    const config = configWith({ output: 'JSON' });
    const result = await cdata(['agents'], { env: config.env });
    expect(result.code).toBe(0);
    expect(Array.isArray(parseJson(result.stdout))).toBe(true);
    expect(result.stdout.startsWith('[\n  {')).toBe(true);
  });

  it('values at the limits: a day, half a second, a base URL with /api/v1', async () => {
    for (const profile of [{ timeout: 86_400 }, { timeout: 0.5 }, { baseUrl: 'https://api.example.com/api/v1/' }]) {
      const config = configWith(profile);
      const result = await cdata(['config', 'get', 'timeout'], { env: config.env });
      expect({ profile, code: result.code }).toEqual({ profile, code: 0 });
    }
  });
});
