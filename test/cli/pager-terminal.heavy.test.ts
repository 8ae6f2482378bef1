// The pager as a user meets it: the built binary in a pseudo-terminal 50 rows high, with a pager
// of our own (a script that records how it was run and what it was given); in a pipe, no pager;
// a pager that quits early (`head -1`) is exit 0 with no noise; Ctrl-C stops the pager with cdata.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/run.js';
import { BIN, runBin, runBinInTerminal, runProcess, shellQuote } from '../helpers/spawn.js';
import { until } from '../helpers/wait.js';

const folder = mkdtempSync(join(tmpdir(), 'cdata-pager-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = (name: string) => join(folder, name);

/** An executable script in the test's folder. */
function script(name: string, body: string): string {
  writeFileSync(file(name), `#!/bin/sh\n${body}\n`);
  chmodSync(file(name), 0o755);
  return file(name);
}

/** Records its arguments and LESS, keeps what it was given, and says so on the terminal. */
const recorder = (name: string) =>
  script(
    name,
    `printf '%s|%s\\n' "$*" "$LESS" > ${shellQuote(file(`${name}.args`))}\ncat > ${shellQuote(file(`${name}.text`))}\necho PAGED`,
  );

const env = (extra: Record<string, string | undefined> = {}) => ({ CDATA_CONFIG_DIR: tempConfigDir(), ...extra });
const screen = (output: string) => stripVTControlCharacters(output).replace(/\r\n/g, '\n');

describe('the pager at a terminal', () => {
  it('CDATA_PAGER gets data longer than the screen on its stdin, and LESS=FRX; exit 0', async () => {
    const pager = recorder('mine');
    const result = await runBinInTerminal(['--sandbox', 'obligations', '--color', 'never'], {
      columns: 100,
      env: env({ CDATA_PAGER: `${pager} --flag` }),
    });
    expect(result.code).toBe(0);
    expect(screen(result.stdout)).toBe(
      'PAGED\nThese are the 100 newest obligations; more may exist (--limit takes up to 200).\n',
    );
    expect(readFileSync(file('mine.args'), 'utf8')).toBe('--flag|FRX\n');
    const text = readFileSync(file('mine.text'), 'utf8').split('\n');
    expect(text).toHaveLength(102);
    expect(text[0]).toMatch(/^id {8}title {2,}kind {2,}status/);
  });

  it('less -FRX by default, when less is on the PATH', async () => {
    const bin = mkdtempSync(join(folder, 'bin-'));
    symlinkSync(recorder('less'), join(bin, 'less'));
    const result = await runBinInTerminal(['--sandbox', 'obligations'], {
      columns: 100,
      env: env({ PATH: `${bin}:${process.env.PATH}` }),
    });
    expect(result.code).toBe(0);
    expect(readFileSync(file('less.args'), 'utf8')).toBe('-FRX|FRX\n');
    expect(screen(result.stdout).startsWith('PAGED\n')).toBe(true);
  });

  it('no pager without less, nor with --no-pager, nor for a screenful: the data straight to the terminal', async () => {
    // A PATH with what the pseudo-terminal needs (script, stty) and no less.
    const bare = mkdtempSync(join(folder, 'bare-'));
    for (const tool of ['script', 'stty']) {
      const found = (process.env.PATH ?? '')
        .split(':')
        .map((dir) => join(dir, tool))
        .find((path) => existsSync(path))!;
      symlinkSync(found, join(bare, tool));
    }
    const noLess = await runBinInTerminal(['--sandbox', 'obligations', '--color', 'never'], {
      columns: 100,
      env: env({ PATH: bare }),
    });
    expect(noLess.code).toBe(0);
    expect(screen(noLess.stdout).split('\n')).toHaveLength(103); // header, 100 rows, the note, and the last newline

    const pager = recorder('unused');
    const noPager = await runBinInTerminal(['--sandbox', 'obligations', '--no-pager'], {
      columns: 100,
      env: env({ CDATA_PAGER: pager }),
    });
    const short = await runBinInTerminal(['--sandbox', 'tenders', '--tier', 'RECOMMENDED'], {
      columns: 100,
      env: env({ CDATA_PAGER: pager }),
    });
    expect([noPager.code, short.code]).toEqual([0, 0]);
    expect(screen(noPager.stdout).split('\n')).toHaveLength(103);
    // 20 rows, the header, the note on the columns 100 cannot hold, and the last newline.
    expect(screen(short.stdout).split('\n')).toHaveLength(23);
    expect(existsSync(file('unused.args'))).toBe(false);
  });

  it('none, and no colour, on a terminal that does not say what it is (TERM unset, as under env -i)', async () => {
    const pager = recorder('nameless');
    const result = await runBinInTerminal(['--sandbox', 'obligations'], {
      columns: 100,
      env: env({ CDATA_PAGER: pager, TERM: undefined }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(screen(result.stdout).split('\n')).toHaveLength(103); // header, 100 rows, the note, and the last newline
    expect(existsSync(file('nameless.args'))).toBe(false);
  });

  it('never in a pipe', async () => {
    const pager = recorder('piped');
    const result = await runBin(['--sandbox', 'obligations', '-o', 'table'], { env: env({ CDATA_PAGER: pager }) });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')).toHaveLength(102);
    expect(existsSync(file('piped.args'))).toBe(false);
  });

  it('help longer than the screen goes through the pager too; --no-pager, or a pipe, prints it', async () => {
    const pager = recorder('helping');
    const paged = await runBinInTerminal(['help', 'tenders'], { columns: 80, env: env({ CDATA_PAGER: pager }) });
    expect(paged.code).toBe(0);
    expect(screen(paged.stdout)).toBe('PAGED\n');
    // What the pager got is the help a pipe gets at 80 columns, every line within them.
    const piped = await runBin(['help', 'tenders'], { env: env({ COLUMNS: '80' }) });
    expect(readFileSync(file('helping.text'), 'utf8')).toBe(piped.stdout);
    expect(piped.stdout.split('\n').length).toBeGreaterThan(50);
    const straight = await runBinInTerminal(['help', 'tenders', '--no-pager'], {
      columns: 80,
      env: env({ CDATA_PAGER: pager }),
    });
    expect(screen(straight.stdout)).toBe(piped.stdout);
  });

  it('a pager that quits early (head -1): exit 0, no EPIPE, nothing on stderr', async () => {
    const result = await runBinInTerminal(['--sandbox', 'obligations', '--limit', '200', '-o', 'json'], {
      columns: 100,
      env: env({ CDATA_PAGER: 'head -1' }),
    });
    expect(result.code).toBe(0);
    expect(screen(result.stdout)).toBe(
      '[\nThese are the 200 newest obligations, the most the API returns: older ones cannot be listed (the API has no paging).\n',
    );
  });

  it('a pager that cannot be run: sh says why, and the data is shown without it', async () => {
    const result = await runBinInTerminal(['--sandbox', 'obligations', '--color', 'never'], {
      columns: 100,
      env: env({ CDATA_PAGER: join(folder, 'no-such-pager') }),
    });
    expect(result.code).toBe(0);
    const lines = screen(result.stdout).split('\n');
    expect(lines[0]).toMatch(/no-such-pager: not found$/);
    expect(lines[1]).toMatch(/^id {8}title {2,}kind/);
    expect(lines).toHaveLength(104);
  });

  it.each([
    ['a quote never closed', '"less'],
    ['a pipe to nothing', 'less -R |'],
    ['a pager that fails', 'false'],
    ["a pager killed by a signal not cdata's (a crash)", 'kill -SEGV $$'],
  ])('a pager command that fails (%s): the data is shown without it, exit 0', async (_what, pager) => {
    const result = await runBinInTerminal(['--sandbox', 'obligations', '--color', 'never'], {
      columns: 100,
      env: env({ CDATA_PAGER: pager }),
    });
    expect(result.code).toBe(0);
    const lines = screen(result.stdout).split('\n');
    const header = lines.findIndex((line) => /^id {8}title {2,}kind/.test(line));
    expect(header).toBeLessThanOrEqual(1); // after sh's own line, if it wrote one
    expect(lines.slice(header)).toHaveLength(103);
  });

  it('Ctrl-C while the pager runs: cdata ends with 130 and takes the pager with it', async () => {
    const pids = file('pager.pid');
    const pager = script('sleeper', `echo $$ > ${shellQuote(pids)}\nexec sleep 60`);
    const line = `stty cols 100 rows 50; ${shellQuote(process.execPath)} ${shellQuote(BIN)} --sandbox obligations`;
    const running = runProcess('script', ['-qec', line, '/dev/null'], {
      env: { TERM: 'xterm-256color', ...env({ CDATA_PAGER: pager }) },
      timeoutMs: 30_000,
    });
    await until(() => existsSync(pids) && readFileSync(pids, 'utf8').endsWith('\n'), 'the pager to start');
    const pagerPid = Number(readFileSync(pids, 'utf8'));
    const cdataPid = Number(/^\d+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${pagerPid}/stat`, 'utf8'))![1]);
    process.kill(cdataPid, 'SIGINT');
    const result = await running;
    expect(result.code).toBe(130);
    // Gone, or dead and waiting to be reaped by whoever adopted it (a zombie: state Z).
    const state = () =>
      existsSync(`/proc/${pagerPid}`)
        ? /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pagerPid}/stat`, 'utf8'))![1]!
        : 'gone';
    await until(() => ['gone', 'Z'].includes(state()), 'the pager to end (it sleeps for a minute otherwise)', 5_000);
  });
});
