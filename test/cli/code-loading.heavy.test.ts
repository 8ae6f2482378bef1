// The JMESPath library is a vendor file of its own (dist/vendor/jmespath.cjs), loaded only by a
// command given --query: the built binary, as a user runs it, loads it then and only then. And
// the table packages (dist/vendor/table.cjs: cli-table3, chalk) only for what a terminal shows.
// Likewise cdata's own cold code (scripts/cold-code.mjs): each cold file only for what needs it.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { BIN, runProcess } from '../helpers/spawn.js';

const sandbox = useSandbox({ now: () => NOW });
const PRELOAD = fileURLToPath(new URL('./preload/loaded-files.cjs', import.meta.url));

interface Loaded {
  code: number | null;
  stdout: string;
  stderr: string;
  vendors: string[];
  cold: string[];
}

async function vendorsLoadedBy(
  args: string[],
  env: Record<string, string> = sandboxEnv(sandbox.current),
): Promise<Loaded> {
  const result = await runProcess(process.execPath, ['-r', PRELOAD, BIN, ...args], { env });
  const line = (name: string) => {
    const files = new RegExp(`^loaded ${name}: (.*)$`, 'm').exec(result.stderr)?.[1];
    expect(files, result.stderr).toBeDefined();
    return files!.split(' ').filter(Boolean);
  };
  return { ...result, vendors: line('vendors'), cold: line('cold files') };
}

describe('loading the JMESPath library', () => {
  it('a command without --query never loads it', async () => {
    const run = await vendorsLoadedBy(['tenders', '-o', 'json']);
    expect(run.code).toBe(0);
    expect(run.vendors).toEqual(['undici.cjs']);
    expect(run.cold).toEqual([]);
  });

  it('--query loads it, and nothing else that -o json does not need', async () => {
    const run = await vendorsLoadedBy(['tenders', '--query', 'length(@)', '-o', 'json']);
    expect(run).toMatchObject({ code: 0, stdout: '64\n' });
    expect(run.vendors).toEqual(['jmespath.cjs', 'undici.cjs']);
    expect(run.cold).toEqual(['query-compile.cjs']);
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
    expect(run.cold).toEqual(['export.cjs']);
  });
});

describe('the config store (dist/vendor/conf.cjs, built without the packages cdata never calls)', () => {
  it('a config write loads it and writes through it, 0600; a read does not load it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdata-conf-'));
    try {
      const env = { CDATA_CONFIG_DIR: dir };
      const set = await vendorsLoadedBy(['config', 'set', 'output', 'csv'], env);
      expect(set).toMatchObject({ code: 0, vendors: ['conf.cjs'], cold: [] });
      expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
      const get = await vendorsLoadedBy(['config', 'get', 'output'], env);
      expect(get).toMatchObject({ code: 0, stdout: 'csv\n', vendors: [] });
      // Built without what conf calls only for a schema or migrations (scripts/never-used.mjs):
      // bundled, a package's licence would be listed.
      const licences = readFileSync(
        fileURLToPath(new URL('../../dist/THIRD_PARTY_LICENSES.txt', import.meta.url)),
        'utf8',
      );
      expect(licences).toMatch(/^conf \d+\.\d+\.\d+ /m);
      expect(licences).not.toMatch(/^(ajv|ajv-formats|semver) \d/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("loading cdata's cold code", () => {
  it('each command loads the cold files and vendor files it needs and no other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdata-cold-'));
    try {
      const runs = {
        'profile list': ['profile', 'list'],
        changes: ['changes', '--dir', dir],
        'completion bash': ['completion', 'bash'],
        // Refused by its handler (no such variable): loaded all the same.
        'webhook verify': [
          'webhook',
          'verify',
          '--signature',
          '00',
          '--secret-env',
          'CDATA_NO_SUCH',
          '--body-file',
          '/dev/null',
        ],
        '--sandbox me': ['--sandbox', 'me', '-o', 'json'],
        // A key on stdin that the API refuses: no key command to run.
        'auth login': ['auth', 'login'],
        'auth login --key-command': ['auth', 'login', '--key-command', 'exit 3'],
      };
      const loaded: Record<string, string[]> = {};
      for (const [name, args] of Object.entries(runs)) {
        const run = await vendorsLoadedBy(args, { ...sandboxEnv(sandbox.current), CDATA_CONFIG_DIR: dir });
        loaded[name] = [...run.cold, ...run.vendors.map((file) => `vendor/${file}`)];
      }
      expect(loaded).toEqual({
        'profile list': [],
        // Local files only: no HTTP client.
        changes: ['export.cjs'],
        'completion bash': ['completion.cjs'],
        'webhook verify': ['webhook.cjs'],
        '--sandbox me': ['sandbox-server.cjs', 'vendor/undici.cjs'],
        'auth login': ['login.cjs', 'vendor/undici.cjs'],
        'auth login --key-command': ['key-command.cjs', 'login.cjs', 'vendor/undici.cjs'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
