// Everything cdata touches outside itself, in one object. bin/ passes the process-backed one;
// tests pass their own (test/helpers/io.ts) and run `main` in-process.

export type { InStream, Io, OutStream } from './types.js';
import type { InStream, Io, OutStream } from './types.js';

/** Resolves once `stream` has passed on what it held (at once when it holds nothing, or has closed). */
export async function drained(stream: OutStream): Promise<void> {
  if (!stream.writableNeedDrain || !stream.once || !stream.off) return;
  const events = ['drain', 'close', 'error'] as const;
  let done!: () => void;
  await new Promise<void>((resolve) => {
    done = resolve;
    for (const event of events) stream.once!(event, done);
  });
  // The two that did not come are not left behind (a listener a batch would pile up).
  for (const event of events) stream.off(event, done);
}

/** All of stdin as bytes, or undefined when it holds more than `maxBytes` (a file piped by mistake). */
export async function readStdin(stdin: InStream, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxBytes) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Whether a terminal can do what a terminal draws. TERM=dumb (Emacs' shell, some CI consoles)
 * says it cannot; an unset or empty TERM (`env -i`, a service manager given a terminal) says
 * nothing, and is read as dumb too, as chalk reads it for colour (less stops there to say the
 * terminal is not fully functional). Not on Windows, whose consoles set no TERM: there only
 * `dumb` is.
 */
export function termNamed(env: Io['env'], platform: NodeJS.Platform = process.platform): boolean {
  if (env.TERM === 'dumb') return false;
  return platform === 'win32' || (env.TERM !== undefined && env.TERM !== '');
}

/**
 * Whether `stream` is a terminal that can move its cursor: what is drawn in place (the wait
 * spinner, export progress) and the pager need one. A dumb terminal (termNamed) cannot: nothing
 * is drawn in place there and no pager is started, whatever the pager setting. Notes and colours
 * follow their own rules.
 */
export function canRedraw(io: Pick<Io, 'env'>, stream: OutStream): boolean {
  return stream.isTTY === true && termNamed(io.env);
}

const interruptCleanups = new Set<() => void>();

/**
 * Runs every registered cleanup, the last registered first, as finally blocks unwind (an export's
 * generation goes before its lock is released, the lock before the folder made for it);
 * bin/cdata.js calls it on SIGINT, SIGTERM and SIGHUP.
 */
export function runInterruptCleanups(): void {
  for (const cleanup of [...interruptCleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // Best effort: the process is going away.
    }
  }
  interruptCleanups.clear();
}

export function processIo(): Io {
  const io: Io = {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: creating process.stdin costs ~3 ms, and only auth login and webhook commands read it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    now: () => Date.now(),
    sleep,
    random: Math.random,
    onInterrupt(cleanup) {
      interruptCleanups.add(cleanup);
      return () => interruptCleanups.delete(cleanup);
    },
    async runPager(command, text) {
      return (await import('./pager.js')).runPager(command, text, io);
    },
  };
  return io;
}
