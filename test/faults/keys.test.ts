// Keys with characters an HTTP header cannot carry, or too long to send, from CDATA_API_KEY or
// a profile: exit 3 at once, no request, the key in no output. (Inside undici such a key failed
// as an invalid header, was retried as a network error and ended as exit 6; a Latin-1 letter
// went out as a byte no key holds and cost a refused request, one of the 25 an address may fail.)
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { scratch } from './scratch.js';

const sandbox = useSandbox();
const folder = scratch('cdata-keys');
const NOT_ASCII = 'holds a character that cannot be sent in an HTTP header (anything but printable ASCII)';
const WHITESPACE = 'contains whitespace or a control character';
const HINT =
  'hint: Set it again exactly as shown when it was created: svc_ followed by letters and digits, no spaces or line breaks.';

const KEYS: [string, string, string][] = [
  ['a Latin-1 letter', 'svc_abcdéfghijklmnopqrstuvwx', NOT_ASCII],
  ['a letter beyond Latin-1', 'svc_abc€defghijklmnopqrstuvw', NOT_ASCII],
  ['an emoji', 'svc_🔑abcdefghijklmnopqrstuvw', NOT_ASCII],
  ['a zero-width space', 'svc_abc\u200bdefghijklmnopqrstu', NOT_ASCII],
  ['a right-to-left override', 'svc_abc\u202edefghijklmnopqrstu', NOT_ASCII],
  ['a no-break space', 'svc_abc\u00a0defghijklmnopqrstu', WHITESPACE],
  ['a DEL', 'svc_abc\u007fdefghijklmnopqrstu', WHITESPACE],
  [
    '5000 characters',
    `svc_${'k'.repeat(4996)}`,
    'is 5000 characters long, too long to be sent (an API key is far shorter)',
  ],
];

describe('a key that cannot be sent', () => {
  it.each(KEYS)('with %s, from CDATA_API_KEY: exit 3 at once, no request, the key nowhere', async (_what, key, why) => {
    const before = sandbox.current.requests.length;
    for (const argv of [['agents'], ['auth', 'status'], ['export', 'agents', '--dir', folder()]]) {
      const result = await cdata([...argv], { env: { ...sandboxEnv(sandbox.current), CDATA_API_KEY: key } });
      expect({
        argv,
        code: result.code,
        lines: result.stderr.split('\n').filter((line) => line.startsWith('error') || line.startsWith('hint')),
      }).toEqual({
        argv,
        code: 3,
        lines: [`error: the API key in CDATA_API_KEY ${why}`, HINT],
      });
    }
    expect(sandbox.current.requests.length).toBe(before);
  });

  it.each(KEYS.slice(0, 3))(
    'with %s, stored in a profile: exit 3 naming the profile, no request',
    async (_what, key, why) => {
      const dir = folder();
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ profiles: { prod: { key, baseUrl: sandbox.current.url } } }),
        { mode: 0o600 },
      );
      const before = sandbox.current.requests.length;
      const result = await cdata(['agents', '-p', 'prod'], { env: { CDATA_CONFIG_DIR: dir } });
      expect(result).toMatchObject({
        code: 3,
        stdout: '',
        stderr: `error: the API key of profile 'prod' ${why}\n${HINT}\n`,
      });
      expect(sandbox.current.requests.length).toBe(before);
    },
  );

  it('an export with one writes nothing', async () => {
    const dir = folder();
    const result = await cdata(['export', '--dir', dir], {
      env: { ...sandboxEnv(sandbox.current), CDATA_API_KEY: KEYS[1]![1] },
    });
    expect(result.code).toBe(3);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a key of unusual but printable ASCII', () => {
  it('is sent as it is; the API refuses it (401): exit 3 after one request', async () => {
    const key = `svc_a"b,c;d\\e'f\`g{h}i|j~k<l>m`;
    const before = sandbox.current.requests.length;
    const result = await cdata(['agents'], { env: { ...sandboxEnv(sandbox.current), CDATA_API_KEY: key } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: Unknown API key\./);
    expect(sandbox.current.requests.length).toBe(before + 1);
  });
});
