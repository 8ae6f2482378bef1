// The pager: data for a terminal longer than its screen goes through CDATA_PAGER, else the
// profile's `pager`, else PAGER, else `less -FRX` when installed; never when shorter, never in a
// pipe or to --out; off with --no-pager, an empty setting or variable, or `cat`. In-process here
// (the test Io records the pager it would run); the real process, through a pseudo-terminal, in
// pager-terminal.heavy.test.ts.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { testIo, type TestIoOptions } from '../helpers/io.js';
import { runWith, tempConfigDir } from '../helpers/run.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
/** A folder holding an executable `less` that does nothing: "installed", for the default's sake. */
const withLess = mkdtempSync(join(tmpdir(), 'cdata-less-'));
writeFileSync(join(withLess, 'less'), '#!/bin/sh\n');
chmodSync(join(withLess, 'less'), 0o755);
afterAll(() => rmSync(withLess, { recursive: true, force: true }));

/** Runs cdata at a terminal 100 wide and 30 high (unless told otherwise); what it printed and the pagers it ran. */
async function atTerminal(argv: string[], env: Record<string, string | undefined> = {}, options: TestIoOptions = {}) {
  const io = testIo({
    env: { ...sandboxEnv(sandbox.current), ...env },
    stdoutTTY: true,
    columns: 100,
    rows: 30,
    now: () => NOW,
    ...options,
  });
  const result = await runWith(io, argv);
  return { ...result, pagers: io.pagers };
}

