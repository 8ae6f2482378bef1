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
    expect(await runBin(['--version'], { env: env() })).toMatchObject({
      code: 0,
      stdout: `${pkg.version}\n`,
      stderr: '',
    });
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

  it('shows the coloured table, fitted to the terminal: whole columns left out, the tier whole', async () => {
    const columns = 90;
    const result = await runBinInTerminal(['--sandbox', 'tenders', '--limit', '20'], { columns, env: env() });
    expect(result.code).toBe(0);
    // At 90 columns the tier keeps its colour and every letter; score, buyer, runway and decision make way.
    expect(result.stdout).toContain('\u001b[32m\u001b[1mRECOMMENDED\u001b[22m\u001b[39m');
    const lines = stripVTControlCharacters(result.stdout)
      .split('\r\n')
      .filter((line) => line !== '');
    expect(lines[0]).toMatch(/^ocid {16}tier {9}title {2,}closesOn$/);
    expect(lines.slice(1, 21).every((line) => /^ocds-\S+ {2}RECOMMENDED {2}\S/.test(line))).toBe(true);
    expect(lines.slice(21)).toEqual([
      'Not shown at 90 columns: score, buyer, runwayDays, decision (--fields brings them back).',
      'These are the 20 best-matched tenders; more may exist (--limit takes up to 200).',
    ]);
    expect(Math.max(...lines.slice(0, 21).map((line) => [...line].length))).toBeLessThanOrEqual(columns);
    expect(lines.some((line) => line.includes('…'))).toBe(true);
    expect(unsafeChars(result.stdout.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n'))).toEqual([]);
  });

  it('bare cdata: a short overview on stdout, exit 0; help no wider than 80 columns off a terminal', async () => {
    const bare = await runBin([], { env: env() });
    expect(bare).toMatchObject({ code: 0, stderr: '' });
    const lines = bare.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(lines[0]).toMatch(/^cdata reads your company data from the API/);
    for (const wanted of ['  cdata --sandbox tenders', '  cdata help ', '  cdata tenders '])
      expect(
        lines.some((line) => line.startsWith(wanted)),
        wanted,
      ).toBe(true);
    // At 24 lines down to a terminal 60 wide: each command's line fits, unwrapped.
    const narrow = await runBin([], { env: { ...env(), COLUMNS: '60' } });
    expect(narrow.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(24);
    expect(narrow.stdout).toContain('  cdata changes --dir DIR  the changes the last export found\n');
    for (const line of narrow.stdout.split('\n').filter((text) => text.startsWith('  cdata ')))
      expect(line.length, line).toBeLessThanOrEqual(60);
    for (const [argv, extra] of [
      [['help', 'tenders'], { COLUMNS: '80' }],
      [['--help'], {}],
      [['help', 'export'], {}],
      [['webhook', 'send', '--help'], { COLUMNS: '60' }],
    ] as const) {
      const help = await runBin([...argv], { env: { ...env(), ...extra } });
      expect(help.code).toBe(0);
      const most = Number(extra.COLUMNS ?? 80);
      for (const line of help.stdout.split('\n'))
        expect(line.length, `${argv.join(' ')}: ${line}`).toBeLessThanOrEqual(most);
    }
  });

  it('help at a terminal is wrapped to its width, every line of it', async () => {
    for (const columns of [80, 120]) {
      const result = await runBinInTerminal(['--help', '--no-pager'], { columns, env: env() });
      expect(result.code).toBe(0);
      const lines = stripVTControlCharacters(result.stdout).split('\r\n');
      expect(lines.length).toBeGreaterThan(40);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
    }
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
