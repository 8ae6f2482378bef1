// The JMESPath library is a vendor file of its own (dist/vendor/jmespath.cjs), loaded only by a
// command given --query: the built binary, as a user runs it, loads it then and only then. And
// the table packages (dist/vendor/table.cjs: cli-table3, chalk) only for what a terminal shows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { BIN, runProcess } from '../helpers/spawn.js';

const sandbox = useSandbox({ now: () => NOW });
const PRELOAD = fileURLToPath(new URL('./preload/loaded-vendors.cjs', import.meta.url));

async function vendorsLoadedBy(args: string[]): Promise<{ code: number | null; stdout: string; vendors: string[] }> {
  const result = await runProcess(process.execPath, ['-r', PRELOAD, BIN, ...args], {
    env: sandboxEnv(sandbox.current),
  });
  const line = /^loaded vendors: (.*)$/m.exec(result.stderr)?.[1];
  expect(line, result.stderr).toBeDefined();
  return { code: result.code, stdout: result.stdout, vendors: line!.split(' ').filter(Boolean) };
}

describe('loading the JMESPath library', () => {
  it('a command without --query never loads it', async () => {
    const run = await vendorsLoadedBy(['tenders', '-o', 'json']);
    expect(run.code).toBe(0);
    expect(run.vendors).toEqual(['undici.cjs']);
  });

  it('--query loads it, and nothing else that -o json does not need', async () => {
    const run = await vendorsLoadedBy(['tenders', '--query', 'length(@)', '-o', 'json']);
    expect(run).toMatchObject({ code: 0, stdout: '64\n' });
    expect(run.vendors).toEqual(['jmespath.cjs', 'undici.cjs']);
  });

  it('--query with a table output loads the table packages as any table does', async () => {
    const run = await vendorsLoadedBy(['tenders', '--query', '[].{ocid: ocid}', '-o', 'table']);
    expect(run.code).toBe(0);
    expect(run.vendors).toEqual(['jmespath.cjs', 'table.cjs', 'undici.cjs']);
  });
});

describe('loading the table packages', () => {
  it('an export from cron loads neither them nor anything else it does not need', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdata-export-'));
    const run = await vendorsLoadedBy(['export', '--dir', dir, '-q']);
    expect(run.code).toBe(0);
    expect(run.vendors).toEqual(['csv.cjs', 'undici.cjs']);
  });
});
