// The key command in the built binary, as a cron job or a terminal runs it: it runs there at all
// (the build empties imports of child_process), and Ctrl-C stops it at once, with its whole
// process group. A hanging one stopped at the real 10 s: key-command-timeout.heavy.test.ts.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN, runBin } from '../helpers/spawn.js';
import { until } from '../helpers/wait.js';
import { configHome, expectNoKey, profileWith as profileWithTool } from './harness.js';
import { running, secretTools, TOOL_KEY, type ToolName } from './secret-tools.js';

const sandbox = useSandbox();

/** A config whose default profile gets its key from the named tool, against this file's sandbox. */
const profileWith = (tool: ToolName) => profileWithTool(tool, sandbox.current.url);

describe('the key command in the built binary', () => {
  it('runs, and its key reaches neither stdout, stderr nor --debug', async () => {
    const { tools, env } = profileWith('extra');
    const result = await runBin(['tenders', '--limit', '1', '--json', '--debug'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    expect(result.stderr).toContain('[debug] key command: exit status 0 after');
    expect(result.stderr).toContain('[debug] > X-API-Key: svc_***');
    expectNoKey(result, [TOOL_KEY]);
    expect(tools.runs()).toBe(1);
  });

  it('one that leaves a child in the background, `(sleep &) ; echo KEY`: the child is gone when cdata exits', async () => {
    const home = configHome();
    const tools = secretTools();
    const pidFile = `${tools.dir}/background`;
    const command = `(sleep 300 & echo $! > '${pidFile}') ; echo '${TOOL_KEY}'`;
    writeFileSync(
      home.file,
      JSON.stringify({
        profiles: { prod: { keyCommand: command, baseUrl: sandbox.current.url } },
        defaultProfile: 'prod',
      }),
      { mode: 0o600 },
    );
    const result = await runBin(['tenders', '--limit', '1', '--json'], { env: home.env });
    const sleep = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toHaveLength(1);
      // SIGKILL was sent before the key was used; /proc shows it done (or a zombie init reaps).
      await until(() => !running(sleep), 'the background sleep to end');
    } finally {
      if (running(sleep)) process.kill(sleep, 'SIGKILL');
    }
  });

  it('Ctrl-C while it waits: exit 130 at once, and its process group goes too', async () => {
    const { tools, env } = profileWith('hang');
    const child = spawn(process.execPath, [BIN, 'tenders'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await until(tools.hanging, 'the tool to start');
    const interrupted = Date.now();
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(Date.now() - interrupted).toBeLessThan(5_000);
    const [shell, sleep] = tools.pids();
    await until(() => !running(shell!) && !running(sleep!), 'the interrupted tool and its background sleep to end');
  });
});
