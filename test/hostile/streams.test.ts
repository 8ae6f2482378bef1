// The built binary when its own streams fail: stdout that cannot be written (a full disk) is
// said and exit 2, never a stack trace; stderr that cannot be written changes neither the data
// nor the exit code; a hang-up (the terminal closed) cleans up as Ctrl-C does, exit 129.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { useSandboxes } from '../helpers/api.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { BIN, runProcess, shellQuote } from '../helpers/spawn.js';

const makeSandbox = useSandboxes();
const cdata = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;

describe('streams that fail', () => {
  it('stdout on a full disk (/dev/full): the error said, exit 2, for data, --version and help alike', async () => {
    const env = sandboxEnv(await makeSandbox());
    for (const args of ['tenders', '--version', '--help']) {
      const result = await runProcess('sh', ['-c', `exec ${cdata} ${args} > /dev/full`], { env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toBe('error: cannot write the output: ENOSPC: no space left on device, write\n');
    }
  });

  it('stderr on a full disk or a closed pipe: the data all the same, and the exit code the command ends with', async () => {
    const sandbox = await makeSandbox();
    const env = sandboxEnv(sandbox);
    // A note (the clamped limit) that cannot be written does not stop the data.
    const full = await runProcess('sh', ['-c', `exec ${cdata} tenders --limit 300 -o json 2>/dev/full`], { env });
    expect(full.code).toBe(0);
    expect((JSON.parse(full.stdout) as unknown[]).length).toBeGreaterThan(0);
    // A failure said into a pipe nobody reads is still its exit code (3: a revoked key).
    const revoked = sandboxEnv(sandbox, 'revoked');
    const closed = await runProcess('sh', ['-c', `${cdata} tenders 2>&1 | true; echo "exit $?" >&2`], {
      env: revoked,
    });
    expect(closed.stderr).toBe('exit 0\n'); // the pipe's own status: the reader's
    const status = await runProcess('bash', ['-c', `${cdata} tenders 2>&1 | true; echo "exit \${PIPESTATUS[0]}"`], {
      env: revoked,
    });
    expect(status.stdout).toBe('exit 3\n');
  });

  it('a hang-up (SIGHUP) ends a long-running command as Ctrl-C does: exit 129', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', CDATA_CONFIG_DIR: '/nonexistent-cdata-config' },
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    while (!stdout.includes('http://127.0.0.1:')) await once(child.stdout, 'data');
    child.kill('SIGHUP');
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(129);
  });
});
