// A key from the user's own secret tool (docs/keys-and-profiles.md), as the AWS CLI's
// credential_process: the profile's command runs through /bin/sh -c with stdin closed, and the
// first line it prints is the key. Loaded only by the commands that send a request with it.
//
// It runs as the leader of its own process group (spawn's `detached`), and that whole group is
// ended once cdata has what it needs: when the shell exits (a child it left in the background,
// `(agent &)`, goes with it), when it has printed its first line and lingers on, at a timeout, a
// flood or Ctrl-C. Only a process that left the group (setsid) outlives it.
// What it prints is read with caps: a tool that floods cannot grow cdata's memory.
import type { ChildProcess } from 'node:child_process';
import { AuthError } from '../core/errors.js';
import { sanitize } from '../core/sanitize.js';
import type { Io } from '../io/index.js';
import { keyProblem, REDACTED_KEY, redactKeys } from './key.js';

/** Long enough for a password manager to answer, short enough that cron notices a hang. */
export const KEY_COMMAND_TIMEOUT_MS = 10_000;
/** Far more than any key (the limit auth login puts on stdin); past it the command is stopped. */
export const MAX_KEY_COMMAND_OUTPUT = 64 * 1024;
/** What is kept of its stderr; the rest is read and dropped. */
const MAX_STDERR_BYTES = 16 * 1024;
/** Lines of its stderr quoted in the error, each cut to a line's width. */
const STDERR_LINES = 5;
const STDERR_LINE_CHARS = 160;
/**
 * How long its output may stay open once it has exited (or been stopped) before cdata stops
 * reading: a process it left behind (an agent it started) may hold stdout open for ever.
 */
const OUTPUT_GRACE_MS = 1000;
/**
 * How long the command may run on once its first line (the key) is read: time to exit, so that
 * its exit status counts. Past it the group is ended and the key taken: nothing more is needed.
 */
export const FIRST_LINE_GRACE_MS = 1000;

