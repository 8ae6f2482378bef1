// In a folder others can write, the name of cdata's temp file is theirs to swap the moment it
// exists: for a symlink to a file of the user's, as a process racing cdata can between two system
// calls. Here the swap is made at that moment every time, in-process: cdata must write the file
// it created through the descriptor that created it, and never reach the symlink's target.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { NOBODY } from '../helpers/spawn.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { scratch } from '../faults/scratch.js';

const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
const openSync = fs.openSync;
const mkdir = fs.mkdirSync;
const folder = scratch('cdata-temp-race');
const sandbox = useSandbox();

afterEach(() => {
  fs.openSync = openSync;
  fs.mkdirSync = mkdir;
  syncBuiltinESMExports();
});

/**
 * A file of the user's, and every new file cdata makes in `dir` (a temp file beside --out's, an
 * export's files in the generation folder the folder's owner is given) swapped for a symlink to it
 * once made; lock files aside.
 */
function raced(dir: string): { victim: string; swaps: () => number } {
  const victim = join(dir, 'victim');
  writeFileSync(victim, 'mine\n');
  chmodSync(victim, 0o600);
  let swaps = 0;
  fs.openSync = ((path: Parameters<typeof openSync>[0], ...rest: unknown[]) => {
    const fd = (openSync as (...args: unknown[]) => number)(path, ...rest);
    if (typeof path === 'string' && path.startsWith(`${dir}/`) && !path.includes('lock') && rest[0] === 'wx') {
      rmSync(path);
      symlinkSync(victim, path);
      swaps++;
    }
    return fd;
  }) as typeof openSync;
  syncBuiltinESMExports();
  return { victim, swaps: () => swaps };
}

describe('a temp file swapped for a symlink the moment it is made', () => {
  it('--out: the file the symlink points to is untouched, its content and its mode', async () => {
    const dir = folder();
    const { victim, swaps } = raced(dir);
    const out = join(dir, 'report.csv');
    const result = await run(['tenders', '--limit', '2', '--out', out], { env: sandboxEnv(sandbox.current) });
    expect(swaps()).toBe(1);
    // Nor is the swapped name moved over the file asked for: the run fails, saying why.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/was replaced while cdata wrote it: someone else can change that folder/);
    expect(() => statSync(out)).toThrow();
    expect(readFileSync(victim, 'utf8')).toBe('mine\n');
    expect(statSync(victim).mode & 0o777).toBe(0o600);
  });

  it('export: the same, for every file of the export', async () => {
    const dir = folder();
    const { victim, swaps } = raced(dir);
    await run(['export', 'tenders', 'sites', '--dir', join(dir, 'out')], { env: sandboxEnv(sandbox.current) });
    expect(swaps()).toBeGreaterThan(2);
    expect(readFileSync(victim, 'utf8')).toBe('mine\n');
    expect(statSync(victim).mode & 0o777).toBe(0o600);
  });
});

describe("an export's new generation folder swapped for a symlink the moment it is made", () => {
  it("root exporting into a folder another user owns gives that user the folder, never the link's target", async () => {
    if (process.getuid?.() !== 0) return; // only root gives a folder to another user
    const dir = folder();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'root only\n');
    chmodSync(victim, 0o600);
    const out = join(dir, 'out');
    mkdirSync(out);
    chownSync(out, NOBODY, NOBODY);
    let swaps = 0;
    fs.mkdirSync = ((path: Parameters<typeof mkdir>[0], ...rest: unknown[]) => {
      const made = (mkdir as (...args: unknown[]) => unknown)(path, ...rest);
      if (typeof path === 'string' && path.startsWith(`${out}/..2`)) {
        renameSync(path, `${path}.moved`);
        symlinkSync(victim, path);
        swaps++;
      }
      return made;
    }) as typeof mkdir;
    syncBuiltinESMExports();
    await run(['export', 'agents', '--dir', out], { env: sandboxEnv(sandbox.current) });
    expect(swaps).toBe(1);
    expect(statSync(victim)).toMatchObject({ uid: 0, gid: 0 });
    expect(readFileSync(victim, 'utf8')).toBe('root only\n');
  });
});
