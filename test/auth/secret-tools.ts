// Small shell scripts standing in for a password manager (`pass show`, `op read`): each written
// into a folder of the run's temp root, counting its runs, and saying which processes it started
// so a test can check that none of them is left behind.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoKey } from '../../src/sandbox/keys.js';

/** The key the good tools print: the sandbox's all-scopes demo key. */
export const TOOL_KEY = demoKey('all');

export interface SecretTools {
  dir: string;
  /** The command that runs the named tool (what `--key-command` is given). */
  command(name: ToolName): string;
  /** How many times any tool has run so far. */
  runs(): number;
  /** The pids the hanging tool wrote: its shell and the shell's background child. */
  pids(): number[];
  /** Whether the hanging tool has started and written its pids. */
  hanging(): boolean;
}

const BODIES = {
  good: `echo '${TOOL_KEY}'`,
  revoked: `echo '${demoKey('revoked')}'`,
  // pass show prints the password, then the entry's other lines: the first line is the key.
  extra: `printf '  %s  \\r\\nlogin: etl@example.com\\nurl: https://api.example.com\\n' '${TOOL_KEY}'`,
  fail: [
    `echo 'Error: cdata/prod is not in the password store.' >&2`,
    `echo 'a key it saw: ${TOOL_KEY}' >&2`,
    `printf 'line %s\\n' 3 4 5 6 7 >&2`,
    `echo '${TOOL_KEY}'`,
    'exit 4',
  ].join('\n'),
  // What it says goes out before its pids: once hanging() is true, a test's Ctrl-C finds it said.
  hang: ['sleep 300 &', `echo 'unlock the vault:' >&2`, 'echo "$$ $!" > "$(dirname "$0")/pids"', 'wait'].join('\n'),
  bad: `echo 'hunter2-is-not-a-key'`,
  empty: 'exit 0',
  flood: `while :; do echo 'svc_floodfloodfloodfloodflood'; done`,
  // stdin must be closed: a tool that reads it gets end-of-file at once, not cdata's stdin.
  stdin: `if read -r line; then echo "read from stdin: $line" >&2; exit 1; fi; echo '${TOOL_KEY}'`,
} as const;

export type ToolName = keyof typeof BODIES;

export function secretTools(): SecretTools {
  const dir = mkdtempSync(join(tmpdir(), 'cdata-tools-'));
  const count = join(dir, 'runs');
  for (const [name, body] of Object.entries(BODIES)) {
    const file = join(dir, `${name}.sh`);
    writeFileSync(file, `#!/bin/sh\necho run >> '${count}'\n${body}\n`);
    chmodSync(file, 0o755);
  }
  return {
    dir,
    command: (name) => `'${join(dir, `${name}.sh`)}'`,
    runs: () => (existsSync(count) ? readFileSync(count, 'utf8').split('\n').filter(Boolean).length : 0),
    pids: () => readFileSync(join(dir, 'pids'), 'utf8').trim().split(' ').map(Number),
    // The file is written by one `echo`: whole once it ends with its line break.
    hanging: () => existsSync(join(dir, 'pids')) && readFileSync(join(dir, 'pids'), 'utf8').endsWith('\n'),
  };
}

/**
 * Whether process `pid` still runs. A zombie has ended: it waits only for its parent to collect
 * its status, and a container's init may never do that for the orphans it adopts.
 */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