describe('which pager', () => {
  it('less -FRX by default, when less is installed; none when it is not', async () => {
    expect((await atTerminal(['obligations'], { PATH: withLess })).pagers).toEqual(['less -FRX']);
    const none = await atTerminal(['obligations'], { PATH: '/nonexistent' });
    expect(none.pagers).toEqual([]);
    expect(none.stdout.split('\n')).toHaveLength(102); // header, 100 rows, and the final newline
  });

  it('none on a terminal that cannot move its cursor (TERM=dumb), as git: the data printed as it is', async () => {
    const dumb = await atTerminal(['obligations'], { PATH: withLess, TERM: 'dumb', CDATA_PAGER: 'less -FRX' });
    expect(dumb.pagers).toEqual([]);
    expect(dumb.stdout.split('\n')).toHaveLength(102);
  });

  it('none on a terminal that does not say what it is (TERM unset or empty), as chalk and git read it', async () => {
    for (const TERM of [undefined, '']) {
      const nameless = await atTerminal(['obligations'], { PATH: withLess, TERM, CDATA_PAGER: 'less -FRX' });
      expect(nameless.pagers).toEqual([]);
      expect(nameless.stdout.split('\n')).toHaveLength(102);
    }
  });

  it("nor for help longer than the screen, on such a terminal or a dumb one: help follows data's rule", async () => {
    const paged = await atTerminal(['help', 'tenders'], { PATH: withLess }, { rows: 10 });
    expect(paged.pagers).toEqual(['less -FRX']);
    for (const TERM of ['dumb', undefined]) {
      const help = await atTerminal(['help', 'tenders'], { PATH: withLess, TERM }, { rows: 10 });
      expect(help).toMatchObject({ code: 0, pagers: [], stdout: paged.stdout });
    }
  });

  it('CDATA_PAGER, then the profile`s pager, then PAGER', async () => {
    const configDir = tempConfigDir();
    try {
      const run = (env: Record<string, string>) =>
        atTerminal(['obligations'], { PATH: withLess, CDATA_CONFIG_DIR: configDir, ...env });
      expect((await run({ PAGER: 'more' })).pagers).toEqual(['more']);
      expect((await run({ PAGER: 'more', CDATA_PAGER: 'most -s' })).pagers).toEqual(['most -s']);
      expect((await atTerminal(['config', 'set', 'pager', 'pg'], { CDATA_CONFIG_DIR: configDir })).code).toBe(0);
      expect((await run({ PAGER: 'more' })).pagers).toEqual(['pg']);
      expect((await run({ PAGER: 'more', CDATA_PAGER: 'most -s' })).pagers).toEqual(['most -s']);
      expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.pager).toBe('pg');
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it("the profile's pager in a config file others can write: PAGER instead, said once beside data at a terminal", async () => {
    const configDir = tempConfigDir();
    try {
      expect((await atTerminal(['config', 'set', 'pager', 'pg'], { CDATA_CONFIG_DIR: configDir })).code).toBe(0);
      chmodSync(join(configDir, 'config.json'), 0o666);
      const refused = await atTerminal(['obligations'], { PATH: withLess, CDATA_CONFIG_DIR: configDir, PAGER: 'more' });
      expect(refused.pagers).toEqual(['more']);
      expect(refused.stderr.split('\n')[1]).toBe(
        "warning: the profile's pager is not run from that config file: PAGER, or less, is used instead",
      );
      expect(refused.stderr.split("the profile's pager")).toHaveLength(2);
      // Where no pager could run (a pipe, a command that prints no data), only the file's warning.
      const piped = await atTerminal(['obligations'], { CDATA_CONFIG_DIR: configDir }, { stdoutTTY: false });
      expect(piped.stderr).not.toContain("the profile's pager");
      const get = await atTerminal(['config', 'get', 'pager'], { CDATA_CONFIG_DIR: configDir });
      expect(get.stderr).not.toContain("the profile's pager");
      // Nor at a terminal where no pager runs at all (TERM dumb, or unset).
      for (const TERM of ['dumb', undefined]) {
        const dumb = await atTerminal(['obligations'], { PATH: withLess, CDATA_CONFIG_DIR: configDir, TERM });
        expect(dumb.pagers).toEqual([]);
        expect(dumb.stderr).not.toContain("the profile's pager");
      }
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['--no-pager', ['--no-pager'], { PAGER: 'more' }],
    ['--no-pager over CDATA_PAGER', ['--no-pager'], { CDATA_PAGER: 'most' }],
    ['an empty CDATA_PAGER over PAGER', [], { CDATA_PAGER: '', PAGER: 'more' }],
    ['an empty PAGER, over the default', [], { PAGER: '' }],
    ['cat', [], { CDATA_PAGER: 'cat' }],
    ['whitespace', [], { CDATA_PAGER: '  ' }],
  ] as [string, string[], Record<string, string>][])(
    'none with %s: the text goes straight to stdout',
    async (_what, flags, env) => {
      const result = await atTerminal(['obligations', ...flags], { PATH: withLess, ...env });
      expect(result.pagers).toEqual([]);
      expect(result.stdout.split('\n')).toHaveLength(102);
    },
  );

  it("none with `config set pager ''`, though PAGER is set", async () => {
    const configDir = tempConfigDir();
    try {
      expect((await atTerminal(['config', 'set', 'pager', ''], { CDATA_CONFIG_DIR: configDir })).code).toBe(0);
      expect((await atTerminal(['config', 'get', 'pager'], { CDATA_CONFIG_DIR: configDir })).stdout).toBe('\n');
      expect(
        (await atTerminal(['obligations'], { PATH: withLess, PAGER: 'more', CDATA_CONFIG_DIR: configDir })).pagers,
      ).toEqual([]);
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});

describe('when', () => {
  it('only for text longer than the screen (less one row for the prompt), in any format', async () => {
    expect((await atTerminal(['tenders', '--tier', 'RECOMMENDED'], { PATH: withLess }, { rows: 22 })).pagers).toEqual(
      [],
    ); // 21 lines
    expect((await atTerminal(['tenders', '--tier', 'RECOMMENDED'], { PATH: withLess }, { rows: 21 })).pagers).toEqual([
      'less -FRX',
    ]);
    expect((await atTerminal(['me', '--json'], { PATH: withLess })).pagers).toEqual([]);
    expect((await atTerminal(['tenders', '--limit', '5', '--json'], { PATH: withLess })).pagers).toEqual(['less -FRX']);
    // A line wider than the terminal takes more than one row: 21 lines, some of them twice as wide.
    expect(
      (
        await atTerminal(
          ['tenders', '--tier', 'RECOMMENDED', '-o', 'tsv'],
          { PATH: withLess },
          { rows: 25, columns: 60 },
        )
      ).pagers,
    ).toEqual(['less -FRX']);
  });

  it('a line of wide characters (CJK) takes the rows its columns need, not its characters', async () => {
    // Four strings of 25 CJK characters: 30 characters a line but 55 columns, two rows each at 40.
    const query = `[${Array.from({ length: 4 }, () => `'${'漢'.repeat(25)}'`).join(', ')}]`;
    const result = await atTerminal(
      ['me', '--query', query, '-o', 'json'],
      { PATH: withLess },
      { rows: 8, columns: 40 },
    );
    expect(result).toMatchObject({ code: 0, pagers: ['less -FRX'] });
    // In characters the same text would fit: 6 lines of at most 30 in 60 columns.
    const wide = await atTerminal(['me', '--query', query, '-o', 'json'], { PATH: withLess }, { rows: 8, columns: 60 });
    expect(wide.pagers).toEqual([]);
  });

  it('a record longer than the screen too', async () => {
    const result = await atTerminal(['tenders', 'ocds-9t57fa-140905'], { PATH: withLess }, { rows: 10 });
    expect(result).toMatchObject({ code: 0, pagers: ['less -FRX'] });
  });

  it('never when the height is unknown, unless LINES says it', async () => {
    expect((await atTerminal(['obligations'], { PATH: withLess }, { rows: undefined })).pagers).toEqual([]);
    expect((await atTerminal(['obligations'], { PATH: withLess, LINES: '40' }, { rows: undefined })).pagers).toEqual([
      'less -FRX',
    ]);
  });

  it('never in a pipe, nor to --out', async () => {
    const pipe = await atTerminal(
      ['obligations', '-o', 'table'],
      { PATH: withLess, CDATA_PAGER: 'most' },
      { stdoutTTY: false },
    );
    expect(pipe.pagers).toEqual([]);
    expect(pipe.stdout.split('\n')).toHaveLength(102);
    const folder = mkdtempSync(join(tmpdir(), 'cdata-pager-out-'));
    try {
      const out = await atTerminal(['obligations', '--out', join(folder, 'o.csv')], {
        PATH: withLess,
        CDATA_PAGER: 'most',
      });
      expect(out).toMatchObject({ code: 0, stdout: '', pagers: [] });
      expect(readFileSync(join(folder, 'o.csv'), 'utf8').split('\r\n')).toHaveLength(102);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
