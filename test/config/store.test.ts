// The config file as stored: modes, where it lives, and every way it can be unusable — corrupt,
// unreadable, a symbolic link, a read-only folder — each refused with exit 2 and left untouched.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateConfig } from '../../src/config/store.js';
import { testIo } from '../helpers/io.js';
import { tempConfigDir } from '../helpers/run.js';
import { runBinAsUser } from '../helpers/spawn.js';
import { cdata, configHome, expectNoKey } from '../auth/harness.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const KEY_IN_FILE = 'svc_yye8NHLbQcl8kneUo7Umonu30pZSjfpY';

describe('file and folder modes', () => {
  it('creates the folder 0700 (and any missing parent) and the file 0600', async () => {
    const root = tempConfigDir();
    const dir = join(root, 'home', '.config', 'cdata');
    const result = await cdata(['config', 'set', 'timeout', '10'], { env: { CDATA_CONFIG_DIR: dir } });
    expect(result.code).toBe(0);
    expect(mode(join(root, 'home'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });

  it('keeps 0600 on every later write, and narrows a file that had been widened', async () => {
    const home = configHome();
    await cdata(['config', 'set', 'timeout', '10'], { env: home.env });
    await cdata(['config', 'set', 'output', 'json'], { env: home.env });
    expect(mode(home.file)).toBe(0o600);
    chmodSync(home.file, 0o664);
    const widened = await cdata(['config', 'set', 'output', 'csv'], { env: home.env });
    expect(widened.stderr.match(/warning: .*readable and writable by others \(mode 0664\).*chmod 600/g)).toHaveLength(
      1,
    );
    expect(mode(home.file)).toBe(0o600);
    expect(home.read()).toEqual({ profiles: { default: { timeout: 10, output: 'csv' } } });
  });

  it('leaves an existing folder as the user set it', async () => {
    const home = configHome();
    chmodSync(home.dir, 0o750);
    await cdata(['config', 'set', 'timeout', '10'], { env: home.env });
    expect(mode(home.dir)).toBe(0o750);
  });

  it('writes through conf atomically: no temp or lock file left behind', async () => {
    const home = configHome();
    await cdata(['config', 'set', 'timeout', '10'], { env: home.env });
    await cdata(['config', 'unset', 'timeout'], { env: home.env });
    expect(readdirSync(home.dir)).toEqual(['config.json']);
  });

  it('CDATA_CONFIG_DIR moves it; config path says where', async () => {
    const home = configHome();
    const path = await cdata(['config', 'path'], { env: home.env });
    expect(path.stdout).toBe(`${home.file}\n`);
    const xdg = tempConfigDir();
    const fallback = await cdata(['config', 'path'], { env: { CDATA_CONFIG_DIR: '', XDG_CONFIG_HOME: xdg } });
    expect(fallback.stdout).toBe(`${join(xdg, 'cdata', 'config.json')}\n`);
    // A relative XDG_CONFIG_HOME or HOME is ignored (the XDG spec): the keys would follow the current folder.
    const account = process.env.HOME!;
    for (const env of [
      { XDG_CONFIG_HOME: 'cfg', HOME: account },
      { XDG_CONFIG_HOME: '', HOME: 'relative' },
    ])
      expect((await cdata(['config', 'path'], { env: { CDATA_CONFIG_DIR: '', ...env } })).stdout).toMatch(
        /^\/.*\/\.config\/cdata\/config\.json\n$/,
      );
  });

  it('keeps what it does not know in the file (a newer cdata may have written it)', async () => {
    const home = configHome();
    writeFileSync(
      home.file,
      JSON.stringify({ future: { x: 1 }, profiles: { a: { baseUrl: 'https://a.example', later: true } } }),
      { mode: 0o600 },
    );
    await cdata(['-p', 'a', 'config', 'set', 'timeout', '3'], { env: home.env });
    expect(home.read()).toEqual({
      future: { x: 1 },
      profiles: { a: { baseUrl: 'https://a.example', later: true, timeout: 3 } },
    });
  });
});

describe('a corrupt or unreadable file: exit 2, path and cause, never rewritten', () => {
  const corrupt: [string, string, RegExp][] = [
    ['not JSON', '{"profiles": {"prod": {"key": "svc_', /is not valid JSON: /],
    ['not an object', '[1, 2]', /is not valid: the file is not a JSON object/],
    ['a bad profile name', '{"profiles": {"a.b": {}}}', /is not valid: profile name 'a.b' is not valid/],
    // A value of the wrong type, in any profile (a value of the right type that `config set` would
    // refuse stops only the commands that use it: test/faults/config-values.test.ts).
    [
      'an output that is not text',
      '{"profiles": {"a": {"output": 5}}}',
      /is not valid: profiles.a.output is not one of/,
    ],
    // JSON.parse keeps the last: a write would drop the first (a profile, its key) for good.
    [
      'a key twice',
      '{"profiles": {"a": {"timeout": 5}, "a": {"timeout": 6}}}',
      /is not valid: profiles\.a appears twice/,
    ],
    // Copying or writing it back would overflow the stack (config set: an internal error).
    [
      'nested past 64 levels',
      `{"x":${'{"a":'.repeat(2500)}1${'}'.repeat(2500)},"profiles":{"a":{}}}`,
      /is not valid: it is nested deeper than 64 levels/,
    ],
  ];
  const commands: [string, string[]][] = [
    ['profile list (reads)', ['profile', 'list']],
    ['auth status (reads)', ['auth', 'status']],
    ['tenders (reads)', ['tenders']],
    ['config set (writes)', ['config', 'set', 'timeout', '5']],
    ['config unset (writes)', ['config', 'unset', 'output']],
    ['profile use (writes)', ['profile', 'use', 'a']],
    ['profile remove (writes)', ['profile', 'remove', 'a']],
    ['auth logout (writes)', ['auth', 'logout']],
    ['auth login (writes)', ['auth', 'login', '--base-url', 'https://api.example.com']],
  ];

  for (const [what, text, cause] of corrupt) {
    it.each(commands)(`${what}: %s`, async (_name, argv) => {
      const home = configHome();
      writeFileSync(home.file, text, { mode: 0o600 });
      const result = await cdata(argv, { env: home.env, stdin: 'svc_0123456789abcdefghij' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: the config file ${home.file} `);
      expect(result.stderr).toMatch(cause);
      expect(result.stderr).toContain('hint: Fix or move the file; cdata never rewrites a file it cannot read.');
      expect(readFileSync(home.file, 'utf8')).toBe(text);
      expect(readdirSync(home.dir)).toEqual(['config.json']);
    });
  }

  // V8 quotes ten characters either side of an unexpected token: the end of a stored key here.
  it.each([
    ['after a key', `{"profiles":{"default":{"key":"${KEY_IN_FILE}","o":x}}}`, "Unexpected token 'x'"],
    ['in place of a quoted key', `{"profiles":{"default":{"key":${KEY_IN_FILE}}}}`, "Unexpected token 's'"],
    [
      'on its third line',
      `{\n  "profiles": {\n    "a": {"key": "${KEY_IN_FILE}",}\n}}`,
      'Expected double-quoted property name at line 3, column 57',
    ],
  ])('not JSON %s: the fault and where, never a piece of the key', async (_name, text, fault) => {
    const home = configHome();
    writeFileSync(home.file, text, { mode: 0o600 });
    const result = await cdata(['me'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: the config file ${home.file} is not valid JSON: ${fault}\nhint: Fix or move the file; cdata never rewrites a file it cannot read.\n`,
    );
  });

  it('a write that would make the file larger than cdata reads: exit 2, the file as it was', async () => {
    const home = configHome();
    // 540 KB, read at once; written back with its indentation, 1.2 MB: past the 1 MiB read cap.
    const text = JSON.stringify({ notes: new Array(180_000).fill(0), profiles: { a: {} } });
    writeFileSync(home.file, text, { mode: 0o600 });
    const result = await cdata(['config', 'set', 'timeout', '5', '-p', 'a'], { env: home.env });
    expect(result).toMatchObject({ code: 2 });
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: cannot write the config file ${home.file}: it would be \\d+ bytes, more than the 1 MiB cdata reads; nothing was changed\n`,
      ),
    );
    expect(readFileSync(home.file, 'utf8')).toBe(text);
  });

  it('a byte order mark (Notepad writes one) is read past, and the file written without it', async () => {
    const home = configHome();
    writeFileSync(home.file, '\uFEFF{"profiles": {"a": {"timeout": 9}}}', { mode: 0o600 });
    expect(await cdata(['config', 'get', 'timeout', '-p', 'a'], { env: home.env })).toMatchObject({
      code: 0,
      stdout: '9\n',
    });
    expect((await cdata(['config', 'set', 'timeout', '5', '-p', 'a'], { env: home.env })).code).toBe(0);
    expect(JSON.parse(readFileSync(home.file, 'utf8'))).toEqual({ profiles: { a: { timeout: 5 } } });
  });

  it('the write path refuses on its own, under the lock, before conf opens the file', async () => {
    const home = configHome();
    writeFileSync(home.file, '{oops', { mode: 0o600 });
    const change = () => {
      throw new Error('never called');
    };
    await expect(updateConfig(testIo({ env: home.env }).io, change)).rejects.toThrow(
      `the config file ${home.file} is not valid JSON`,
    );
    expect(readFileSync(home.file, 'utf8')).toBe('{oops');
    expect(readdirSync(home.dir)).toEqual(['config.json']);
  });

  it('config path still answers (that is when the path is wanted)', async () => {
    const home = configHome();
    writeFileSync(home.file, '{oops', { mode: 0o600 });
    expect((await cdata(['config', 'path'], { env: home.env })).code).toBe(0);
  });

  it('unreadable (a folder where the file should be): exit 2 for reading and writing', async () => {
    const home = configHome();
    mkdirSync(home.file);
    for (const argv of [
      ['profile', 'list'],
      ['config', 'set', 'timeout', '5'],
    ]) {
      const result = await cdata(argv, { env: home.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error: cannot read the config file ${home.file}: it is a folder, not a regular file`,
      );
    }
  });

  it('CDATA_CONFIG_DIR naming a file: exit 2', async () => {
    const home = configHome();
    const notAFolder = join(home.dir, 'plain');
    writeFileSync(notAFolder, '');
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: { CDATA_CONFIG_DIR: notAFolder } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(notAFolder, 'config.json')}: ENOTDIR`);
  });

  it('CDATA_CONFIG_DIR blank: exit 2, for reading and writing, and no folder of spaces made here', async () => {
    for (const argv of [
      ['config', 'set', 'timeout', '5'],
      ['profile', 'list'],
      ['config', 'path'],
    ]) {
      expect(await cdata(argv, { env: { CDATA_CONFIG_DIR: ' ' } })).toMatchObject({
        code: 2,
        stderr: 'error: CDATA_CONFIG_DIR is blank: set it to the folder that holds the config, or unset it\n',
      });
    }
    expect(existsSync(' ')).toBe(false);
  });
});

describe('a symbolic link as the config file', () => {
  it("a profile's stored `output json` makes errors JSON lines only for commands that print JSON", async () => {
    const home = configHome();
    const real = join(tempConfigDir(), 'real.json');
    writeFileSync(real, '{"profiles":{"default":{"output":"json","timeout":4}}}', { mode: 0o600 });
    symlinkSync(real, home.file);
    const error = `error: the config file ${home.file} is a symbolic link (to ${real}); cdata does not write through links or replace them\nhint: Put the real file in its place, or set CDATA_CONFIG_DIR to the folder that holds it.\n`;
    // config set and auth logout print no JSON: their errors are text alone.
    for (const argv of [
      ['config', 'set', 'timeout', '5'],
      ['auth', 'logout'],
    ])
      expect(await cdata(argv, { env: home.env })).toMatchObject({ code: 2, stdout: '', stderr: error });
    // A command that prints the API's JSON still adds the line.
    const tenders = await cdata(['tenders', '--base-url', 'http://127.0.0.1:1'], { env: home.env });
    expect(tenders.code).toBe(3);
    expect(tenders.stderr.trimEnd().split('\n').at(-1)).toMatch(/^\{"error":\{.*"exitCode":3\}\}$/);
  });

  it('is read through, but never written through or replaced: exit 2', async () => {
    const home = configHome();
    const real = join(tempConfigDir(), 'real.json');
    const text = '{"profiles":{"a":{"timeout":4}}}';
    writeFileSync(real, text, { mode: 0o600 });
    symlinkSync(real, home.file);
    const list = await cdata(['profile', 'list', '--json'], { env: home.env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)[0].timeout).toBe(4);
    const set = await cdata(['-p', 'a', 'config', 'set', 'timeout', '5'], { env: home.env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain(
      `error: the config file ${home.file} is a symbolic link (to ${real}); cdata does not write through links or replace them`,
    );
    const login = await cdata(['auth', 'login', '-p', 'a', '--base-url', 'http://127.0.0.1:1'], {
      env: home.env,
      stdin: 'svc_0123456789abcdefghij',
    });
    expect(login.code).toBe(2); // before the key is read or checked (that would be exit 6 here)
    expect(login.stderr).toContain('is a symbolic link');
    expect(lstatSync(home.file).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(text);
    expect(readdirSync(home.dir)).toEqual(['config.json']);
  });
});

describe('a config file cdata cannot read', () => {
  it('a link leading nowhere is no "no config yet": exit 2 naming where it leads', async () => {
    const home = configHome();
    const nowhere = join(home.dir, 'moved.json');
    symlinkSync(nowhere, home.file);
    const result = await cdata(['workspaces'], { env: home.env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: cannot read the config file ${home.file}: it is a link to ${nowhere}, which does not exist\nhint: Point the link at the config file, or remove the link: cdata then writes a new file there when a setting is saved.\n`,
    );
  });

  it('one the user may not read: the hint is its owner and mode', async () => {
    const root = tempConfigDir();
    chmodSync(root, 0o755);
    const file = join(root, 'config.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o000); // unreadable to its owner too, once root runs without capabilities
    const result = await runBinAsUser(['workspaces'], { env: { CDATA_CONFIG_DIR: root } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: cannot read the config file ${file}: EACCES`));
    expect(result.stderr).toContain(`hint: cdata may not read it: check its owner and mode (ls -l '${file}')`);
  });
});

describe('a blank config file', () => {
  it('is an empty config to write into, as it is to read (empty, or a line break alone)', async () => {
    for (const blank of ['', '\n']) {
      const home = configHome();
      mkdirSync(home.dir, { recursive: true });
      writeFileSync(home.file, blank);
      const set = await cdata(['config', 'set', 'output', 'json'], { env: home.env });
      expect(set).toMatchObject({ code: 0, stdout: '' });
      expect(home.read()).toEqual({ profiles: { default: { output: 'json' } } });
    }
  });
});

describe('a config file its user may not write', () => {
  it('exit 2, before a key is read; the file, its content and its mode, as they were', async () => {
    const root = tempConfigDir();
    chmodSync(root, 0o755);
    const file = join(root, 'config.json');
    const content = '{"profiles":{"default":{"output":"json"}}}\n';
    writeFileSync(file, content);
    chmodSync(file, 0o444);
    const said = `error: the config file ${file} may not be written (EACCES); nothing was changed\nhint: Make it writable (chmod u+w '${file}') to change it, or set CDATA_CONFIG_DIR to another folder.\n`;
    const set = await runBinAsUser(['config', 'set', 'output', 'csv'], { env: { CDATA_CONFIG_DIR: root } });
    expect(set).toMatchObject({ code: 2, stdout: '', stderr: said });
    const login = await runBinAsUser(['auth', 'login', '--base-url', 'http://127.0.0.1:1'], {
      env: { CDATA_CONFIG_DIR: root },
      input: 'svc_notread\n',
    });
    expect(login).toMatchObject({ code: 2, stderr: said }); // not 6: the key was never checked
    expect(readFileSync(file, 'utf8')).toBe(content);
    expect(mode(file)).toBe(0o444);
  });
  // Root may write any file (containers, CI): to root, the mode's owner write bit says it.
  it('as whoever runs the tests, root too: exit 2, the file as it was', async () => {
    const home = configHome();
    const content = '{"profiles":{"default":{"output":"json"}}}\n';
    writeFileSync(home.file, content);
    chmodSync(home.file, 0o400);
    const why = process.getuid?.() === 0 ? 'mode 0400' : 'EACCES';
    const result = await cdata(['config', 'set', 'output', 'csv'], { env: home.env });
    expect(result).toMatchObject({
      code: 2,
      stderr: `error: the config file ${home.file} may not be written (${why}); nothing was changed\nhint: Make it writable (chmod u+w '${home.file}') to change it, or set CDATA_CONFIG_DIR to another folder.\n`,
    });
    expect(readFileSync(home.file, 'utf8')).toBe(content);
    expect(mode(home.file)).toBe(0o400);
  });
});

describe('a read-only config folder', () => {
  // Root writes anywhere: as root the binary runs without capabilities, so the folder is read-only to it too.
  const asUser = (args: string[], env: Record<string, string>) => runBinAsUser(args, { env });

  it('exit 2 with the folder and the cause; nothing written', async () => {
    const root = tempConfigDir();
    chmodSync(root, 0o755);
    const folder = join(root, 'ro');
    mkdirSync(folder, { mode: 0o555 });
    chmodSync(folder, 0o555);
    const result = await asUser(['config', 'set', 'timeout', '5'], { CDATA_CONFIG_DIR: folder });
    expectNoKey(result);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: cannot write in the config folder ${folder}: EACCES`);
    expect(result.stderr).toContain('hint: cdata writes the config file and a lock file beside it');
    expect(readdirSync(folder)).toEqual([]);
    const login = await asUser(['auth', 'login', '--base-url', 'http://127.0.0.1:1'], { CDATA_CONFIG_DIR: folder });
    expect(login.code).toBe(2); // before the key is read or checked (that would be exit 6 here)
    expect(login.stderr).toContain(`error: cannot write in the config folder ${folder}: EACCES`);
    const below = await asUser(['config', 'set', 'timeout', '5'], { CDATA_CONFIG_DIR: join(folder, 'sub') });
    expect(below.code).toBe(2);
    expect(below.stderr).toContain(`error: cannot create the config folder ${join(folder, 'sub')}: EACCES`);
    expect(existsSync(join(folder, 'sub'))).toBe(false);
  });
});
