// The cron recipe (docs/exports.md), run as written: the login line, then the crontab line through
// sh with the crontab's PATH (as cron runs it), with only the install folder, the export folder and
// the base URL substituted.
import { mkdtempSync, readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/sandbox/faults.js';
import { demoKey } from '../../src/sandbox/keys.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { installCdata, runProcess } from '../helpers/spawn.js';

const recipe = readFileSync(new URL('../../docs/exports.md', import.meta.url), 'utf8');
const pathLine = recipe.split('\n').find((line) => line.startsWith('PATH='))!;
const cronLine = recipe.split('\n').find((line) => line.startsWith('0 6 * * * '))!;
const loginLine = recipe
  .split('\n')
  .find((line) => line.startsWith('echo "$CDATA_KEY" | cdata auth login --profile prod'))!;

function setUp(baseUrl: string) {
  const home = mkdtempSync(join(tmpdir(), 'cdata-cron-'));
  const bin = join(home, 'bin');
  mkdirSync(bin);
  installCdata(bin);
  const exports = join(home, 'exports');
  // The crontab's PATH, with the folders of cdata and node added, as the recipe says to.
  const path = `${bin}:${dirname(process.execPath)}:${pathLine.slice('PATH='.length)}`;
  const env = { PATH: path, HOME: home, CDATA_CONFIG_DIR: join(home, 'config'), CDATA_KEY: demoKey('all') };
  const login = loginLine.replace('https://api.example.com', baseUrl);
  const job = cronLine.slice('0 6 * * * '.length).replace('/srv/exports', exports);
  return { env, exports, login, job };
}

describe('the cron recipe', () => {
  it('is in docs/exports.md as this test expects', () => {
    expect(pathLine).toBe('PATH=/usr/local/bin:/usr/bin:/bin');
    expect(cronLine).toBe(
      '0 6 * * * CDATA_PROFILE=prod cdata export --dir /srv/exports -q || logger -t cdata "export failed with exit $?"',
    );
    expect(loginLine).toBe('echo "$CDATA_KEY" | cdata auth login --profile prod --base-url https://api.example.com');
  });

  it('works as written: silent, every file and the manifest written', async () => {
    const sandbox = await startSandbox();
    try {
      const { env, exports, login, job } = setUp(sandbox.url);
      const logged = await runProcess('sh', ['-c', login], { env });
      expect(logged.code).toBe(0);
      const result = await runProcess('sh', ['-c', job], { env });
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(readdirSync(exports)).toContain('manifest.json');
      expect(JSON.parse(readFileSync(join(exports, 'manifest.json'), 'utf8'))).toMatchObject({
        ok: true,
        profile: 'prod',
        baseUrl: sandbox.url,
      });
    } finally {
      await sandbox.close();
    }
  });

  it('a failing list produces the error line cron mails, and the previous file stays', async () => {
    const sandbox = await startSandbox();
    const { env, exports, login, job } = setUp(sandbox.url);
    expect((await runProcess('sh', ['-c', login], { env })).code).toBe(0);
    expect((await runProcess('sh', ['-c', job], { env })).code).toBe(0);
    const before = readFileSync(join(exports, 'tenders.csv'));
    await sandbox.close();

    const failing = await startSandbox({
      port: Number(new URL(sandbox.url).port),
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? FAULTS.unavailable : undefined),
    });
    try {
      const result = await runProcess('sh', ['-c', job], { env });
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^error: tenders: The service is temporarily unavailable; retry with increasing delay\. \(gave up after 3 attempts\) \(HTTP 503, correlation id [0-9a-f-]{36}\)\nhint: The service failed; if this persists, report the correlation id\.\n$/,
      );
      expect(readFileSync(join(exports, 'tenders.csv')).equals(before)).toBe(true);
    } finally {
      await failing.close();
    }
  });
});
