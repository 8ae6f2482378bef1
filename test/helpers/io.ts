// An Io for in-process runs of `main`: captured stdout/stderr, a chosen env and terminal, an
// instant sleep that records what was asked, a deterministic random, and a way to "press Ctrl-C".
import { Readable } from 'node:stream';
import type { Io, OutStream } from '../../src/io/index.js';

export interface TestIoOptions {
  env?: Record<string, string | undefined>;
  /** stdin text; a TTY stdin when undefined and `stdinTTY` is true. */
  stdin?: string;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  columns?: number;
  now?: () => number;
  random?: () => number;
  /** Use real timers for sleep (default: instant, recorded in `sleeps`). */
  realSleep?: boolean;
  /** Called with each sleep's ms, before it: what would have happened meanwhile (a lock's holder refreshing it). */
  onSleep?: (ms: number) => void;
  /** The terminal's height (stdout's rows, and stderr's): data longer than this is paged. */
  rows?: number;
}

export interface TestIo {
  io: Io;
  stdout(): string;
  stderr(): string;
  /** Every sleep the code asked for, in ms. */
  sleeps: number[];
  /** Every pager run: its command; the text reaches stdout, as through `cat`. */
  pagers: string[];
  /** Runs the interrupt cleanups, as bin/cdata.js does on SIGINT. */
  interrupt(): void;
}

function capture(isTTY: boolean, columns: number | undefined, rows?: number): OutStream & { text: string } {
  const stream = {
    text: '',
    isTTY,
    columns,
    rows,
    write(chunk: string, done?: (error?: Error | null) => void) {
      stream.text += chunk;
      if (done) queueMicrotask(done);
      return true;
    },
  };
  return stream;
}

export function testIo(options: TestIoOptions = {}): TestIo {
  const stdout = capture(options.stdoutTTY ?? false, options.columns, options.rows);
  const stderr = capture(options.stderrTTY ?? false, options.columns, options.rows);
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]), {
    isTTY: options.stdinTTY ?? false,
  });
  const sleeps: number[] = [];
  const pagers: string[] = [];
  const cleanups = new Set<() => void>();
  const io: Io = {
    stdout,
    stderr,
    stdin,
    // A terminal names itself in TERM, as every terminal emulator does; a test of one that does
    // not gives `TERM: undefined`.
    env: { ...(options.stdoutTTY || options.stderrTTY ? { TERM: 'xterm-256color' } : {}), ...options.env },
    now: options.now ?? Date.now,
    random: options.random ?? (() => 0.5),
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      options.onSleep?.(ms);
      if (options.realSleep) await new Promise((resolve) => setTimeout(resolve, ms));
      if (signal?.aborted) throw signal.reason;
    },
    onInterrupt(cleanup) {
      cleanups.add(cleanup);
      return () => cleanups.delete(cleanup);
    },
    async runPager(command, text) {
      pagers.push(command);
      stdout.write(text);
      return true;
    },
  };
  return {
    io,
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    sleeps,
    pagers,
    interrupt() {
      for (const cleanup of [...cleanups].reverse()) cleanup(); // the last registered first, as io.ts runs them
      cleanups.clear();
    },
  };
}
