// Keys from a password manager (docs/keys-and-profiles.md), end to end in-process against the
// sandbox: auth login --key-command stores the command, every command that sends a request runs
// it once, and nothing else runs it; status, profile list, config and logout know about it; the
// key it prints never reaches stdout, stderr, --debug or an export's manifest (harness.ts checks
// every run's output for the demo keys).
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyCommandToRun } from '../../src/config/read.js';
import { demoKey } from '../../src/sandbox/keys.js';
import { TENANT } from '../../src/sandbox/vocabulary.js';
import { useSandbox } from '../helpers/sandbox.js';
import { NOBODY } from '../helpers/spawn.js';
import { ALL_SCOPES_IDENTITY, cdata, configHome } from './harness.js';
import { secretTools, TOOL_KEY, type ToolName } from './secret-tools.js';

const sandbox = useSandbox();
const PATH = process.env.PATH ?? '';

/** A config folder, a set of secret tools, and a profile `prod` logged in with one of them. */
async function loggedIn(tool: ToolName = 'good') {
  const home = configHome();
  const tools = secretTools();
  const env = { ...home.env, PATH };
  const result = await cdata(
    ['auth', 'login', '-p', 'prod', '--base-url', sandbox.current.url, '--key-command', tools.command(tool)],
    { env },
  );
  expect(result.code).toBe(0);
  return { home, tools, env };
}

