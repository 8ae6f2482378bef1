// What a command sees of the process: its streams, environment and terminal (src/io/index.ts
// makes the real one; tests pass their own).
export interface OutStream {
  /** `done` is called once the text is written (with the error, when it could not be). */
  write(text: string, done?: (error?: Error | null) => void): unknown;
  /** A stream (a pipe) holding more than it should of what was written: wait for 'drain' before writing more. */
  writableNeedDrain?: boolean | undefined;
  once?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
  /** A terminal's height: data longer than this goes through a pager. */
  rows?: number | undefined;
}

export interface InStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean | undefined;
  setRawMode?(mode: boolean): unknown;
  on?(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  removeListener?(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  pause?(): unknown;
  resume?(): unknown;
}

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1): backoff jitter and the sandbox's fail rate use it. */
  random(): number;
  /** Registers a cleanup that runs if the process is interrupted (SIGINT/SIGTERM); returns its remover. */
  onInterrupt(cleanup: () => void): () => void;
  /**
   * Shows `text` through the pager `command` (run by sh, on stdout's terminal), and resolves when
   * it has exited; false when it could not be run (not found), and nothing was shown.
   */
  runPager(command: string, text: string): Promise<boolean>;
}
