// --fields, --no-header, --bom, the default format, and --out.
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fieldNames, findEndpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { unescapeTsv } from '../../src/core/sanitize.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import { faultAlways, fetchDirect, NOW, useSandboxes } from '../helpers/api.js';
import { csvCell, parseStrictCsv, rowsOf, tableCell, tableLinePattern, tsvCell } from '../helpers/cells.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { BIN, runBin, runBinAsUser, runProcess, shellQuote } from '../helpers/spawn.js';
import { holdsOpen, until } from '../helpers/wait.js';

const sandbox = useSandbox({ now: () => NOW });
const env = () => sandboxEnv(sandbox.current);
const tenders = findEndpoint('tenders')!;
const FIELDS = ['score', 'ocid', 'reasons', 'decision'];

async function tenderRows(): Promise<JsonObject[]> {
  return rowsOf(await fetchDirect(sandbox.current, tenders, { limit: '5' }));
}

describe('--fields', () => {
  const go = (format: string, ...more: string[]) =>
    cdata(['tenders', '--limit', '5', '-o', format, '--fields', FIELDS.join(','), ...more], { env: env() });
  const projected = (row: JsonObject) => Object.fromEntries(FIELDS.map((field) => [field, row[field]]));

  it('projects and orders json objects', async () => {
    const result = await go('json');
    expect(result.code).toBe(0);
    const printed = parseJson(result.stdout) as JsonObject[];
    expect(printed).toEqual((await tenderRows()).map(projected));
    expect(Object.keys(printed[0]!)).toEqual(FIELDS);
  });

  it('projects and orders ndjson lines', async () => {
    const printed = (await go('ndjson')).stdout
      .trimEnd()
      .split('\n')
      .map((line) => parseJson(line) as JsonObject);
    expect(printed).toEqual((await tenderRows()).map(projected));
    expect(printed.map((row) => Object.keys(row))).toEqual(printed.map(() => FIELDS));
  });

  it('chooses csv and tsv columns', async () => {
    const rows = await tenderRows();
    expect(parseStrictCsv((await go('csv')).stdout)).toEqual([
      FIELDS,
      ...rows.map((row) => FIELDS.map((f) => csvCell(row[f]))),
    ]);
    const tsv = (await go('tsv')).stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t').map(unescapeTsv));
    expect(tsv).toEqual([FIELDS, ...rows.map((row) => FIELDS.map((f) => tsvCell(row[f])))]);
  });

  it('chooses table columns', async () => {
    const result = await cdata(['tenders', '--limit', '5', '--fields', FIELDS.join(','), '--color', 'never'], {
      env: env(),
      stdoutTTY: true,
    });
    const [header, ...body] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(tableLinePattern(FIELDS));
    expect(body).toHaveLength(5);
    (await tenderRows()).forEach((row, i) =>
      expect(body[i]).toMatch(tableLinePattern(FIELDS.map((f) => tableCell(row[f])))),
    );
  });

  it('chooses and orders the pairs of me, and its json', async () => {
    const table = await cdata(['me', '--fields', 'scopes,tenant', '--color', 'never'], { env: env(), stdoutTTY: true });
    expect(table.stdout).toBe(
      'scopes  - graph.read\n        - tenders.read\n        - workspaces.read\ntenant  Mthembu & Van Wyk Construction (Pty) Ltd\n',
    );
    const json = await cdata(['me', '--fields', 'tenant,roles', '--json'], { env: env() });
    expect(json.stdout).toBe(
      '{\n  "tenant": "Mthembu & Van Wyk Construction (Pty) Ltd",\n  "roles": [\n    "API"\n  ]\n}\n',
    );
  });

  it('refuses an unknown field with exit 2, listing the valid ones, before any request', async () => {
    const before = sandbox.current.requests.length;
    const result = await cdata(['tenders', '--fields', 'ocid,nope'], { env: env() });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: unknown field 'nope' in --fields for tenders; valid fields: ${fieldNames(tenders).join(', ')}\n`,
      sleeps: [],
    });
    expect(sandbox.current.requests.length).toBe(before);
  });
});

describe('global options given where they do nothing', () => {
  it.each([
    [['config', 'path', '--color', 'bogus'], "error: --color must be one of auto, always, never (got 'bogus')"],
    [
      ['config', 'get', 'base-url', '-o', 'xml'],
      "error: --output must be one of table, json, ndjson, csv, tsv (got 'xml')",
    ],
    [['version', '-o', 'xml'], "error: --output must be one of table, json, ndjson, csv, tsv (got 'xml')"],
    [
      ['completion', 'bash', '--timeout', 'abc'],
      "error: --timeout must be a number of seconds above 0 up to 86400 (got 'abc')",
    ],
    [['--retries', '99', 'profile', 'use', 'x'], "error: --retries must be a whole number from 0 to 10 (got '99')"],
  ])('%j: a bad value is exit 2 all the same', async (argv, message) => {
    const result = await cdata(argv);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(message);
  });

  it('a valid value a command does not use is ignored; a format a command does not print is exit 2', async () => {
    const env = { CDATA_CONFIG_DIR: join(tmpdir(), 'cdata-unused-config') };
    const path = await cdata(['config', 'path', '-o', 'csv', '--color', 'never', '--timeout', '5'], { env });
    expect(path).toEqual({ ...(await cdata(['config', 'path'], { env })), code: 0, stderr: '' });
    for (const format of ['csv', 'tsv', 'table']) {
      const status = await cdata(['auth', 'status', '-o', format]);
      expect(status).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: --output for auth status must be one of json, ndjson (got '${format}')\n`,
      });
    }
  });
});

