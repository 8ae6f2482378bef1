// A full disk, simulated: writes to chosen paths fail with ENOSPC, as the kernel reports it.
// Whatever was there stays whole, no temp file is left, and the error says what and where.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const full = vi.hoisted(() => ({ when: (_path: string): boolean => false }));
const enospc = (path: string) => Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' });

// Files cdata stages (exports, --out, the manifest) are written through fs/promises handles.
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (path: string, ...rest: unknown[]) => {
    const handle = await (fs.open as (...args: unknown[]) => Promise<import('node:fs/promises').FileHandle>)(path, ...rest);
    const writeFile = handle.writeFile.bind(handle);
    return Object.assign(handle, {
      writeFile: (...args: Parameters<typeof writeFile>) => (full.when(String(path)) ? Promise.reject(enospc(String(path))) : writeFile(...args)),
    });
  };
  return { ...fs, default: { ...fs, open }, open };
});

vi.mock('atomically', async (importOriginal) => {
  const atomically = await importOriginal<typeof import('atomically')>();
  return {
    ...atomically,
    writeFileSync: (path: string, ...rest: unknown[]) => {
      if (full.when(path)) throw enospc(path);
      return (atomically.writeFileSync as (...args: unknown[]) => void)(path, ...rest);
    },
  };
});

const { run } = await import('../helpers/run.js');
const { sandboxEnv, useSandbox } = await import('../helpers/sandbox.js');

const sandbox = useSandbox();
const folder = () => mkdtempSync(join(tmpdir(), 'cdata-full-'));
afterEach(() => {
  full.when = () => false;
});

describe('a full disk', () => {
  it('--out: exit 2 naming the file and ENOSPC; the old file stays, no temp file', async () => {
    const dir = folder();
    const target = join(dir, 'tenders.csv');
    writeFileSync(target, 'old,data\n');
    full.when = (path) => path.startsWith(join(dir, '.tenders.csv.'));
    const result = await run(['tenders', '--out', target], { env: sandboxEnv(sandbox.current) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: cannot write ${target}: ENOSPC: no space left on device, write '${dir}/\\.tenders\\.csv\\.[a-z0-9]+\\.tmp'\\n$`));
    expect(readdirSync(dir)).toEqual(['tenders.csv']);
    expect(readFileSync(target, 'utf8')).toBe('old,data\n');
  });

  it('export: the list that cannot be written keeps its old file and fails with 2; the rest are written', async () => {
    const dir = folder();
    expect((await run(['export', 'tenders', 'agents', '--dir', dir], { env: sandboxEnv(sandbox.current) })).code).toBe(0);
    const before = readFileSync(join(dir, 'tenders.csv'));
    writeFileSync(join(dir, 'agents.csv'), 'stale\n');
    full.when = (path) => path.startsWith(join(dir, '.tenders.csv.'));
    const result = await run(['export', 'tenders', 'agents', '--dir', dir], { env: sandboxEnv(sandbox.current) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: tenders: cannot write .*tenders\.csv: ENOSPC: no space left on device/);
    expect(readFileSync(join(dir, 'tenders.csv')).equals(before)).toBe(true);
    expect(readFileSync(join(dir, 'agents.csv'), 'utf8')).not.toBe('stale\n');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { exitCode: number; resources: { resource: string; status: string }[] };
    expect(manifest.exitCode).toBe(2);
    expect(manifest.resources.map((r) => [r.resource, r.status])).toEqual([['tenders', 'error'], ['agents', 'ok']]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('export: a manifest that cannot be written is exit 2, and the old manifest stays whole', async () => {
    const dir = folder();
    expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox.current) })).code).toBe(0);
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    full.when = (path) => path.startsWith(join(dir, '.manifest.json.'));
    const result = await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox.current) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot write .*manifest\.json: ENOSPC/);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('config: a write that fails is exit 2; the file is unchanged byte for byte and the lock released', async () => {
    const env = { CDATA_CONFIG_DIR: folder() };
    expect((await run(['config', 'set', 'timeout', '12', '-p', 'prod'], { env })).code).toBe(0);
    const path = join(env.CDATA_CONFIG_DIR, 'config.json');
    const before = readFileSync(path, 'utf8');
    full.when = (target) => target === path;
    const result = await run(['config', 'set', 'output', 'json', '-p', 'prod'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: cannot write the config file ${path}: ENOSPC: no space left on device, write '${path}'\n`);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(env.CDATA_CONFIG_DIR)).toEqual(['config.json']);
    full.when = () => false;
    expect((await run(['config', 'get', 'timeout', '-p', 'prod'], { env })).stdout).toBe('12\n');
  });
});
