// `cdata __complete profiles` runs on every TAB: it must answer from the config file alone,
// without loading commander, the HTTP client, conf or the program (each is made to throw here).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('commander', () => {
  throw new Error('the TAB path loaded commander');
});
vi.mock('undici', () => {
  throw new Error('the TAB path loaded undici');
});
vi.mock('conf', () => {
  throw new Error('the TAB path loaded conf');
});
vi.mock('../../src/program.js', () => {
  throw new Error('the TAB path loaded the program');
});

const { run } = await import('../helpers/run.js');

describe('cdata __complete profiles', () => {
  it('prints the profile names, sorted, one per line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdata-tab-'));
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { staging: {}, prod: { key: 'svc_secret_never_printed' }, 'client-a': {} } }),
    );
    expect(await run(['__complete', 'profiles'], { env: { CDATA_CONFIG_DIR: dir } })).toMatchObject({
      code: 0,
      stdout: 'client-a\nprod\nstaging\n',
      stderr: '',
    });
  });

  it('with no config file, or a broken one, offers nothing and says nothing', async () => {
    expect(
      await run(['__complete', 'profiles'], { env: { CDATA_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'cdata-tab-')) } }),
    ).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const broken = mkdtempSync(join(tmpdir(), 'cdata-tab-'));
    writeFileSync(join(broken, 'config.json'), '{ not json');
    expect(await run(['__complete', 'profiles'], { env: { CDATA_CONFIG_DIR: broken } })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('an unknown kind is exit 2, still without loading anything', async () => {
    expect((await run(['__complete', 'nonsense'])).code).toBe(2);
  });
});
