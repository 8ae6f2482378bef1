// The hidden prompt: in-process with a stand-in terminal (what raw mode receives, key by key),
// and end to end under a real pseudo-terminal, where the transcript shows what a screen would.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { TENANT } from '../../src/sandbox/vocabulary.js';
import { testIo } from '../helpers/io.js';
import { runWith } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { screen } from '../helpers/screen.js';
import { BIN, shellQuote } from '../helpers/spawn.js';
import { configHome, expectNoKey } from './harness.js';

const sandbox = useSandbox();
const ALL = demoKey('all');

/** Runs `auth login` with a terminal on stdin that, once in raw mode, receives `keys` chunk by chunk. */
async function loginAtTerminal(keys: string[]) {
  const home = configHome();
  const test = testIo({ env: home.env, stderrTTY: true });
  const rawModes: boolean[] = [];
  const terminal = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      if (mode) setImmediate(() => keys.forEach((chunk) => terminal.write(chunk)));
      return terminal;
    },
  });
  test.io.stdin = terminal;
  const result = await runWith(test, ['auth', 'login', '--base-url', sandbox.current.url]);
  expectNoKey(result);
  return { ...result, rawModes, home };
}

describe('auth login at a terminal (in-process)', () => {
  it('reads the key in raw mode, then restores the terminal', async () => {
    const result = await loginAtTerminal([ALL, '\r']);
    expect(result.code).toBe(0);
    expect(result.rawModes).toEqual([true, false]);
    // As the terminal shows it: a slow /me may have drawn the wait's spinner, and cleared it.
    expect(screen(result.stderr)).toBe(
      `API key for profile 'default' (input hidden):\nLogged in to ${TENANT} as Sandbox: all scopes (profile default).`,
    );
    expect((result.home.read().profiles as Record<string, { key: string }>).default!.key).toBe(ALL);
  });

  it('handles backspace (DEL and ^H), Ctrl-U and a key split over chunks', async () => {
    const result = await loginAtTerminal(['junk\u0015', ALL.slice(0, 10), 'xy\u007f\b', ALL.slice(10), '\n']);
    expect(result.code).toBe(0);
    expect((result.home.read().profiles as Record<string, { key: string }>).default!.key).toBe(ALL);
  });

  it('Ctrl-C cancels: exit 130, nothing stored, terminal restored', async () => {
    const result = await loginAtTerminal([ALL.slice(0, 8), '\u0003']);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Login cancelled; nothing stored.');
    expect(result.rawModes).toEqual([true, false]);
    expect(existsSync(result.home.file)).toBe(false);
  });

  it('Enter on nothing: exit 2, the key is empty', async () => {
    const result = await loginAtTerminal(['\r']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: the key is empty; nothing stored');
  });

  it('an escape sequence typed in (an arrow key) is refused as control characters', async () => {
    const result = await loginAtTerminal([ALL, '\u001b[D', '\r']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: the key holds control characters; nothing stored');
  });
});

/**
 * `cdata auth login` under `script` (a real pseudo-terminal): keys are written only once the
 * prompt is on screen, as a person types. Returns everything the terminal showed.
 */
function loginInPty(env: Record<string, string>, keys: string): Promise<{ code: number | null; transcript: string }> {
  const line = `${shellQuote(process.execPath)} ${shellQuote(BIN)} auth login --base-url ${shellQuote(sandbox.current.url)}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', line, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm-256color', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let transcript = '';
    let typed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      transcript += chunk;
      if (!typed && transcript.includes('(input hidden): ')) {
        typed = true;
        child.stdin.write(keys);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, transcript });
    });
  });
}

describe('auth login under a pseudo-terminal (the built binary)', () => {
  it('prompts, and the key never shows on the terminal', async () => {
    const home = configHome();
    const { code, transcript } = await loginInPty(home.env, `${ALL}\r`);
    expect(code).toBe(0);
    expect(transcript).toContain("API key for profile 'default' (input hidden): ");
    expect(transcript).toContain(`Logged in to ${TENANT}`);
    expect(transcript).not.toContain(ALL);
    expect(transcript).not.toContain(ALL.slice(4, 16)); // not even in part
    expect((home.read().profiles as Record<string, { key: string }>).default!.key).toBe(ALL);
  });

  it('Ctrl-C at the prompt: exit 130, nothing stored', async () => {
    const home = configHome();
    const { code, transcript } = await loginInPty(home.env, `${ALL.slice(0, 10)}\u0003`);
    expect(code).toBe(130);
    expect(transcript).toContain('Login cancelled; nothing stored.');
    expect(transcript).not.toContain(ALL.slice(0, 10));
    expect(existsSync(home.file)).toBe(false);
  });
});