describe('--no-header and --bom', () => {
  it('drops the header row from csv, tsv and table', async () => {
    for (const format of ['csv', 'tsv', 'table']) {
      const withHeader = await cdata(['sites', '--limit', '3', '-o', format, '--color', 'never'], { env: env() });
      const without = await cdata(['sites', '--limit', '3', '-o', format, '--color', 'never', '--no-header'], {
        env: env(),
      });
      expect(without.code).toBe(0);
      const first = withHeader.stdout.indexOf('\n') + 1;
      if (format === 'table') {
        expect(without.stdout.split('\n')).toHaveLength(4);
        expect(without.stdout).not.toMatch(/^name/);
      } else {
        expect(without.stdout).toBe(withHeader.stdout.slice(first));
      }
    }
  });

  it('--bom starts csv with U+FEFF', async () => {
    const plain = await cdata(['workspaces', '-o', 'csv'], { env: env() });
    const bom = await cdata(['workspaces', '-o', 'csv', '--bom'], { env: env() });
    expect(plain.stdout.startsWith('id,productKey,name\r\n')).toBe(true);
    expect(bom.stdout).toBe(`\uFEFF${plain.stdout}`);
  });

  it('--bom or --no-header where the format has no use for it: a warning each, the data as without it; -q: none', async () => {
    const plain = await cdata(['workspaces'], { env: env() });
    const piped = await cdata(['workspaces', '--bom'], { env: env() });
    expect(piped).toMatchObject({
      code: 0,
      stdout: plain.stdout,
      stderr: 'warning: --bom does nothing for tsv output: only csv starts with a byte order mark\n',
    });
    const json = await cdata(['workspaces', '-o', 'json', '--bom', '--no-header'], { env: env() });
    expect(json.stderr).toBe(
      'warning: --bom does nothing for json output: only csv starts with a byte order mark\n' +
        'warning: --no-header does nothing for json output: it has no header row\n',
    );
    expect(json.stdout).toBe((await cdata(['workspaces', '-o', 'json'], { env: env() })).stdout);
    expect((await cdata(['workspaces', '-o', 'ndjson', '--no-header', '-q'], { env: env() })).stderr).toBe('');
    expect((await cdata(['workspaces', '-o', 'csv', '--bom', '--no-header'], { env: env() })).stderr).toBe('');
    expect((await cdata(['workspaces', '-o', 'tsv', '--no-header'], { env: env() })).stderr).toBe('');
  });
});

describe('default format', () => {
  it('is table when stdout is a terminal', async () => {
    const result = await cdata(['workspaces', '--color', 'never'], { env: env(), stdoutTTY: true });
    expect(result.stdout.split('\n')[0]).toMatch(tableLinePattern(['id', 'productKey', 'name']));
  });

  it('is tsv when it is not', async () => {
    const result = await cdata(['workspaces'], { env: env() });
    expect(result.stdout.split('\n')[0]).toBe('id\tproductKey\tname');
  });
});

