// The pager as a process: `sh -c COMMAND` with the text on its stdin and cdata's terminal as its
// stdout and stderr. A user who quits early closes its stdin: the EPIPE that follows is that
// choice, not an error. Ctrl-C or SIGTERM stops it with cdata (the interrupt cleanup), so no
// pager is left holding the terminal. child_process is taken from Node when a pager runs: the
// build replaces its imports with an empty module (scripts/never-used.mjs).
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from './types.js';

/**
 * A simple command (`less -FRX`, `most`), which sh runs by `exec`: the pager is then cdata's own
 * child, which an interrupt can stop (dash forks for `sh -c CMD`, and stopping sh would leave the
 * pager holding the terminal). Anything with operators, or variable assignments, runs as written.
 */
const SIMPLE = /^(?![\s]*\w+=)[^|&;<>()`$\n]*$/;

export function runPager(command: string, text: string, io: Pick<Io, 'env' | 'onInterrupt'>): Promise<boolean> {
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', SIMPLE.test(command) ? `exec ${command}` : command], {
      stdio: ['pipe', 'inherit', 'inherit'],
      env: pagerEnv(io.env),
    });
    let interrupted = false;
    const removeCleanup = io.onInterrupt(() => {
      interrupted = true;
      child.kill('SIGTERM');
    });
    child.stdin.on('error', () => undefined); // EPIPE: the reader quit before the end
    child.on('error', () => {
      removeCleanup();
      resolve(false);
    });
    // Shown when the pager ended well, or cdata's own interrupt stopped it. Any other end, it may
    // have shown nothing: sh could not run it (126, 127) or parse it (2: `less |`, a quote never
    // closed), the pager refused its options, or a signal not cdata's ended it (a crash). The
    // text then comes to the terminal from cdata: shown twice is better than not at all.
    child.on('close', (code) => {
      removeCleanup();
      resolve(code === 0 || interrupted);
    });
    child.stdin.end(text);
  });
}

/**
 * The pager's environment: less and lv told to show colour and, for less, to quit when the text
 * fits one screen and leave it on the screen after (`LESS=FRX`, `LV=-c`), unless the user set
 * them: what git and gh do, so `PAGER=less` reads as well as the default.
 */
function pagerEnv(env: Io['env']): NodeJS.ProcessEnv {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

/** Whether `name` is an executable file in a folder of PATH. */
export function onPath(name: string, env: Io['env']): boolean {
  return (env.PATH ?? '').split(':').some((dir) => {
    if (dir === '') return false;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}
