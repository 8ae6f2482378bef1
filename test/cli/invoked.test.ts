// cdata builds only the command argv names (src/argv.ts invoked()), so argv is read the way
// commander reads it: past global options and their values, and `--help` before the command is
// the root's help, listing every command.
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';

describe('the command argv names', () => {
  it('a help flag before the command asks for the root help: every command listed', async () => {
    const root = await run(['--help']);
    expect(root.code).toBe(0);
    for (const argv of [
      ['--help', 'tenders'],
      ['-h', 'tenders'],
      ['-q', '-h', 'export'],
      ['-qh', 'export'],
      ['-p', 'x', '--help', 'agents'],
    ]) {
      const result = await run(argv);
      expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 0, stdout: root.stdout });
    }
  });

  it('a global option value that names a command is a value, not the command', async () => {
    const result = await run(['--base-url', 'tenders', 'agents', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cdata agents /);
    const clustered = await run(['-qp', 'tenders', 'agents', '--help']);
    expect(clustered.stdout).toMatch(/^Usage: cdata agents /);
  });
});
