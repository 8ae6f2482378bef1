// --out given a path that is no plain file, as the built binary meets them from a shell: every
// way of naming standard input (refused: writing into the pipe cdata reads from, or over the
// file it reads, is never what was meant), every way of naming a terminal (refused: untrusted
// text reaches a terminal only through stdout, escaped), and names at the filesystem's length
// limits (a valid name stays writable though the temp file beside it needs a longer one).
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { BIN, runBin, runProcess, shellQuote } from '../helpers/spawn.js';
import { scratch } from './scratch.js';

const sandbox = useSandbox();
const folder = scratch('cdata-outpaths');
const env = () => sandboxEnv(sandbox.current);
const cdataLine = (args: string) => `${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args}`;
const NOT_STDIN = 'standard input is no place for output';
const TERMINAL =
  'it is a terminal, and cdata shows data on a terminal only through stdout, with control characters escaped (leave out --out)';

describe('--out naming standard input, however it is named: exit 2, nothing written', () => {
  it.each(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', '/proc/thread-self/fd/0', '//dev/./stdin', '/dev/fd/../fd/0'])(
    '%s, stdin a pipe',
    async (path) => {
      const result = await runBin(['agents', '-o', 'csv', '--out', path], {
        env: env(),
        input: 'what the pipe holds\n',
      });
      expect(result).toMatchObject({ code: 2, stdout: '', stderr: `error: --out ${path}: ${NOT_STDIN}\n` });
    },
  );

  it("/proc/PID/fd/0 by cdata's own pid", async () => {
    const result = await runProcess('sh', ['-c', `exec ${cdataLine('agents --out /proc/$$/fd/0')} < /dev/null`], {
      env: env(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: --out /proc/\\d+/fd/0: ${NOT_STDIN}\\n$`));
  });

  it('the very file stdin reads (`--out F < F`), by its name or through a link: refused, the file as it was', async () => {
    const dir = folder();
    const input = join(dir, 'input.csv');
    writeFileSync(input, 'name\nkept\n');
    symlinkSync(input, join(dir, 'link.csv'));
    for (const out of [input, join(dir, 'link.csv'), join(dir, '.', 'input.csv')]) {
      const result = await runProcess(
        'sh',
        ['-c', `${cdataLine(`agents --out ${shellQuote(out)}`)} < ${shellQuote(input)}`],
        { env: env() },
      );
      expect({ out, code: result.code, stderr: result.stderr }).toEqual({
        out,
        code: 2,
        stderr: `error: --out ${out}: it is what standard input reads; ${NOT_STDIN}\n`,
      });
    }
    expect(readFileSync(input, 'utf8')).toBe('name\nkept\n');
    expect(readdirSync(dir).sort()).toEqual(['input.csv', 'link.csv']);
  });

  it("/dev/null while stdin is /dev/null too (cron's way): written, exit 0", async () => {
    const result = await runProcess('sh', ['-c', `${cdataLine('agents --out /dev/null')} < /dev/null`], { env: env() });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('--out naming a terminal, however it is named: exit 2, nothing of the data on it', () => {
  /** `line` run by sh under a pseudo-terminal; what the terminal received. */
  const inTerminal = (line: string) =>
    runProcess('script', ['-qec', `${line}; echo "exit $?"`, '/dev/null'], {
      env: { ...env(), TERM: 'xterm-256color' },
    });
  /** cdata with stdin from /dev/null, so that the terminal is not also standard input. */
  const cdataAlone = (args: string) => `${cdataLine(args)} < /dev/null`;

  it.each([
    ['/dev/tty', '/dev/tty'],
    ['the terminal by its own name', '"$(tty 0<&2)"'], // tty names stdin's terminal: here, the one on stderr
    ['/dev/stdout, stdout being the terminal', '/dev/stdout'],
    ['/dev/stderr, stderr being the terminal', '/dev/stderr'],
    ['a descriptor open on it', '/dev/fd/3 3>/dev/tty'],
  ])('%s', async (_what, out) => {
    const result = await inTerminal(cdataAlone(`agents -o csv --out ${out}`));
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).toMatch(new RegExp(`^error: cannot write /dev/\\S+: ${TERMINAL.replace(/[()]/g, '\\$&')}$`));
    expect(lines[1]).toBe('exit 2');
    expect(result.stdout).not.toContain('name,description'); // the CSV header: no data reached the terminal
  });

  it('a link to the terminal, and (the same check) stdout still shows the data there', async () => {
    const link = join(folder(), 'screen');
    const result = await inTerminal(
      `ln -s "$(tty)" ${shellQuote(link)}; ${cdataAlone(`agents --out ${shellQuote(link)}`)}; ${cdataAlone('agents -o csv')}`,
    );
    expect(result.stdout).toContain(`error: cannot write ${link}: ${TERMINAL}\r\n`);
    expect(result.stdout).toContain('name,description');
  });
});

describe('names at the length limits', () => {
  const fetched = async () => (await run(['agents', '-o', 'csv'], { env: env() })).stdout;

  it.each([
    ['255 ASCII bytes', `${'a'.repeat(251)}.csv`],
    ['255 bytes of two-byte characters', `${'é'.repeat(125)}.csvx`],
    ['255 bytes, where the temp name must cut between characters', `${'é'.repeat(119)}x€€€€.csv`],
  ])('--out FILE whose name is %s: written, no temp file left', async (_what, name) => {
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    const dir = folder();
    const result = await run(['agents', '-o', 'csv', '--out', join(dir, name)], { env: env() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(dir)).toEqual([name]);
    expect(readFileSync(join(dir, name), 'utf8')).toBe(await fetched());
  });

  it('--out FILE whose path is 4095 bytes, the most Linux takes: written, no temp file left', async () => {
    const dir = deepFolder(4095 - 1 - 40);
    const target = join(dir, `${'n'.repeat(36)}.csv`);
    expect(Buffer.byteLength(target)).toBe(4095);
    const result = await run(['agents', '-o', 'csv', '--out', target], { env: env() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(dir)).toEqual([`${'n'.repeat(36)}.csv`]);
  });

  it('--out FILE with a 256-byte name: exit 2 naming the cause, nothing written', async () => {
    const dir = folder();
    const target = join(dir, `${'a'.repeat(252)}.csv`);
    const result = await run(['agents', '--out', target], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot write \/\S+: ENAMETOOLONG: name too long/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--out FILE in a folder that does not exist: exit 2 naming the folder, not the temp file; nothing made', async () => {
    const dir = folder();
    const target = join(dir, 'gone', 'agents.csv');
    const result = await run(['agents', '--out', target], { env: env() });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: cannot write ${target}: ENOENT: the folder ${join(dir, 'gone')} does not exist\n`,
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('export --dir with no room left for its files under the path limit: exit 2 before anything is made or asked', async () => {
    const parent = deepFolder(4000);
    const dir = join(parent, 'x'.repeat(60));
    const before = sandbox.current.requests.length;
    const result = await run(['export', '--dir', dir], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: the export folder's path is too long: files in it would have paths of 41\d\d bytes, past the system's limit of 4095\nhint: Choose a folder with a shorter path\.\n$/,
    );
    expect(existsSync(dir)).toBe(false);
    expect(sandbox.current.requests.length).toBe(before);
  });

  it('export --dir just within it: exported', async () => {
    // The longest name in a generation: the obligations list's state (docs/exports.md).
    const dir = deepFolder(4095 - 34 - '.state.obligations.json'.length);
    expect((await run(['export', '--dir', dir], { env: env() })).code).toBe(0);
    expect(readFileSync(join(dir, 'agents.csv'), 'utf8')).toBe(await fetched());
  });
});

/** A folder whose path is `bytes` long, made of names of at most 200 bytes. */
function deepFolder(bytes: number): string {
  let dir = folder();
  while (Buffer.byteLength(dir) < bytes) {
    const room = bytes - Buffer.byteLength(dir) - 1;
    // Never leave a single byte over: it could not hold another `/name`.
    dir = join(dir, 'd'.repeat(room <= 200 ? room : room === 202 ? 150 : 200));
  }
  mkdirSync(dir, { recursive: true });
  expect(Buffer.byteLength(dir)).toBe(bytes);
  return dir;
}
