// A hanging key command in the built binary is stopped at the product's real 10 s, exit 3, with
// nothing of it left behind. Heavy (npm run test:heavy): the one test that waits out a real
// timeout of many seconds; npm test checks the same stop with short, injected timeouts
// (test/config/key-command.test.ts), and Ctrl-C in the binary (key-command-bin.test.ts).
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { runBin } from '../helpers/spawn.js';
import { until } from '../helpers/wait.js';
import { profileWith as profileWithTool } from './harness.js';
import { running, type ToolName } from './secret-tools.js';

const sandbox = useSandbox();
const profileWith = (tool: ToolName) => profileWithTool(tool, sandbox.current.url);

describe('the key command in the built binary', () => {
  it('a hanging one is stopped at 10 s, exit 3, with no process of it left', async () => {
    const { tools, env } = profileWith('hang');
    const started = Date.now();
    const result = await runBin(['tenders'], { env, timeoutMs: 30_000 });
    const elapsed = Date.now() - started;
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[0]).toBe(
      "error: the key command of profile 'prod' did not finish within 10 s, so it was stopped; it said: unlock the vault:",
    );
    expect(elapsed).toBeGreaterThanOrEqual(10_000);
    // cdata exits as soon as its output closes: the group was killed, not waited for.
    expect(elapsed).toBeLessThan(20_000);
    const [shell, sleep] = tools.pids();
    await until(() => !running(shell!) && !running(sleep!), 'the hanging tool and its background sleep to end');
  }, 40_000);
});
