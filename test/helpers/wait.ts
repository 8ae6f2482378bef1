// Waiting on an event the test cannot be called back for (a file appearing, a line on a stream
// another process writes), instead of sleeping a fixed time that a busy machine may outlast.
import { readdirSync, readlinkSync } from 'node:fs';

/** Resolves once `check()` is true, looking every 20 ms; fails, naming `what`, after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether process `pid` holds `path` open (Linux: /proc/PID/fd). */
export function holdsOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false; // closed while we looked
      }
    });
  } catch {
    return false; // not started yet, or gone
  }
}
