// A script's temp folder, removed when the script ends however it ends: done, failed (an
// uncaught error still runs 'exit' handlers), or stopped by Ctrl-C, SIGTERM or a closed terminal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempFolder(prefix) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(path, { recursive: true, force: true }));
  // A signal's default action ends the process without 'exit' handlers: end it ourselves instead.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    if (process.listenerCount(signal) === 0) process.once(signal, () => process.exit(code));
  }
  return path;
}
