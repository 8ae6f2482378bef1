// The built binary under watch, for the tests of --query's bounds (query-bounds.test.ts,
// query-cap.heavy.test.ts): its output, its exit, and its peak memory while it runs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { onTestFinished } from 'vitest';
import { BIN } from '../helpers/spawn.js';

/**
 * The built binary, its peak memory (VmHWM, every thread's) read from /proc while it runs;
 * `answered` resolves when --debug says the answer is in.
 */
export function watched(argv: string[], configDir: string) {
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { PATH: process.env.PATH ?? '', CDATA_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let stdout = '';
  let stderr = '';
  let onAnswer: () => void;
  const answered = new Promise<void>((resolve) => (onAnswer = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (/\[debug\] < HTTP \d+ in /.test(stderr)) onAnswer();
  });
  let peakKiB = 0;
  const poll = setInterval(() => {
    try {
      const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
    } catch {
      // Gone: its last reading stands.
    }
  }, 50);
  const deaf = setTimeout(() => child.kill('SIGKILL'), 100_000);
  const ended = (async () => {
    const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    clearInterval(poll);
    clearTimeout(deaf);
    return { code, signal, stdout, stderr: stderr.replace(/^\[debug\].*\n/gm, ''), peakMiB: peakKiB / 1024 };
  })();
  return { child, answered, ended };
}
