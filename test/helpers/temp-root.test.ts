// The run's temp root (temp-root.ts, global-setup.ts), inside a run: this worker's temp files and
// its children's land in it. That it goes at the end of a run, and that a run leaving anything
// outside it fails, is temp-root.heavy.test.ts: a vitest run inside the run, seconds of CPU.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { run } from './run.js';
import { runProcess } from './spawn.js';

describe('inside a run', () => {
  it("puts this worker's and its children's temp files in the run's root", async () => {
    const root = inject('tempRoot');
    expect(tmpdir()).toBe(root);
    expect(existsSync(root)).toBe(true);
    const child = await runProcess(process.execPath, ['-p', "require('node:os').tmpdir()"]);
    expect(child).toMatchObject({ code: 0, stdout: `${root}\n` });
  });

  it('run() removes the config folder it made for the command', async () => {
    const result = await run(['config', 'path']);
    expect(result.code).toBe(0);
    const folder = join(result.stdout.trim(), '..');
    expect(folder.startsWith(inject('tempRoot'))).toBe(true);
    expect(existsSync(folder)).toBe(false);
  });
});