describe('auth login --key-command', () => {
  it('runs the command once, checks its key with /me, then stores the command and no key', async () => {
    const home = configHome();
    const tools = secretTools();
    const before = sandbox.current.requests.length;
    const result = await cdata(
      ['auth', 'login', '-p', 'prod', '--base-url', sandbox.current.url, '--key-command', tools.command('extra')],
      {
        env: { ...home.env, PATH },
      },
    );
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(
      [
        `Logged in to ${TENANT} as Sandbox: all scopes (profile prod).`,
        'The command is stored, not the key: it runs whenever a command needs the key.',
        "Profile 'prod' is now the default (no other was).",
        '',
      ].join('\n'),
    );
    expect(tools.runs()).toBe(1);
    expect(sandbox.current.requests.slice(before).map((r) => [r.path, r.status])).toEqual([['/api/v1/me', 200]]);
    expect(home.read()).toEqual({
      profiles: { prod: { keyCommand: tools.command('extra'), baseUrl: sandbox.current.url } },
      defaultProfile: 'prod',
    });
    expect(home.text()).not.toContain('svc_');
  });

  it.each([
    [
      'prints a revoked key (401)',
      'revoked',
      /^error: This API key has been revoked; nothing stored \(HTTP 401, correlation id [0-9a-f-]+\)\n/,
    ],
    [
      'fails',
      'fail',
      /^error: the key command failed with exit status 4; it said: Error: cdata\/prod is not in the password store\. \| a key it saw: svc_\*\*\* \| line 3 \| line 4 \| line 5 \(and 2 more lines\); nothing stored\nhint: Run it yourself/,
    ],
    [
      'prints no key',
      'bad',
      /^error: the key command did not print an API key on its first line: an API key starts with 'svc_'; this one does not; nothing stored\n/,
    ],
  ] as const)('a command that %s: exit 3, nothing stored', async (_name, tool, message) => {
    const home = configHome();
    const tools = secretTools();
    const result = await cdata(
      ['auth', 'login', '--base-url', sandbox.current.url, '--key-command', tools.command(tool)],
      { env: { ...home.env, PATH } },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('hunter2');
    expect(existsSync(home.file)).toBe(false);
  });

  it('replaces a stored key (checked first), and a key replaces a stored command', async () => {
    const home = configHome();
    const tools = secretTools();
    const env = { ...home.env, PATH };
    await cdata(['auth', 'login', '--base-url', sandbox.current.url], { stdin: demoKey('tenders'), env });
    await cdata(['config', 'set', 'timeout', '9'], { env });
    expect((await cdata(['auth', 'login', '--key-command', tools.command('good')], { env })).code).toBe(0);
    expect(home.read().profiles).toEqual({
      default: { keyCommand: tools.command('good'), baseUrl: sandbox.current.url, timeout: 9 },
    });
    expect((await cdata(['auth', 'login'], { stdin: demoKey('tenders'), env })).code).toBe(0);
    expect(home.read().profiles).toEqual({
      default: { key: demoKey('tenders'), baseUrl: sandbox.current.url, timeout: 9 },
    });
  });

  it.each([
    [
      'a key in its place',
      ['--key-command', demoKey('all')],
      'error: that is an API key, not a command that prints one: the key is never taken on the command line\n',
    ],
    ['an empty command', ['--key-command', ' '], 'error: not a key command: the command is empty\n'],
    [
      'an unquoted command',
      ['--key-command', 'pass', 'show', 'cdata/prod'],
      "quote the whole command: --key-command 'pass show cdata/prod'.",
    ],
  ])('%s: exit 2, nothing run or stored', async (_name, args, message) => {
    const home = configHome();
    const before = sandbox.current.requests.length;
    const result = await cdata(['auth', 'login', '--base-url', sandbox.current.url, ...args], {
      env: { ...home.env, PATH },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(sandbox.current.requests.length).toBe(before);
    expect(existsSync(home.file)).toBe(false);
  });
});

describe('a profile with a key command', () => {
  it('every command that sends a request runs it once and uses the first line it prints', async () => {
    const { tools, env } = await loggedIn('extra');
    const result = await cdata(['tenders', '--limit', '2', '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
    expect(tools.runs()).toBe(2); // login, then tenders
  });

  it('export runs it once for all its requests; the key is not in the manifest', async () => {
    const { tools, env } = await loggedIn();
    const dir = mkdtempSync(join(tmpdir(), 'cdata-export-'));
    const before = tools.runs();
    const result = await cdata(['export', '--dir', dir, '--debug'], { env });
    expect(result.code).toBe(0);
    expect(tools.runs() - before).toBe(1);
    expect(result.stderr).toContain('[debug] key command: the first line is a key (svc_***)');
    expect(result.stderr).toContain('[debug] > X-API-Key: svc_***');
    const manifest = readFileSync(join(dir, 'manifest.json'), 'utf8');
    expect(manifest).not.toContain(TOOL_KEY);
    expect(manifest).not.toContain(tools.command('good'));
  });

  it('commands that send no request never run it', async () => {
    const { tools, env } = await loggedIn();
    const before = tools.runs();
    for (const argv of [
      ['profile', 'list'],
      ['config', 'get', 'key-command'],
      ['config', 'get', 'base-url'],
      ['config', 'path'],
      ['tenders', '--help'],
      ['tenders', '--tier', 'nope'], // refused before any request
      ['tenders', '--fields', 'nope'],
      ['__complete', 'profiles'],
    ]) {
      await cdata(argv, { env });
    }
    expect(tools.runs()).toBe(before);
  });

  it('CDATA_API_KEY wins, and --sandbox uses its own key: the command does not run', async () => {
    const { tools, env } = await loggedIn();
    const before = tools.runs();
    const viaEnv = await cdata(['tenders', '--limit', '1', '--json'], {
      env: { ...env, CDATA_API_KEY: demoKey('tenders') },
    });
    expect(viaEnv.code).toBe(0);
    const viaSandbox = await cdata(['--sandbox', 'tenders', '--limit', '1', '--json'], { env });
    expect(viaSandbox.code).toBe(0);
    expect(tools.runs()).toBe(before);
  });

  it('a failing command: exit 3 with what it said, the hint, and a redacted JSON error line', async () => {
    const { home, tools, env } = await loggedIn();
    writeFileSync(
      home.file,
      JSON.stringify({
        profiles: { prod: { keyCommand: tools.command('fail'), baseUrl: sandbox.current.url } },
        defaultProfile: 'prod',
      }),
    );
    const result = await cdata(['tenders', '-o', 'json'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    const [error, hint, json, end] = result.stderr.split('\n');
    const said =
      'it said: Error: cdata/prod is not in the password store. | a key it saw: svc_*** | line 3 | line 4 | line 5 (and 2 more lines)';
    expect(error).toBe(`error: the key command of profile 'prod' failed with exit status 4; ${said}`);
    expect(hint).toBe(
      `hint: Run it yourself to see what it prints: ${tools.command('fail')}. The first line of its output must be the key (svc_…). Change it with: cdata config set key-command CMD --profile prod.`,
    );
    expect(JSON.parse(json!)).toEqual({
      error: {
        status: null,
        title: 'Not authenticated',
        detail: `the key command of profile 'prod' failed with exit status 4; ${said}`,
        correlationId: null,
        exitCode: 3,
      },
    });
    expect(end).toBe('');
  });

  it('never runs from a config file or folder others can write (exit 2, the fix named); export --profiles fails that profile alone', async () => {
    const { home, tools, env } = await loggedIn();
    const before = tools.runs();
    chmodSync(home.file, 0o620);
    const result = await cdata(['tenders', '-q'], { env });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: the config file ${home.file} is writable by others (mode 0620): cdata runs no key command from it (profile 'prod'), as whoever can change it could choose what runs as you\nhint: Run chmod 600 '${home.file}', then try again.\n`,
    );
    const run = await cdata(['export', '--all-profiles', '--dir', join(home.dir, 'out'), '-q'], { env });
    expect(run.code).toBe(10);
    expect(run.stderr).toMatch(
      /^error: profile prod: exit 2: the config file \S+ is writable by others \(mode 0620\): cdata runs no key command/,
    );
    chmodSync(home.file, 0o600);
    chmodSync(home.dir, 0o777);
    const folder = await cdata(['tenders', '-q'], { env });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(
      /^error: the config folder \S+ is writable by others \(mode 0777\): cdata runs no key command from it/,
    );
    expect(tools.runs()).toBe(before);
    chmodSync(home.dir, 0o700);
    // config.json a link (dotfiles) to a file in a folder others can write: that folder counts too.
    const open = join(home.dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    renameSync(home.file, join(open, 'config.json'));
    symlinkSync(join(open, 'config.json'), home.file);
    const linked = await cdata(['tenders', '-q'], { env });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`error: the config folder ${open} is writable by others (mode 0777)`);
    expect(tools.runs()).toBe(before);
    chmodSync(open, 0o700);
    expect((await cdata(['tenders', '-q'], { env })).code).toBe(0);
    expect(tools.runs()).toBe(before + 1);
  });

  it('never runs from a config file another user owns, even in a folder with the sticky bit', async () => {
    // The rule itself, for any user; then, where the test runs as root (CI), nobody's real file.
    const other = (process.getuid?.() ?? 0) + 1;
    const config = { path: '/x/config.json', exists: true, mode: 0o600, data: { profiles: {} } };
    const holders = [{ kind: 'file' as const, path: '/x/config.json', mode: 0o600, owner: other }];
    expect(() => keyCommandToRun({ ...config, holders }, 'prod', 'pass show cdata')).toThrow(
      `the config file /x/config.json belongs to another user (uid ${other}): cdata runs no key command from it`,
    );
    if (process.getuid?.() !== 0) return; // only root can give a file to another user
    const { home, tools, env } = await loggedIn();
    chmodSync(home.dir, 0o1777);
    chownSync(home.file, NOBODY, NOBODY);
    const before = tools.runs();
    const result = await cdata(['tenders', '-q'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: the config file ${home.file} belongs to another user (uid ${NOBODY}): cdata runs no key command from it (profile 'prod'), as whoever can change it could choose what runs as you\nhint: Run chown "$(id -un)" '${home.file}' and chmod 600 '${home.file}', then try again.\n`,
    );
    expect(tools.runs()).toBe(before);
  });

  it('a 401 for the key it prints says where to change it', async () => {
    const { home, tools, env } = await loggedIn();
    writeFileSync(
      home.file,
      JSON.stringify({
        profiles: { prod: { keyCommand: tools.command('revoked'), baseUrl: sandbox.current.url } },
        defaultProfile: 'prod',
      }),
    );
    const result = await cdata(['tenders'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      "hint: Check the key the profile's key command prints (the entry in your password manager), or replace it there.",
    );
  });
});

describe('auth status, profile list, config and logout with a key command', () => {
  it('auth status runs it and shows the source key-command and the command', async () => {
    const { home, tools, env } = await loggedIn();
    const result = await cdata(['auth', 'status'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      [
        'profile      prod (the default profile)',
        `base URL     ${sandbox.current.url} (from the profile)`,
        `key          ${TOOL_KEY.slice(0, 12)}… (printed by the profile's key command)`,
        `key command  ${tools.command('good')}`,
        `config file  ${home.file} (mode 0600)`,
        ...ALL_SCOPES_IDENTITY,
        '',
      ].join('\n'),
    );
    const json = await cdata(['auth', 'status', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      key: `${TOOL_KEY.slice(0, 12)}…`,
      keySource: 'key-command',
      keyCommand: tools.command('good'),
      error: null,
    });
    expect(tools.runs()).toBe(3); // login, and once per status
  });

  it('a key written into the command (echo svc_…) is redacted wherever the command is shown', async () => {
    const home = configHome();
    const env = { ...home.env, PATH };
    const key = demoKey('all');
    const command = `echo ${key}`;
    const login = await cdata(
      ['auth', 'login', '-p', 'e', '--base-url', sandbox.current.url, '--key-command', command],
      {
        env,
      },
    );
    expect(login.code).toBe(0);
    const shown = 'echo svc_***';
    const outputs = [
      await cdata(['auth', 'status', '-p', 'e'], { env }),
      await cdata(['auth', 'status', '-p', 'e', '--json'], { env }),
      await cdata(['profile', 'list', '-o', 'json'], { env }),
      await cdata(['profile', 'list', '-o', 'tsv'], { env }),
      await cdata(['config', 'list', '-p', 'e', '-o', 'tsv'], { env }),
      await cdata(['config', 'get', 'key-command', '-p', 'e'], { env }),
    ];
    for (const result of outputs) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(shown);
      expect(result.stdout + result.stderr).not.toContain(key.slice(4));
    }
    // In a failing command's hint too, also where the key follows a letter (printf '\nsvc_…').
    const failing = `printf '\\n${key}\\n'; exit 4`;
    expect((await cdata(['config', 'set', 'key-command', failing, '-p', 'e'], { env })).code).toBe(0);
    const failed = await cdata(['tenders', '-p', 'e'], { env });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain("hint: Run it yourself to see what it prints: printf '\\nsvc_***'; exit 4.");
    expect(failed.stderr).not.toContain(key.slice(4));
  });

  it('auth status with a failing command: the local part, then exit 3', async () => {
    const { home, tools, env } = await loggedIn();
    writeFileSync(
      home.file,
      JSON.stringify({
        profiles: { prod: { keyCommand: tools.command('bad'), baseUrl: sandbox.current.url } },
        defaultProfile: 'prod',
      }),
    );
    const result = await cdata(['auth', 'status'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(
      `key          - (printed by the profile's key command, which failed: see the error below)\nkey command  ${tools.command('bad')}\n`,
    );
    expect(result.stderr).toMatch(
      /^error: the key command of profile 'prod' did not print an API key on its first line/,
    );
  });

  it('auth status when CDATA_API_KEY wins: says so, and does not run the command', async () => {
    const { tools, env } = await loggedIn();
    const before = tools.runs();
    const result = await cdata(['auth', 'status'], { env: { ...env, CDATA_API_KEY: demoKey('tenders') } });
    expect(result.stdout).toContain(
      `key          ${demoKey('tenders').slice(0, 12)}… (from CDATA_API_KEY, which wins over the profile's key command)\nkey command  ${tools.command('good')}\n`,
    );
    expect(tools.runs()).toBe(before);
  });

  it('profile list marks such profiles; -o json carries the command', async () => {
    const { tools, env } = await loggedIn();
    const table = await cdata(['profile', 'list', '--color', 'never'], { env, stdoutTTY: true });
    expect(table.stdout.split('\n')[1]!.trimEnd()).toMatch(
      new RegExp(`^prod\\s+\\*\\s+${sandbox.current.url}\\s+\\(key command\\)$`),
    );
    const json = await cdata(['profile', 'list', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual([
      {
        name: 'prod',
        default: true,
        baseUrl: sandbox.current.url,
        key: null,
        keyCommand: tools.command('good'),
        output: null,
        timeout: null,
      },
    ]);
  });

  it('config set key-command stores it unchecked; get prints it; unset removes it', async () => {
    const home = configHome();
    const tools = secretTools();
    const env = { ...home.env, PATH };
    const set = await cdata(['config', 'set', 'key-command', tools.command('bad')], { env });
    expect(set).toMatchObject({
      code: 0,
      stderr:
        "Created profile 'default'.\nStored without running it: cdata auth status runs it and checks the key it prints.\n",
    });
    expect(tools.runs()).toBe(0);
    expect((await cdata(['config', 'get', 'key-command'], { env })).stdout).toBe(`${tools.command('bad')}\n`);
    expect((await cdata(['config', 'unset', 'key-command'], { env })).code).toBe(0);
    expect(home.read()).toEqual({ profiles: { default: {} } });
  });

  it('config set key-command on a profile that holds a key: exit 2, the key kept', async () => {
    const home = configHome();
    const env = { ...home.env, PATH };
    await cdata(['auth', 'login', '--base-url', sandbox.current.url], { stdin: demoKey('all'), env });
    const before = home.text();
    const result = await cdata(['config', 'set', 'key-command', 'pass show cdata/prod'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "error: profile 'default' holds a stored key; a profile holds a key or a key command, not both\nhint: cdata auth login --profile default --key-command CMD replaces the key once CMD has printed a key the API accepts (or cdata auth logout --profile default removes the key first).\n",
    );
    expect(home.text()).toBe(before);
  });

  it('config set key-command with a key in its place: exit 2, never echoed', async () => {
    const home = configHome();
    const result = await cdata(['config', 'set', 'key-command', demoKey('graph')], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: that is an API key, not a command that prints one');
    expect(existsSync(home.file)).toBe(false);
  });

  // As sh reads them, each of these is the key itself, run as a command's name.
  const quoted = (key: string) => [`'${key}'`, `"${key}"`, `"'${key}'"`, `\\${key}`, ` 'svc_'${key.slice(4)} `];

  it('config set key-command with a key in quotes: refused like a bare key, never echoed', async () => {
    const home = configHome();
    for (const value of quoted(demoKey('graph'))) {
      const result = await cdata(['config', 'set', 'key-command', value], { env: home.env });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        "error: that is an API key, not a command that prints one: the key is never taken on the command line\nhint: Give the command that prints the key, such as 'pass show cdata/prod'. If that was a real key, it may now be in your shell history: consider revoking it.\n",
      );
    }
    expect(existsSync(home.file)).toBe(false);
    // A command that merely holds a key, or quotes that sh would not take off, is a command.
    for (const value of [`echo '${demoKey('graph')}'`, `"${demoKey('graph')}`, `'$KEY'`]) {
      expect((await cdata(['config', 'set', 'key-command', value], { env: home.env })).code).toBe(0);
    }
  });

  it('a hand-edited key in quotes in the keyCommand field: never run, and shown masked', async () => {
    const home = configHome();
    const pasted = demoKey('all');
    for (const value of quoted(pasted)) {
      writeFileSync(
        home.file,
        JSON.stringify({ profiles: { prod: { keyCommand: value, baseUrl: sandbox.current.url } } }),
      );
      const before = sandbox.current.requests.length;
      const result = await cdata(['tenders', '-p', 'prod'], { env: { ...home.env, PATH } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error: the config file ${home.file} is not valid: profiles.prod.keyCommand cannot be run: that is an API key, not a command that prints one\n`,
      );
      expect(sandbox.current.requests.length).toBe(before);
      const got = await cdata(['config', 'get', 'key-command', '-p', 'prod'], { env: home.env });
      expect(got).toMatchObject({ code: 0, stdout: `${pasted.slice(0, 12)}…\n` });
      const listed = await cdata(['profile', 'list', '-o', 'json'], { env: home.env });
      expect(JSON.parse(listed.stdout)[0].keyCommand).toBe(`${pasted.slice(0, 12)}…`);
      const status = await cdata(['auth', 'status', '-p', 'prod', '-o', 'json'], { env: home.env });
      expect(JSON.parse(status.stdout).keyCommand).toBe(`${pasted.slice(0, 12)}…`);
      for (const shown of [result, got, listed, status])
        expect(shown.stdout + shown.stderr).not.toContain(pasted.slice(4));
    }
  });

  it('auth logout removes the command', async () => {
    const { home, env } = await loggedIn();
    const result = await cdata(['auth', 'logout'], { env });
    expect(result.stderr).toBe(
      "Removed the key command of profile 'prod'; its base URL and settings stay (cdata profile remove prod removes those too).\n",
    );
    expect(home.read().profiles).toEqual({ prod: { baseUrl: sandbox.current.url } });
  });

  it('a hand-edited profile with both a key and a command: exit 2 naming the file, which is left alone', async () => {
    const home = configHome();
    const text = JSON.stringify({ profiles: { prod: { key: demoKey('all'), keyCommand: 'pass show cdata/prod' } } });
    writeFileSync(home.file, text);
    for (const argv of [
      ['profile', 'list'],
      ['tenders', '-p', 'prod'],
      ['config', 'set', 'timeout', '5'],
    ]) {
      const result = await cdata(argv, { env: home.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error: the config file ${home.file} is not valid: profiles.prod holds both key and keyCommand: a profile holds one or the other\n`,
      );
    }
    expect(home.text()).toBe(text);
  });

  it('a hand-edited key in the keyCommand field: exit 2 where it would run (never run, never echoed); other profiles still work', async () => {
    const home = configHome();
    const pasted = demoKey('all');
    const text = JSON.stringify({
      profiles: { prod: { keyCommand: pasted, baseUrl: sandbox.current.url }, other: { baseUrl: sandbox.current.url } },
    });
    writeFileSync(home.file, text);
    const result = await cdata(['tenders', '-p', 'prod'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error: the config file ${home.file} is not valid: profiles.prod.keyCommand cannot be run: that is an API key, not a command that prints one\n`,
    );
    expect(result.stderr).not.toContain(pasted.slice(4));
    const listed = await cdata(['profile', 'list', '-o', 'json'], { env: home.env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)[0].keyCommand).toBe(`${pasted.slice(0, 12)}…`);
    const got = await cdata(['config', 'get', 'key-command', '-p', 'prod'], { env: home.env });
    expect(got).toMatchObject({ code: 0, stdout: `${pasted.slice(0, 12)}…\n` });
    const status = await cdata(['auth', 'status', '-p', 'prod', '-o', 'json'], { env: home.env });
    expect(JSON.parse(status.stdout).keyCommand).toBe(`${pasted.slice(0, 12)}…`);
    expect(home.text()).toBe(text);
  });
});
