// Files cdata is pointed at are read only when they are regular files, and only up to a cap: a
// symlink to /dev/zero grew cdata to 9 GB in 20 s, a FIFO hung it with no writer, deaf to
// signals. Through the built binary, each with a time bound (a hang is killed and fails).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../src/config/read.js';
import { sign } from '../../src/webhook/signature.js';
import { runBin } from '../helpers/spawn.js';
import { run } from '../helpers/run.js';
import { useFolders } from './folders.js';

const folder = useFolders();

/** What stands where a file is expected: a symlink to /dev/zero, a FIFO nobody writes, a folder. */
const NOT_FILES: [string, (path: string) => void, string][] = [
  ['a symlink to /dev/zero', (path) => symlinkSync('/dev/zero', path), 'a character device'],
  ['a FIFO', (path) => execFileSync('mkfifo', [path]), 'a FIFO (named pipe)'],
  ['a folder', (path) => mkdirSync(path), 'a folder'],
];

const bounded = { timeoutMs: 10_000 };

describe('the config file', () => {
  it.each(NOT_FILES)('%s: exit 2 at once, naming what it is', async (_what, make, kind) => {
    const dir = folder();
    const file = join(dir, 'config.json');
    make(file);
    const result = await runBin(['profile', 'list'], { env: { CDATA_CONFIG_DIR: dir }, ...bounded });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: cannot read the config file ${file}: it is ${kind}, not a regular file\n` +
        'hint: The config file must be a regular file of at most 1 MiB; cdata never rewrites a file it cannot read.\n',
    );
  });

  it.each(NOT_FILES)('%s: completion (at every Tab) offers nothing, at once', async (_what, make) => {
    const dir = folder();
    make(join(dir, 'config.json'));
    expect(await runBin(['__complete', 'profiles'], { env: { CDATA_CONFIG_DIR: dir }, ...bounded })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('larger than 1 MiB: exit 2, and the file is left as it was', async () => {
    const dir = folder();
    const file = join(dir, 'config.json');
    writeFileSync(file, `{"profiles":{}}${' '.repeat(MAX_CONFIG_BYTES)}`, { mode: 0o600 });
    const result = await run(['profile', 'list'], { env: { CDATA_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: cannot read the config file ${file}: it is larger than 1 MiB`);
    expect(readFileSync(file).length).toBe(MAX_CONFIG_BYTES + 15);
  });

  it('exactly 1 MiB is read', async () => {
    const dir = folder();
    const body = '{"profiles":{"prod":{}}}';
    writeFileSync(join(dir, 'config.json'), `${body}${' '.repeat(MAX_CONFIG_BYTES - body.length)}`, { mode: 0o600 });
    expect(await run(['profile', 'list', '-o', 'tsv'], { env: { CDATA_CONFIG_DIR: dir } })).toMatchObject({ code: 0 });
  });
});

describe('webhook verify: --body-file and --secret-file', () => {
  const SECRET = 'whsec_BoundedReadsSecret0123456789';
  const body = `{"type":"ping","timestamp":"${new Date().toISOString()}"}`;

  it.each(NOT_FILES)('--body-file %s: exit 2 at once', async (_what, make, kind) => {
    const path = join(folder(), 'body');
    make(path);
    const result = await runBin(
      ['webhook', 'verify', '--signature', sign(SECRET, body), '--body-file', path, '--secret-env', 'S'],
      { env: { S: SECRET }, ...bounded },
    );
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: cannot read the body file ${path}: it is ${kind}, not a regular file\n` +
        'hint: A body file is a regular file; to verify a body that comes through a pipe, pipe it on stdin (without --body-file).\n',
    );
  });

  it.each(NOT_FILES)('--secret-file %s: exit 2 at once', async (_what, make, kind) => {
    const path = join(folder(), 'secret');
    make(path);
    const result = await runBin(['webhook', 'verify', '--signature', sign(SECRET, body), '--secret-file', path], {
      input: body,
      ...bounded,
    });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: cannot read the secret file ${path}: it is ${kind}, not a regular file\nhint: A secret file is a regular file of at most 4 KiB.\n`,
    );
  });

  it('a secret file larger than 4 KiB: exit 2, read no further', async () => {
    const path = join(folder(), 'secret');
    writeFileSync(path, 'x'.repeat(4097));
    const result = await run(['webhook', 'verify', '--signature', sign(SECRET, body), '--secret-file', path], {
      stdin: body,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: cannot read the secret file ${path}: it is larger than 4 KiB`);
  });

  it('a body file larger than 1 MiB is the too-large verdict (exit 1), as listen answers 413', async () => {
    const path = join(folder(), 'body');
    writeFileSync(path, ' '.repeat(1024 * 1024 + 1));
    const result = await run(
      ['webhook', 'verify', '--signature', sign(SECRET, body), '--body-file', path, '--secret-env', 'S'],
      { env: { S: SECRET } },
    );
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'rejected: too-large: the body is larger than 1 MiB, more than any delivery (a receiver answers 413)\n',
    });
  });
});

describe("a lock file (an export's, the config's)", () => {
  // Not a regular file: its owner is unknown, so it is judged by its age alone; one an hour old
  // is taken over at once. Read as a file, the FIFO hung cdata deaf to signals (killed here by the
  // time bound) and /dev/zero grew it past 2 GB.
  const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
  it.each(NOT_FILES.filter(([what]) => what !== 'a folder'))(
    "%s at an export's lock: not read, judged by its age; exit 0",
    async (_what, make) => {
      const dir = folder();
      make(join(dir, '..lock'));
      execFileSync('touch', ['-h', '-d', old.toISOString(), join(dir, '..lock')]);
      const result = await runBin(['--sandbox', 'export', 'agents', '--dir', dir, '-q'], bounded);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(readFileSync(join(dir, 'agents.csv'), 'utf8')).toMatch(/^name,/);
    },
  );

  it("a symlink (an hour old) to a FIFO made just now: judged by the link's age, not the FIFO's", async () => {
    const dir = folder();
    execFileSync('mkfifo', [join(dir, 'fresh')]);
    symlinkSync(join(dir, 'fresh'), join(dir, '..lock'));
    execFileSync('touch', ['-h', '-d', old.toISOString(), join(dir, '..lock')]);
    const result = await runBin(['--sandbox', 'export', 'agents', '--dir', dir, '-q'], bounded);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it.each(NOT_FILES.filter(([what]) => what !== 'a folder'))(
    "%s at the config's lock: the same for config set",
    async (_what, make) => {
      const dir = folder();
      make(join(dir, 'config.json.lock'));
      execFileSync('touch', ['-h', '-d', old.toISOString(), join(dir, 'config.json.lock')]);
      const result = await runBin(['config', 'set', 'output', 'json'], { env: { CDATA_CONFIG_DIR: dir }, ...bounded });
      expect(result).toMatchObject({ code: 0, stderr: "Created profile 'default'.\n" });
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({
        profiles: { default: { output: 'json' } },
      });
    },
  );
});