export interface KeyCommandOptions {
  command: string;
  io: Pick<Io, 'env' | 'onInterrupt' | 'stderr'>;
  /** The profile it is stored in, for messages; undefined while auth login checks a new one. */
  profile?: string | undefined;
  /** --debug: what runs and how it ended on stderr, never the key (nor anything shaped like one). */
  debug?: boolean;
  /** Tests shorten it; the product always waits KEY_COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** How the command ended, and what it printed (capped). */
interface Ending {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  /** Why cdata stopped it, when it did (`read`: its first line was in, and it ran on). */
  stopped: 'timeout' | 'flood' | 'interrupt' | 'read' | undefined;
  /** It could not be started at all. */
  error: Error | undefined;
}

/** The key the command prints; an AuthError (exit 3) that never holds that key when it fails. */
export async function runKeyCommand(options: KeyCommandOptions): Promise<string> {
  const { command, profile, io } = options;
  const trace = options.debug
    ? (line: string) => void io.stderr.write(`[debug] ${sanitize(redactKeys(line, []))}\n`)
    : undefined;
  const timeoutMs = options.timeoutMs ?? KEY_COMMAND_TIMEOUT_MS;
  trace?.(
    `key command${profile === undefined ? '' : ` of profile '${profile}'`}: /bin/sh -c '${command.replace(/'/g, `'\\''`)}'`,
  );
  const started = Date.now();
  const ending = await execute(command, io, timeoutMs);
  const firstLine = ending.stdout.toString('utf8').split('\n', 1)[0]!.trim();
  trace?.(`key command: ${howItEnded(ending, timeoutMs)} after ${Date.now() - started} ms`);

  const failure = whatFailed(ending, firstLine, timeoutMs);
  if (failure === undefined) {
    trace?.(`key command: the first line is a key (${REDACTED_KEY})`);
    return firstLine;
  }
  const said = quoteStderr(redactKeys(ending.stderr.toString('utf8'), [firstLine]));
  const subject = profile === undefined ? 'the key command' : `the key command of profile '${profile}'`;
  throw new AuthError(`${subject} ${failure}${said}`, { hint: hintFor(ending, command, profile) });
}

/** Why the outcome gives no key, or undefined when the first line is one. Never quotes the line. */
function whatFailed(ending: Ending, firstLine: string, timeoutMs: number): string | undefined {
  if (ending.error) return `could not be started: ${ending.error.message}`;
  if (ending.stopped === 'timeout') return `did not finish within ${seconds(timeoutMs)}, so it was stopped`;
  if (ending.stopped === 'flood')
    return `printed more than ${MAX_KEY_COMMAND_OUTPUT / 1024} KiB, far more than a key, so it was stopped`;
  if (ending.stopped === 'interrupt') return 'was stopped: cdata was interrupted';
  // Stopped after its first line: it had not failed by then, and its status is cdata's SIGKILL.
  if (ending.stopped !== 'read') {
    if (ending.signal !== null) return `was ended by ${ending.signal}`;
    if (ending.status !== 0) return `failed with exit status ${ending.status}`;
  }
  if (ending.stdout.toString('utf8').trim() === '') return 'printed nothing on stdout (exit status 0)';
  const problem = keyProblem(firstLine);
  return problem === undefined ? undefined : `did not print an API key on its first line: ${problem}`;
}

function howItEnded(ending: Ending, timeoutMs: number): string {
  if (ending.error) return 'not started';
  if (ending.stopped === 'timeout') return `stopped at the ${seconds(timeoutMs)} timeout`;
  if (ending.stopped === 'flood') return 'stopped: too much output';
  if (ending.stopped === 'interrupt') return 'stopped: interrupted';
  if (ending.stopped === 'read')
    return `still running ${seconds(FIRST_LINE_GRACE_MS)} after its first line, so stopped`;
  return ending.signal !== null ? `ended by ${ending.signal}` : `exit status ${ending.status}`;
}

function hintFor(ending: Ending, command: string, profile: string | undefined): string {
  const change = profile === undefined ? '' : ` Change it with: cdata config set key-command CMD --profile ${profile}.`;
  if (ending.stopped === 'timeout') {
    return `It runs with stdin closed and no terminal, so it cannot ask for a password: unlock the password manager first (docs/keys-and-profiles.md has a recipe per tool).${change}`;
  }
  return `Run it yourself to see what it prints: ${command}. The first line of its output must be the key (svc_…).${change}`;
}

/** `: it said: line | line (and 3 more lines)`, or nothing when it said nothing. */
function quoteStderr(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return '';
  const shown = lines
    .slice(0, STDERR_LINES)
    .map((line) => (line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line));
  const more = lines.length - shown.length;
  return `; it said: ${shown.join(' | ')}${more > 0 ? ` (and ${more} more line${more === 1 ? '' : 's'})` : ''}`;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/**
 * Runs the command to its end, or to a little after its first line, or stops it at the deadline
 * or Ctrl-C; in every case its whole process group is ended before this resolves.
 */
function execute(command: string, io: KeyCommandOptions['io'], timeoutMs: number): Promise<Ending> {
  // The build replaces imports of child_process with an empty module (scripts/never-used.mjs).
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    const stdout = new CappedBuffer(MAX_KEY_COMMAND_OUTPUT);
    const stderr = new CappedBuffer(MAX_STDERR_BYTES);
    let stopped: Ending['stopped'];
    let error: Error | undefined;
    let child: ChildProcess;
    try {
      child = spawn('/bin/sh', ['-c', command], {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: { ...io.env },
      });
    } catch (thrown) {
      resolve({
        status: null,
        signal: null,
        stdout: stdout.bytes(),
        stderr: stderr.bytes(),
        stopped,
        error: thrown instanceof Error ? thrown : new Error(String(thrown)),
      });
      return;
    }
    const stopReading = () => {
      setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
      }, OUTPUT_GRACE_MS).unref();
    };
    const stop = (why: NonNullable<Ending['stopped']>) => {
      if (stopped) return;
      stopped = why;
      killGroup(child);
      stopReading(); // in case something outside the group (setsid) holds its output
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    let lingering: NodeJS.Timeout | undefined;
    // Ctrl-C or SIGTERM: cdata exits right after its cleanups, and the group goes with it.
    const unregister = io.onInterrupt(() => stop('interrupt'));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!stdout.add(chunk)) return stop('flood');
      if (lingering === undefined && chunk.includes(0x0a))
        lingering = setTimeout(() => stop('read'), FIRST_LINE_GRACE_MS);
    });
    child.stderr!.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('error', (failed) => (error ??= failed));
    child.on('exit', () => {
      // What the shell started and left running (`(agent &)`, a pipeline's tail) goes with it:
      // its first line, if any, is already in the pipe, and cdata needs nothing more of it.
      killGroup(child);
      stopReading();
    });
    // 'close': it has exited and its output is read to the end, or to the grace's end.
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      clearTimeout(lingering);
      unregister();
      resolve({
        status,
        signal,
        stdout: stdout.bytes(),
        stderr: stderr.bytes(),
        stopped,
        error: child.pid === undefined ? error : undefined,
      });
    });
  });
}

/** SIGKILL to the whole group the command leads: a tool that hung has had its chance to end well. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

/** Bytes up to a cap; `add` says false once past it (the rest is dropped). */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): boolean {
    const room = this.cap - this.size;
    if (room > 0) this.chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    this.size += chunk.length;
    return this.size <= this.cap;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
