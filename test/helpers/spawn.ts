// Runs the built bin/cdata.js as a user would (after `npm run build`): a child process, or one
// under a pseudo-terminal via `script -qc` when the point is what a terminal shows.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/cdata.js', import.meta.url));

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runBin(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<SpawnResult> {
  return runProcess(process.execPath, [BIN, ...args], options);
}

export function runProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<SpawnResult> {
  const started = startProcess(command, args, options);
  started.child.stdin.end(options.input ?? '');
  return started.done;
}

export interface Started {
  child: ChildProcessWithoutNullStreams;
  /** What it has written so far. */
  stdout(): string;
  done: Promise<SpawnResult>;
}

/** Starts a process whose stdin stays open for the test to write to. */
export function startProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; timeoutMs?: number; cwd?: string } = {},
): Started {
  const child = spawn(command, args, {
    cwd: options.cwd,
    // TMPDIR: the child's temp files go in the run's temp root too (test/helpers/temp-root.ts).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: tmpdir(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A child that exits before reading its stdin closes the pipe: not a test failure.
  child.stdin.on('error', () => undefined);
  const done = new Promise<SpawnResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stdout: () => stdout, done };
}

/**
 * A `cdata` command in `folder`, as an install puts one on PATH: a script of its own that runs
 * bin/cdata.js with this Node. Not a link to bin/cdata.js: a copy of the tree (Stryker's
 * sandbox) may not keep that file's executable bit.
 */
export function installCdata(folder: string): void {
  const file = join(folder, 'cdata');
  writeFileSync(file, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(BIN)} "$@"\n`);
  chmodSync(file, 0o755);
}

/** Single-quotes a word for sh. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs cdata under a pseudo-terminal of the given width (`script -qc`), so stdout is a TTY.
 * Returns everything the terminal received (stdout and stderr together, CRLF line ends).
 * `redirect` takes one stream off the terminal: `{ stdout: FILE }` or `{ stderr: FILE }`.
 */
export function runBinInTerminal(args: string[], options: TerminalOptions = {}): Promise<SpawnResult> {
  const session = startBinInTerminal(args, options);
  session.child.stdin.end();
  return session.done;
}

export interface TerminalOptions {
  env?: Record<string, string | undefined>;
  columns?: number;
  redirect?: { stdout?: string; stderr?: string };
  timeoutMs?: number;
}

/**
 * As runBinInTerminal, with the keyboard left open: what the test writes to `child.stdin` is
 * typed at the terminal (`\u0003` is Ctrl-C, which the terminal turns into SIGINT).
 */
export function startBinInTerminal(args: string[], options: TerminalOptions = {}): Started {
  const { stdout, stderr } = options.redirect ?? {};
  const redirect = `${stdout ? ` > ${shellQuote(stdout)}` : ''}${stderr ? ` 2> ${shellQuote(stderr)}` : ''}`;
  const line = `stty cols ${options.columns ?? 100} rows 50; exec ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}${redirect}`;
  return startProcess('script', ['-qec', line, '/dev/null'], {
    env: { TERM: 'xterm-256color', ...options.env },
    timeoutMs: options.timeoutMs,
  });
}

/**
 * Runs the binary as an ordinary user, to whom permission bits apply. Root ignores them (CI
 * containers run as root), so as root the binary runs through setpriv with every capability
 * dropped: still uid 0, so it can reach the checkout and the test's folders however private
 * (a 0700 clone, a 0700 TMPDIR), but a 0555 folder or a 0444 file now stops it as it would
 * stop their owner. Not as root, it runs as ourselves.
 */
export function runBinAsUser(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<SpawnResult> {
  if (process.getuid?.() !== 0) return runBin(args, options);
  return runProcess('setpriv', ['--inh-caps=-all', '--bounding-set=-all', process.execPath, BIN, ...args], options);
}

/** The uid and gid of `nobody`, the other user runBinAsNobody runs as. */
export const NOBODY = 65_534;

/**
 * Runs the binary as another user, `nobody`, where a test needs a second owner (one user's files
 * handed to another). As root only (elsewhere: as ourselves, who own what the test made).
 *
 * The checkout may be private (a 0700 clone), so nobody keeps one capability, CAP_DAC_READ_SEARCH:
 * it can read the package anywhere, but writes only where permission bits let nobody write, which
 * is what these tests are about. access(2) ignores capabilities, though, and cdata asks it before
 * writing: so for the run, the run's temp root and the folders above it (TMPDIR may be a 0700
 * `mktemp -d` folder, as in CI) may be entered by others (o+x: entered, not listed), as they are
 * on a machine where TMPDIR is /tmp; their modes are put back when the run ends.
 */
export async function runBinAsNobody(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<SpawnResult> {
  if (process.getuid?.() !== 0) return runBin(args, options);
  const user = [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
  const reach = [
    '--inh-caps=-all,+dac_read_search',
    '--ambient-caps=+dac_read_search',
    '--bounding-set=-all,+dac_read_search',
  ];
  const restore = enterable(tmpdir());
  try {
    return await runProcess('setpriv', [...user, ...reach, process.execPath, BIN, ...args], options);
  } finally {
    restore();
  }
}

/** Lets others enter `path` and every folder above it; returns what puts their modes back. */
function enterable(path: string): () => void {
  const changed: Array<[string, number]> = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    const mode = statSync(folder).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(folder, mode | 0o001);
      changed.push([folder, mode]);
    }
    if (folder === dirname(folder)) break;
  }
  return () => {
    for (const [folder, mode] of changed) chmodSync(folder, mode);
  };
}
