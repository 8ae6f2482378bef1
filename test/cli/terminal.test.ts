// The built bin/cdata.js as a user runs it: a child process, a pseudo-terminal, a pipe closed
// early. (`npm test` builds dist/ first.)
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { expectNoSecrets, unsafeChars } from '../helpers/checked.js';
import { tempConfigDir } from '../helpers/run.js';
import { BIN, runBin, runBinInTerminal, runProcess, shellQuote } from '../helpers/spawn.js';

const env = () => ({ CDATA_CONFIG_DIR: tempConfigDir() });

describe('the binary', () => {
  it('--version', async () => {
    expect(await runBin(['--version'], { env: env() })).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--sandbox tenders -o json prints JSON', async () => {
    const result = await runBin(['--sandbox', 'tenders', '-o', 'json'], { env: env() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const tenders = JSON.parse(result.stdout) as { ocid: string }[];
    expect(tenders.length).toBeGreaterThan(10);
    expect(tenders.every((tender) => tender.ocid.startsWith('ocds-'))).toBe(true);
    expectNoSecrets(result.stdout + result.stderr);
  });

  it('exits with the error code: 2 for no base URL, 4 for a missing scope', async () => {
    const noBase = await runBin(['tenders'], { env: { ...env(), CDATA_API_KEY: 'svc_x' } });
    expect(noBase).toMatchObject({ code: 2, stdout: '' });
    expect(noBase.stderr).toMatch(/^error: no base URL configured/);
    const badTier = await runBin(['--sandbox', 'tenders', '--tier', 'best', '--json'], { env: env() });
    expect(badTier).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(badTier.stderr.split('\n')[1]!).error.exitCode).toBe(2);
  });

  it('shows the coloured table, fitted to the terminal', async () => {
    const columns = 90;
    const result = await runBinInTerminal(['--sandbox', 'tenders', '--limit', '20'], { columns, env: env() });
    expect(result.code).toBe(0);
    // At 90 columns the tier gives 3 columns to the buyer (`City of Mbo…`), and keeps its colour.
    expect(result.stdout).toContain('\u001b[32m\u001b[1mRECOMME…');
    const lines = stripVTControlCharacters(result.stdout).split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^tier {2,}score {2,}title {2,}buyer {2,}closes {2,}days {2,}decision$/);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.slice(1, 21).every((line) => line.startsWith('RECOMME… '))).toBe(true);
    expect(lines[0]!.indexOf('closes') - lines[0]!.indexOf('buyer')).toBe(12 + 2);
    expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(columns);
    expect(lines.some((line) => line.includes('…'))).toBe(true);
    expect(unsafeChars(result.stdout.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n'))).toEqual([]);
  });

  it.each([
    ['head -1', '[\n'],
    ['true', ''],
  ])('a pipe closed early (| %s) ends quietly with exit 0', async (reader, stdout) => {
    const command = `${shellQuote(process.execPath)} ${shellQuote(BIN)} --sandbox obligations --limit 200 -o json`;
    const result = await runProcess('sh', ['-c', `(${command}; echo "cdata exit $?" >&2) | ${reader}`], { env: env() });
    expect(result).toMatchObject({ code: 0, stdout, stderr: 'cdata exit 0\n' });
  });
});
