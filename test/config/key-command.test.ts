// Running a key command (src/config/key-command.ts) against small scripts standing in for a
// password manager: what is taken as the key, and every way it can fail, each an AuthError (exit
// 3) that names what happened and never holds the key. Shorter timeouts than the product's 10 s
// keep the hanging case quick; the binary is tested at the real one (test/auth/key-command-bin).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_LINE_GRACE_MS, KEY_COMMAND_TIMEOUT_MS, runKeyCommand } from '../../src/config/key-command.js';
import { AuthError } from '../../src/core/errors.js';
import { running, secretTools, TOOL_KEY, type ToolName } from '../auth/secret-tools.js';
import { testIo } from '../helpers/io.js';
import { until } from '../helpers/wait.js';

const tools = secretTools();

function io() {
  return testIo({ env: { PATH: process.env.PATH } });
}

async function failure(name: ToolName, options: { timeoutMs?: number; debug?: boolean } = {}) {
  const test = io();
  const error = await runKeyCommand({ command: tools.command(name), io: test.io, profile: 'prod', ...options }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  const { message, hint, exitCode } = error as AuthError;
  expect(exitCode).toBe(3);
  expect(`${message}\n${hint}\n${test.stderr()}`).not.toContain(TOOL_KEY);
  return { message, hint: hint ?? '', stderr: test.stderr() };
}

describe('a key command', () => {
  it('waits 10 s by default', () => {
    expect(KEY_COMMAND_TIMEOUT_MS).toBe(10_000);
  });

  it('gives the first line of its output, trimmed', async () => {
    expect(await runKeyCommand({ command: tools.command('good'), io: io().io })).toBe(TOOL_KEY);
    expect(await runKeyCommand({ command: tools.command('extra'), io: io().io })).toBe(TOOL_KEY);
  });

  it('runs through /bin/sh -c, so pipes and quoting work as in a shell', async () => {
    const command = `printf 'x\\n%s\\n' '${TOOL_KEY}' | tail -n 1`;
    expect(await runKeyCommand({ command, io: io().io })).toBe(TOOL_KEY);
  });

  it('has stdin closed: a tool that reads it gets end-of-file, not what cdata was given', async () => {
    const test = testIo({ env: { PATH: process.env.PATH }, stdin: 'svc_fromcdatasstdin0123456789\n' });
    expect(await runKeyCommand({ command: tools.command('stdin'), io: test.io })).toBe(TOOL_KEY);
  });

  it('failing: exit 3 with its exit status and its first stderr lines, the key it printed redacted', async () => {
    const { message, hint } = await failure('fail');
    expect(message).toBe(
      "the key command of profile 'prod' failed with exit status 4; it said: Error: cdata/prod is not in the password store. | a key it saw: svc_*** | line 3 | line 4 | line 5 (and 2 more lines)",
    );
    expect(hint).toBe(
      `Run it yourself to see what it prints: ${tools.command('fail')}. The first line of its output must be the key (svc_…). Change it with: cdata config set key-command CMD --profile prod.`,
    );
  });

  it('hanging: stopped at the timeout with its whole process group, so no child is left behind', async () => {
    const started = Date.now();
    const { message, hint } = await failure('hang', { timeoutMs: 500 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(message).toBe(
      "the key command of profile 'prod' did not finish within 0.5 s, so it was stopped; it said: unlock the vault:",
    );
    expect(hint).toContain('It runs with stdin closed and no terminal, so it cannot ask for a password');
    const [shell, sleep] = tools.pids();
    await until(() => !running(shell!) && !running(sleep!), 'the hanging tool and its background sleep to end');
  });

  it('stopped by Ctrl-C while it runs, with its process group', async () => {
    const test = io();
    const pids = secretTools();
    const result = runKeyCommand({ command: pids.command('hang'), io: test.io, profile: 'prod' }).catch(
      (error: unknown) => error,
    );
    await until(pids.hanging, 'the hanging tool to start its background sleep');
    test.interrupt();
    expect(((await result) as AuthError).message).toBe(
      "the key command of profile 'prod' was stopped: cdata was interrupted; it said: unlock the vault:",
    );
    const [shell, sleep] = pids.pids();
    await until(() => !running(shell!) && !running(sleep!), 'the interrupted tool and its background sleep to end');
  });

  it('that has exited: what it left running in the background goes with it (its process group)', async () => {
    const pids = secretTools();
    const pidFile = `${pids.dir}/background`;
    // `( … &)`: the sleep's parent, the subshell, exits at once; init adopts it, in the same group.
    const command = `(sleep 300 & echo $! > '${pidFile}'); echo '${TOOL_KEY}'`;
    expect(await runKeyCommand({ command, io: io().io })).toBe(TOOL_KEY);
    const sleep = Number(readFileSync(pidFile, 'utf8'));
    try {
      await until(() => !running(sleep), 'the background sleep to end');
    } finally {
      if (running(sleep)) process.kill(sleep, 'SIGKILL');
    }
  });

  it(`that runs on after its first line: stopped ${FIRST_LINE_GRACE_MS / 1000} s later with its group, and its key taken`, async () => {
    const test = io();
    const pids = secretTools();
    const pidFile = `${pids.dir}/lingering`;
    const command = `sleep 300 & echo "$$ $!" > '${pidFile}'; echo '${TOOL_KEY}'; echo 'copied to the clipboard' >&2; wait`;
    const started = Date.now();
    expect(await runKeyCommand({ command, io: test.io, debug: true })).toBe(TOOL_KEY);
    expect(Date.now() - started).toBeGreaterThanOrEqual(FIRST_LINE_GRACE_MS);
    expect(
      test
        .stderr()
        .replace(/after \d+ ms/, 'after N ms')
        .split('\n')
        .slice(1),
    ).toEqual([
      '[debug] key command: still running 1 s after its first line, so stopped after N ms',
      '[debug] key command: the first line is a key (svc_***)',
      '',
    ]);
    // The shell leads the group; its sleep is gone with it.
    const [shell, sleep] = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    await until(() => !running(shell!) && !running(sleep!), 'the shell and its sleep to end');
  });

  it('that exits soon after its first line: its exit status still counts', async () => {
    const command = `echo '${TOOL_KEY}'; sleep 0.2; echo 'the vault is locked' >&2; exit 5`;
    const error = (await runKeyCommand({ command, io: io().io }).catch((e: unknown) => e)) as AuthError;
    expect(error.message).toBe('the key command failed with exit status 5; it said: the vault is locked');
  });

  it.each([
    ['has exited, its key is taken', `echo '${TOOL_KEY}'`, 5000],
    ['hangs, it is stopped at the deadline', 'sleep 300', 300],
  ])('a process that left its group holding stdout open: once the command %s', async (_name, end, timeoutMs) => {
    const pids = secretTools();
    const pidFile = `${pids.dir}/escaped`;
    // setsid: a new session and group (an agent the tool starts), out of reach of the group kill.
    const command = `setsid sleep 300 & echo $! > '${pidFile}'; ${end}`;
    const started = Date.now();
    const outcome = await runKeyCommand({ command, io: io().io, timeoutMs }).catch((error: AuthError) => error.message);
    try {
      expect(outcome).toBe(
        timeoutMs === 300 ? 'the key command did not finish within 0.3 s, so it was stopped' : TOOL_KEY,
      );
      expect(Date.now() - started).toBeLessThan(timeoutMs + 4000);
    } finally {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });

  it.each([
    ['bad', "did not print an API key on its first line: an API key starts with 'svc_'; this one does not"],
    ['empty', 'printed nothing on stdout (exit status 0)'],
    ['flood', 'printed more than 64 KiB, far more than a key, so it was stopped'],
  ] as const)('%s: exit 3, saying what it did', async (name, what) => {
    const { message } = await failure(name);
    expect(message).toBe(`the key command of profile 'prod' ${what}`);
    expect(message).not.toContain('hunter2');
  });

  it('ended by a signal: says which', async () => {
    // The signal reaches the shell cdata started itself (a script run from it would be its child,
    // and the shell would report that child's end as exit status 143).
    const error = (await runKeyCommand({ command: "echo 'it crashed' >&2; kill -SEGV $$", io: io().io }).catch(
      (e: unknown) => e,
    )) as AuthError;
    expect(error.message).toBe('the key command was ended by SIGSEGV; it said: it crashed');
  });

  it('that cannot be started says so (no process takes an argument holding NUL)', async () => {
    const error = (await runKeyCommand({ command: 'echo \u0000', io: io().io }).catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toMatch(/^the key command could not be started: .*null bytes/);
  });

  it('--debug says what runs and how it ended, never the key', async () => {
    const test = io();
    await runKeyCommand({ command: tools.command('good'), io: test.io, profile: 'prod', debug: true });
    const lines = test
      .stderr()
      .replace(/after \d+ ms/, 'after N ms')
      .split('\n');
    expect(lines).toEqual([
      `[debug] key command of profile 'prod': /bin/sh -c '${tools.command('good').replace(/'/g, `'\\''`)}'`,
      '[debug] key command: exit status 0 after N ms',
      '[debug] key command: the first line is a key (svc_***)',
      '',
    ]);
  });

  it('without a profile (auth login checking one) it is "the key command"', async () => {
    const error = (await runKeyCommand({ command: tools.command('bad'), io: io().io }).catch(
      (e: unknown) => e,
    )) as AuthError;
    expect(error.message).toMatch(/^the key command did not print an API key/);
    expect(error.hint).not.toContain('config set');
  });
});