describe('table width', () => {
  const widest = (text: string) =>
    Math.max(
      ...text
        .trimEnd()
        .split('\n')
        .map((line) => [...line].length),
    );

  it('fits the terminal, from its columns or else COLUMNS', async () => {
    const fitted = await cdata(['tenders', '--color', 'never'], { env: env(), stdoutTTY: true, columns: 70 });
    expect(widest(fitted.stdout)).toBeLessThanOrEqual(70);
    expect(fitted.stdout).toContain('…');
    const fromEnv = await cdata(['tenders', '--color', 'never'], { env: { ...env(), COLUMNS: '60' }, stdoutTTY: true });
    expect(widest(fromEnv.stdout)).toBeLessThanOrEqual(60);
  });

  it('is natural when the width is unknown, and in a file', async () => {
    const natural = await cdata(['tenders', '--color', 'never'], { env: env(), stdoutTTY: true });
    expect(widest(natural.stdout)).toBeGreaterThan(100);
    // A COLUMNS that is no whole number of columns is no width (it was an internal error).
    for (const COLUMNS of ['80.5', '0', 'abc'])
      expect(await cdata(['tenders', '--color', 'never'], { env: { ...env(), COLUMNS }, stdoutTTY: true })).toEqual({
        ...natural,
      });
    expect(natural.stdout).not.toContain('…');
    const file = join(mkdtempSync(join(tmpdir(), 'cdata-out-')), 'tenders.txt');
    await cdata(['tenders', '-o', 'table', '--out', file], { env: env(), stdoutTTY: true, columns: 70 });
    expect(readFileSync(file, 'utf8')).toBe(natural.stdout);
  });
});

/** The built program, which EACH_DESCRIPTOR runs. */
const CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

/**
 * The built program run for each descriptor from 3 to 24 in turn, in one process: Node's own
 * descriptors are the same in each run, and 22 start-ups were most of this file's CPU. Prints
 * each run's exit code, stdout and stderr as JSON; a crash ends it with a signal.
 */
const EACH_DESCRIPTOR = `
const { PassThrough } = require('node:stream');
const { main, processIo } = require(process.argv[1]);
(async () => {
  const runs = [];
  for (let n = 3; n <= 24; n++) {
    const stdout = new PassThrough({ encoding: 'utf8' });
    const stderr = new PassThrough({ encoding: 'utf8' });
    // Not a spread, which would read processIo's stdin getter: the binary leaves stdin unopened.
    const code = await main(['agents', '--out', '/dev/fd/' + n], Object.assign(processIo(), { stdout, stderr }));
    runs.push({ n, code, stdout: stdout.read() ?? '', stderr: stderr.read() ?? '' });
  }
  process.stdout.write(JSON.stringify(runs));
})();
`;

describe('--out FILE', () => {
  const makeSandbox = useSandboxes();
  const folder = () => mkdtempSync(join(tmpdir(), 'cdata-out-'));

  it('writes what stdout would have shown, and nothing to stdout', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'tsv', 'table']) {
      const file = join(folder(), 'out.data');
      const shown = await cdata(['obligations', '--limit', '7', '-o', format], { env: env() });
      const written = await cdata(['obligations', '--limit', '7', '-o', format, '--out', file], {
        env: env(),
        stdoutTTY: true,
      });
      expect(written).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(readFileSync(file, 'utf8')).toBe(shown.stdout);
    }
  });

  it('picks the format from the extension when no -o is given, and -o wins', async () => {
    const dir = folder();
    for (const [name, format] of [
      ['a.csv', 'csv'],
      ['a.json', 'json'],
      ['a.ndjson', 'ndjson'],
      ['a.jsonl', 'ndjson'],
      ['a.TSV', 'tsv'],
      ['a.txt', 'tsv'],
    ]) {
      const shown = await cdata(['agents', '-o', format!], { env: env() });
      await cdata(['agents', '--out', join(dir, name!)], { env: env(), stdoutTTY: true });
      expect(readFileSync(join(dir, name!), 'utf8')).toBe(shown.stdout);
    }
    const shown = await cdata(['agents', '-o', 'json'], { env: env() });
    await cdata(['agents', '-o', 'json', '--out', join(dir, 'b.csv')], { env: env() });
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(shown.stdout);
  });

  it('replaces the file in one step, leaving no temp file; a failed run leaves it whole', async () => {
    const dir = folder();
    const file = join(dir, 'tenders.csv');
    writeFileSync(file, 'old content\n');
    expect((await cdata(['tenders', '--out', file], { env: env() })).code).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith('ocid,title,')).toBe(true);
    expect(readdirSync(dir)).toEqual(['tenders.csv']);

    writeFileSync(file, 'old content\n');
    const failing = await makeSandbox({ faults: faultAlways(FAULTS.internal) });
    const failed = await cdata(['tenders', '--retries', '0', '--out', file], { env: sandboxEnv(failing) });
    expect(failed.code).toBe(6);
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
    expect(readdirSync(dir)).toEqual(['tenders.csv']);
  });

  it("refuses cdata's own config file, by its name or through a link: exit 2, the profiles and keys kept", async () => {
    const dir = folder();
    const config = join(dir, 'config.json');
    const stored =
      '{"profiles":{"prod":{"baseUrl":"https://api.example.com","key":"svc_yye8NHLbQcl8kneUo7Umonu30pZSjfpY"}}}';
    writeFileSync(config, stored, { mode: 0o600 });
    symlinkSync(config, join(dir, 'link.json'));
    for (const out of [config, join(dir, 'link.json'), `${config}.lock`]) {
      const result = await cdata(['tenders', '--limit', '1', '--out', out], {
        env: { ...env(), CDATA_CONFIG_DIR: dir },
      });
      expect(result).toMatchObject({
        code: 2,
        stderr: `error: --out ${out}: it is cdata's config file, which holds every profile and its key; choose another file\n`,
      });
    }
    expect(readFileSync(config, 'utf8')).toBe(stored);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'link.json']);
  });

  it('a folder that does not exist is a usage error', async () => {
    const missing = join(folder(), 'no', 'such', 'out.csv');
    const result = await cdata(['tenders', '--out', missing], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot write .*out\.csv: ENOENT/);
    expect(existsSync(missing)).toBe(false);
  });

  it('an empty name (`--out "$FILE"` with FILE unset): exit 2 saying so, not as a rename that failed', async () => {
    const result = await cdata(['tenders', '--out', ''], { env: env() });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --out needs a file name: it was given an empty one\n',
    });
    // Only spaces: no file named by them.
    expect(await cdata(['tenders', '--out', '  '], { env: env() })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --out needs a file name: it was given only spaces\n',
    });
  });

  it('keeps the permissions of the file it replaces: a 0600 file is not widened', async () => {
    const file = join(folder(), 'private.csv');
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o600);
    expect((await cdata(['agents', '--out', file], { env: env() })).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').startsWith('name,description,')).toBe(true);
  });

  it('keeps the owner and group of the file it replaces where the user may set them', async () => {
    const file = join(folder(), 'shared.csv');
    writeFileSync(file, 'old\n');
    // As root (CI), the file belongs to nobody; otherwise to ourselves and, if we are in one, a
    // supplementary group: the group a user may give a file to.
    const root = process.getuid!() === 0;
    const group = process.getgroups!().find((gid) => gid !== process.getgid!()) ?? process.getgid!();
    const owner = root ? { uid: 65534, gid: 65534 } : { uid: process.getuid!(), gid: group };
    chownSync(file, owner.uid, owner.gid);
    chmodSync(file, 0o640);
    expect((await cdata(['agents', '--out', file], { env: env() })).code).toBe(0);
    expect(statSync(file)).toMatchObject({ ...owner, mode: expect.any(Number) });
    expect(statSync(file).mode & 0o7777).toBe(0o640);
    expect(readFileSync(file, 'utf8').startsWith('name,description,')).toBe(true);
  });

  it('writes through a symlink: the file it points to is replaced, the link stays a link', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'real'));
    const real = join(dir, 'real', 'current.csv');
    writeFileSync(real, 'old\n');
    const link = join(dir, 'latest.csv');
    symlinkSync(join('real', 'current.csv'), link);
    expect((await cdata(['agents', '--out', link], { env: env() })).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join('real', 'current.csv'));
    expect(readFileSync(real, 'utf8').startsWith('name,description,')).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['latest.csv', 'real']);
    expect(readdirSync(join(dir, 'real'))).toEqual(['current.csv']);
  });

  it('refuses a dangling symlink and a folder with exit 2, touching neither', async () => {
    const dir = folder();
    const link = join(dir, 'dangling.csv');
    symlinkSync(join(dir, 'missing.csv'), link);
    const dangling = await cdata(['agents', '--out', link], { env: env() });
    expect(dangling.code).toBe(2);
    expect(dangling.stderr.split('\n')[0]).toBe(
      `error: cannot write ${link}: it is a symlink to a file that does not exist`,
    );
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const folderResult = await cdata(['agents', '--out', dir], { env: env() });
    expect(folderResult.code).toBe(2);
    expect(folderResult.stderr.split('\n')[0]).toBe(`error: cannot write ${dir}: it is a folder`);
    expect(readdirSync(dir)).toEqual(['dangling.csv']);
  });

  it('writes straight into a device or a pipe (--out /dev/stdout), which nothing can be renamed over', async () => {
    const fifo = join(folder(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<string>((resolve, reject) => {
      import('node:fs').then(({ createReadStream }) => {
        const chunks: Buffer[] = [];
        createReadStream(fifo)
          .on('data', (c) => chunks.push(c as Buffer))
          .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
          .on('error', reject);
      }, reject);
    });
    const shown = await cdata(['agents', '-o', 'json'], { env: env() });
    const written = await cdata(['agents', '-o', 'json', '--out', fifo], { env: env() });
    expect(written.code).toBe(0);
    expect(await reader).toBe(shown.stdout);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const devNull = await cdata(['agents', '--out', '/dev/null'], { env: env() });
    expect(devNull.code).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('--out /dev/stdout is stdout as redirected: `>>` appends, a file is not replaced', async () => {
    const file = join(folder(), 'log.csv');
    writeFileSync(file, 'line before\n');
    const inode = statSync(file).ino;
    const line = `${shellQuote(process.execPath)} ${shellQuote(BIN)} tenders --limit 2 -o csv --fields ocid --out /dev/stdout >> ${shellQuote(file)}`;
    const result = await runProcess('sh', ['-c', line], { env: env() });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const rows = (await tenderRows()).slice(0, 2).map((row) => row.ocid);
    expect(readFileSync(file, 'utf8')).toBe(`line before\n${['ocid', ...rows, ''].join('\r\n')}`);
    expect(statSync(file).ino).toBe(inode);
    const toStderr = await runBin(['agents', '-o', 'json', '--out', '/dev/stderr'], { env: env() });
    expect(toStderr.stdout).toBe('');
    expect(parseJson(toStderr.stderr)).toEqual(
      parseJson((await cdata(['agents', '-o', 'json'], { env: env() })).stdout),
    );
  });

  it("waits for a pipe's reader, then gives it the whole output", async () => {
    const fifo = join(folder(), 'late');
    execFileSync('mkfifo', [fifo]);
    const writer = runBin(['obligations', '--limit', '200', '-o', 'csv', '--out', fifo], { env: env() });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const { createReadStream } = await import('node:fs');
    const read = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      createReadStream(fifo)
        .on('data', (c) => chunks.push(c as Buffer))
        .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        .on('error', reject);
    });
    expect(await writer).toMatchObject({ code: 0, stderr: '' });
    expect(await read).toBe((await cdata(['obligations', '--limit', '200', '-o', 'csv'], { env: env() })).stdout);
  });

  it('--out /dev/fd/N writes to a descriptor the shell gave: appended with 3>>, through >(cmd)', async () => {
    const dir = folder();
    const log = join(dir, 'log.csv');
    writeFileSync(log, 'line before\n');
    const ocids = (await tenderRows()).slice(0, 2).map((row) => row.ocid);
    const cdataLine = `${shellQuote(process.execPath)} ${shellQuote(BIN)} tenders --limit 2 -o csv --fields ocid`;
    const appended = await runProcess('sh', ['-c', `${cdataLine} --out /dev/fd/3 3>>${shellQuote(log)}`], {
      env: env(),
    });
    expect(appended).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(log, 'utf8')).toBe(`line before\n${['ocid', ...ocids, ''].join('\r\n')}`);

    const caught = join(dir, 'caught.csv');
    // `wait $!` waits for the process substitution: cat has written everything when bash exits.
    const substituted = await runProcess('bash', ['-c', `${cdataLine} --out >(cat > ${shellQuote(caught)}); wait $!`], {
      env: env(),
    });
    expect(substituted).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(caught, 'utf8')).toBe(['ocid', ...ocids, ''].join('\r\n'));
  });

  it("never writes into Node's own descriptors: each one past stderr is refused with exit 2, none crashes", async () => {
    const result = await runProcess(process.execPath, ['-e', EACH_DESCRIPTOR, CLI], { env: env() });
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
    const runs = JSON.parse(result.stdout) as { n: number; code: number; stdout: string; stderr: string }[];
    expect(runs.map((run) => run.n)).toEqual(Array.from({ length: 22 }, (_, i) => i + 3));
    for (const { n, code, stdout, stderr } of runs) {
      expect({ n, code, stdout }).toEqual({ n, code: 2, stdout: '' });
      expect(stderr).toMatch(
        new RegExp(
          `^error: cannot write /dev/fd/${n}: descriptor ${n} is (Node's own \\((pipe|anon_inode|socket):[^)]*\\), not one cdata was given|open for reading only|not open)\n$`,
        ),
      );
    }
    const stdin = await runBin(['agents', '--out', '/proc/self/fd/0'], { env: env() });
    expect(stdin).toMatchObject({
      code: 2,
      stderr: 'error: --out /proc/self/fd/0: standard input is no place for output\n',
    });
  });

  it('a pipe whose reader leaves mid-write is exit 2 (EPIPE), not a silent short file', async () => {
    const fifo = join(folder(), 'leaving');
    execFileSync('mkfifo', [fifo]);
    const { closeSync, constants, openSync, readSync } = await import('node:fs');
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    // ~79 KB of JSON: more than the pipe holds (64 KiB), so once its first byte is read, cdata is
    // still writing when the reader goes. (Empty, the pipe reads as EOF or EAGAIN.)
    const writer = runBin(['obligations', '--limit', '200', '-o', 'json', '--out', fifo], { env: env() });
    const firstByte = () => {
      try {
        return readSync(reader, Buffer.alloc(1)) === 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false;
        throw error;
      }
    };
    await until(firstByte, 'cdata to start writing into the pipe');
    closeSync(reader);
    const result = await writer;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: cannot write ${fifo}: .*EPIPE`));
  });

  it('a pipe whose reader never reads does not hold cdata past Ctrl-C, however much is left to write', async () => {
    const fifo = join(folder(), 'stalled');
    execFileSync('mkfifo', [fifo]);
    const { closeSync, constants, openSync } = await import('node:fs');
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK); // held, never read
    try {
      const { spawn } = await import('node:child_process');
      // ~79 KB of JSON: more than a pipe holds, so the write cannot finish.
      const child = spawn(process.execPath, [BIN, 'obligations', '--limit', '200', '-o', 'json', '--out', fifo], {
        env: { ...process.env, ...env() },
        stdio: 'ignore',
      });
      await until(() => holdsOpen(child.pid!, fifo), 'cdata to open the pipe and write');
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on('close', (c, s) => resolve([c, s])),
      );
      clearTimeout(killer);
      expect(signal === 'SIGINT' || code === 130).toBe(true);
    } finally {
      closeSync(reader);
    }
  });

  it('refuses a file the user may not write, as > would, though the folder would allow a rename', async () => {
    const dir = folder();
    chmodSync(dir, 0o777);
    const file = join(dir, 'theirs.csv');
    writeFileSync(file, 'theirs\n');
    chmodSync(file, 0o444);
    const result = await runBinAsUser(['agents', '--out', file], {
      env: { ...env(), CDATA_CONFIG_DIR: join(dir, 'config') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: cannot write ${file}: EACCES: permission denied, access '${file}'`,
    );
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');
    expect(statSync(file).mode & 0o777).toBe(0o444);
  });

  it('a pipe nobody reads does not hold cdata past Ctrl-C', async () => {
    const fifo = join(folder(), 'unread');
    execFileSync('mkfifo', [fifo]);
    const { spawn } = await import('node:child_process');
    const asked = sandbox.current.requests.length;
    const child = spawn(process.execPath, [BIN, 'agents', '--out', fifo], {
      env: { ...process.env, ...env() },
      stdio: 'ignore',
    });
    // Once its request is in, cdata is past start-up: what remains is waiting for a reader.
    await until(() => sandbox.current.requests.length > asked, 'cdata to ask for the agents');
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    clearTimeout(killer);
    expect(signal === 'SIGINT' || code === 130).toBe(true);
  });
});

describe('--out where the output is not data', () => {
  it.each([
    [['auth', 'status'], 'auth status'],
    [['config', 'path'], 'config path'],
    [['config', 'get', 'timeout'], 'config get'],
    [['completion', 'bash'], 'completion'],
    [['webhook', 'verify', '--signature', 'ab', '--secret-env', 'S'], 'webhook verify'],
  ])('%j: refused with exit 2, nothing written', async (argv, name) => {
    const file = join(mkdtempSync(join(tmpdir(), 'cdata-out-')), 'out.txt');
    const result = await cdata([...argv, '--out', file], { env: { S: 'whsec_x' } });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: --out does not apply to ${name}: what it prints is not data; redirect it with > if a file is wanted\n`,
    );
    expect(existsSync(file)).toBe(false);
  });

  it('profile list and the data commands take it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cdata-out-')), 'profiles.json');
    expect((await cdata(['profile', 'list', '--out', file])).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([]);
  });
});
