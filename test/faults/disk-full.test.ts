// A full disk, simulated: chosen writes fail with ENOSPC, as the kernel reports it. Every write an
// export makes is failed in turn (its lock, the generation folder, each file, each link, the
// manifest, the commit), in a folder of this layout and in one an older cdata wrote; and a config
// change's lock and file. Whatever was there stays whole, nothing is left behind, and the error
// is exit 2 naming what could not be written and why.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResourceFailed } from '../../src/export/manifest.js';
import { copyFolder, LAYOUTS, leftovers, manifestOf, shown, whole } from '../export/layout.js';
import { scratch } from './scratch.js';

/** Each write, as `syscall path`, goes past `fail`, which may answer ENOSPC for it. */
const disk = vi.hoisted(() => ({ fail: (_write: string): boolean => false, noLinks: false, noSymlinks: false }));
const enospc = (syscall: string, path: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall} '${path}'`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
    path,
  });

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const opened = new Map<number, string>();
  const check = (syscall: string, path: unknown) => {
    if (disk.fail(`${syscall} ${String(path)}`)) throw enospc(syscall, String(path));
  };
  const creates = (flags: unknown) =>
    typeof flags === 'string' ? /[wax]/.test(flags) : typeof flags === 'number' && (flags & fs.constants.O_CREAT) !== 0;
  const pathOf = (target: unknown) => (typeof target === 'number' ? (opened.get(target) ?? `fd ${target}`) : target);
  type Any = (...args: unknown[]) => unknown;
  const guard =
    (syscall: string, original: Any, at: number) =>
    (...args: unknown[]) => {
      check(syscall, pathOf(args[at]));
      return original(...args);
    };
  const mocked = {
    ...fs,
    mkdirSync: guard('mkdir', fs.mkdirSync as Any, 0),
    symlinkSync: (...args: unknown[]) => {
      if (disk.noSymlinks)
        throw Object.assign(
          new Error(`EPERM: operation not permitted, symlink '${String(args[0])}' -> '${String(args[1])}'`),
          { code: 'EPERM' },
        );
      return guard('symlink', fs.symlinkSync as Any, 1)(...args);
    },
    linkSync: (...args: unknown[]) => {
      if (disk.noLinks)
        throw Object.assign(
          new Error(`EPERM: operation not permitted, link '${String(args[0])}' -> '${String(args[1])}'`),
          { code: 'EPERM' },
        );
      return guard('link', fs.linkSync as Any, 1)(...args);
    },
    copyFileSync: guard('copyfile', fs.copyFileSync as Any, 1),
    renameSync: guard('rename', fs.renameSync as Any, 1),
    writeSync: guard('write', fs.writeSync as Any, 0),
    writeFileSync: guard('write', fs.writeFileSync as Any, 0),
    // Files' contents are written by descriptor, off the main thread (src/io/atomic.ts).
    writeFile: (target: unknown, ...rest: unknown[]) => {
      const path = String(pathOf(target));
      const done = rest.at(-1) as (error: Error | null) => void;
      if (disk.fail(`write ${path}`)) return void process.nextTick(done, enospc('write', path));
      return (fs.writeFile as Any)(target, ...rest);
    },
    openSync: (path: string, flags?: unknown, mode?: unknown) => {
      if (creates(flags)) check('open', path);
      const fd = (fs.openSync as Any)(path, flags, mode) as number;
      opened.set(fd, String(path));
      return fd;
    },
  };
  return { ...mocked, default: mocked };
});

// conf writes the config file with atomically.
vi.mock('atomically', async (importOriginal) => {
  const atomically = await importOriginal<typeof import('atomically')>();
  return {
    ...atomically,
    writeFileSync: (path: string, ...rest: unknown[]) => {
      if (disk.fail(`write ${path}`)) throw enospc('write', path);
      return (atomically.writeFileSync as (...args: unknown[]) => void)(path, ...rest);
    },
  };
});

const { run } = await import('../helpers/run.js');
const { sandboxEnv } = await import('../helpers/sandbox.js');
const { NOW, useSandboxes } = await import('../helpers/api.js');

const makeSandbox = useSandboxes();
const folder = scratch('cdata-full');
afterEach(() => {
  disk.fail = () => false;
  disk.noLinks = false;
  disk.noSymlinks = false;
});

/** The disk fills at the n-th write (1-based) under `dir`: it and every later one fail. */
function fullFrom(dir: string, n: number): { writes: () => number } {
  let seen = 0;
  disk.fail = (write) => write.includes(dir) && ++seen >= n;
  return { writes: () => seen };
}

describe('a full disk', () => {
  it('--out: exit 2 naming the file and ENOSPC; the old file stays, no temp file', async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    const target = join(dir, 'tenders.csv');
    writeFileSync(target, 'old,data\n');
    disk.fail = (write) => write.startsWith(`write ${join(dir, '.tenders.csv.')}`);
    const result = await run(['tenders', '--out', target], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: cannot write ${target}: ENOSPC: no space left on device, write '${dir}/\\.tenders\\.csv\\.[a-z0-9]+\\.tmp'\\n$`,
      ),
    );
    expect(readdirSync(dir)).toEqual(['tenders.csv']);
    expect(readFileSync(target, 'utf8')).toBe('old,data\n');
  });

  describe.each(LAYOUTS)('export into a folder %s, each write failing in turn', (_layout, prepare) => {
    it('exit 2 naming the path and ENOSPC; the folder one whole export, the old or the new; nothing left', async () => {
      const yesterday = await makeSandbox({ now: () => NOW });
      const today = await makeSandbox({ now: () => NOW + 86_400_000 });
      const old = join(folder(), 'old');
      expect(
        (
          await run(['export', 'tenders', 'sites', 'agents', '--dir', old], {
            env: sandboxEnv(yesterday),
            now: () => NOW,
          })
        ).code,
      ).toBe(0);
      prepare(old);
      // Today's export: two lists under new (stamped) names, so new links are made and agents,
      // and yesterday's files, are carried along.
      const exportToday = (dir: string) =>
        run(['export', 'tenders', 'sites', '--stamp', '--dir', dir], {
          env: sandboxEnv(today),
          now: () => NOW + 86_400_000,
        });
      const reference = join(folder(), 'new');
      copyFolder(old, reference);
      expect((await exportToday(reference)).code).toBe(0);
      const [before, after] = [shown(old), shown(reference)];
      const oldExport = manifestOf(old).exportedAt;

      let n = 0;
      for (;;) {
        n++;
        const dir = join(folder(), 'exports');
        copyFolder(old, dir);
        const { writes } = fullFrom(dir, n);
        const result = await exportToday(dir);
        disk.fail = () => false;
        if (writes() < n) {
          // The run made fewer than n writes: the disk filled at each one in turn, and now at none.
          expect(result).toMatchObject({ code: 0, stderr: '' });
          break;
        }
        const what = { n, code: result.code, stderr: result.stderr };
        expect(what).toEqual({
          ...what,
          code: 2,
          stderr: expect.stringMatching(
            /^error: (\w+: )?cannot write \/\S+: ENOSPC: no space left on device, \w+ '\/[^']+'\n/,
          ),
        });
        const manifest = whole(dir);
        expect({ n, left: leftovers(dir) }).toEqual({ n, left: [] });
        const files = shown(dir);
        if (manifest.exportedAt === oldExport) {
          expect({ n, files }).toEqual({ n, files: before });
        } else {
          // The new export, where a list that failed keeps yesterday's file (and has no new one).
          const failed = manifest.resources.filter((r) => r.status === 'error');
          const expected = Object.fromEntries(
            Object.entries(after).filter(([name]) => !failed.some((r) => r.file === name) && name !== 'manifest.json'),
          );
          // Its changes are those of the lists written (a failed list has none).
          const ofFailed = (line: string) => failed.some((r) => line.startsWith(`{"resource":"${r.resource}"`));
          expected['changes.ndjson'] = after['changes.ndjson']!.split('\n')
            .filter((line) => !ofFailed(line))
            .join('\n');
          delete files['manifest.json'];
          expect({ n, files }).toEqual({ n, files: expected });
        }
      }
      expect(n).toBeGreaterThan(15); // the lock, the generation, two files, their links, three carried, the manifest, the commit
    }, 60_000);
  });

  it('export: a list whose file cannot be written keeps its old one and fails with 2; the others are written', async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    expect((await run(['export', 'tenders', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
    const before = readFileSync(join(dir, 'tenders.csv'));
    disk.fail = (write) => write.startsWith(`write ${dir}/..`) && /\/tenders-[^/]+\.csv$/.test(write);
    const result = await run(['export', 'tenders', 'agents', '--dir', dir, '--stamp'], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: tenders: cannot write .*tenders-[0-9T-]+Z\.csv: ENOSPC: no space left on device/,
    );
    expect(readFileSync(join(dir, 'tenders.csv')).equals(before)).toBe(true);
    const manifest = whole(dir);
    expect(manifest.exitCode).toBe(2);
    expect(manifest.resources.map((r) => [r.resource, r.status])).toEqual([
      ['tenders', 'error'],
      ['agents', 'ok'],
    ]);
    expect((manifest.resources[0] as ResourceFailed).kept?.file).toBe('tenders.csv');
    expect(leftovers(dir)).toEqual([]);
  });

  it('export: a list whose state cannot be written fails with 2 and keeps its old file and state (they go in together); the others are written', async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    expect((await run(['export', 'tenders', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
    const [file, state] = [
      readFileSync(join(dir, 'tenders.csv')),
      readFileSync(join(dir, '..data', '.state.tenders.json')),
    ];
    disk.fail = (write) => write.startsWith(`write ${dir}/..`) && write.endsWith('/.state.tenders.json');
    const result = await run(['export', 'tenders', 'agents', '--dir', dir, '-o', 'json'], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: tenders: cannot write ${dir}/tenders\\.json: ENOSPC: no space left on device, write '${dir}/\\.\\.[^/]+/\\.state\\.tenders\\.json'\n`,
      ),
    );
    const manifest = whole(dir);
    expect(manifest.resources.map((r) => [r.resource, r.status, r.changes])).toEqual([
      ['tenders', 'error', null],
      ['agents', 'ok', { added: 0, changed: 0, removed: 0 }],
    ]);
    expect(readFileSync(join(dir, 'tenders.csv')).equals(file)).toBe(true);
    expect(readFileSync(join(dir, '..data', '.state.tenders.json')).equals(state)).toBe(true);
    expect(readdirSync(join(dir, '..data'))).not.toContain('tenders.json');
    expect(leftovers(dir)).toEqual([]);
  });

  it.each(['manifest.json', 'changes.ndjson'])(
    'export: a %s that cannot be written is exit 2 naming it, and the previous export stays whole',
    async (name) => {
      const sandbox = await makeSandbox();
      const dir = folder();
      expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
      const before = shown(dir);
      disk.fail = (write) => write.startsWith(`write ${dir}/..`) && write.endsWith(`/${name}`);
      const result = await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^error: cannot write ${dir}/${name.replace('.', '\\.')}: ENOSPC`));
      expect(shown(dir)).toEqual(before);
      expect(leftovers(dir)).toEqual([]);
    },
  );

  it('config: a write that fails is exit 2; the file is unchanged byte for byte and the lock released', async () => {
    const env = { CDATA_CONFIG_DIR: folder() };
    expect((await run(['config', 'set', 'timeout', '12', '-p', 'prod'], { env })).code).toBe(0);
    const path = join(env.CDATA_CONFIG_DIR, 'config.json');
    const before = readFileSync(path, 'utf8');
    disk.fail = (write) => write === `write ${path}`;
    const result = await run(['config', 'set', 'output', 'json', '-p', 'prod'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: cannot write the config file ${path}: ENOSPC: no space left on device, write '${path}'\n`,
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(env.CDATA_CONFIG_DIR)).toEqual(['config.json']);
    disk.fail = () => false;
    expect((await run(['config', 'get', 'timeout', '-p', 'prod'], { env })).stdout).toBe('12\n');
  });

  it.each([
    ['its owner file', 'write', (lock: string) => `${lock}.`],
    ['the lock itself', 'link', (lock: string) => lock],
  ])(
    "config: the lock's write failing (%s) is exit 2 naming the folder and ENOSPC; no lock left behind; the file unchanged",
    async (_what, syscall, target) => {
      const env = { CDATA_CONFIG_DIR: folder() };
      expect((await run(['config', 'set', 'timeout', '12'], { env })).code).toBe(0);
      const path = join(env.CDATA_CONFIG_DIR, 'config.json');
      const before = readFileSync(path, 'utf8');
      disk.fail = (write) => write.startsWith(`${syscall} ${target(`${path}.lock`)}`);
      const result = await run(['config', 'set', 'timeout', '13'], { env });
      expect(result.stderr.split('\n')[0]).toMatch(
        new RegExp(
          `^error: cannot write in the config folder ${env.CDATA_CONFIG_DIR}: ENOSPC: no space left on device, ${syscall} '${path}\\.lock(\\.[0-9a-f]+)?'$`,
        ),
      );
      expect(result.code).toBe(2);
      expect(readdirSync(env.CDATA_CONFIG_DIR)).toEqual(['config.json']);
      expect(readFileSync(path, 'utf8')).toBe(before);
      disk.fail = () => false;
      expect((await run(['config', 'set', 'timeout', '14'], { env })).code).toBe(0); // no stale lock to wait for
    },
  );

  it('config, on a filesystem without hard links: the lock is created and written in place; a write that fails removes it again', async () => {
    const env = { CDATA_CONFIG_DIR: folder() };
    const path = join(env.CDATA_CONFIG_DIR, 'config.json');
    disk.noLinks = true;
    expect((await run(['config', 'set', 'timeout', '12'], { env })).code).toBe(0);
    disk.fail = (write) => write === `write ${path}.lock`;
    const result = await run(['config', 'set', 'timeout', '13'], { env });
    expect(result.stderr.split('\n')[0]).toBe(
      `error: cannot write in the config folder ${env.CDATA_CONFIG_DIR}: ENOSPC: no space left on device, write '${path}.lock'`,
    );
    expect(readdirSync(env.CDATA_CONFIG_DIR)).toEqual(['config.json']);
    disk.fail = () => false;
    expect((await run(['config', 'get', 'timeout'], { env })).stdout).toBe('12\n');
  });

  it.each(LAYOUTS)(
    'export into a folder %s on a filesystem without symbolic links (FAT): exit 2, the folder as it was',
    async (_layout, prepare) => {
      const sandbox = await makeSandbox();
      const dir = folder();
      expect((await run(['export', 'tenders', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
      prepare(dir);
      const before = readdirSync(dir).sort();
      const shownBefore = shown(dir);
      disk.noSymlinks = true;
      const result = await run(['export', 'tenders', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: (\w+: )?cannot write \/\S+: EPERM: operation not permitted, symlink /);
      expect(readdirSync(dir).sort()).toEqual(before);
      expect(shown(dir)).toEqual(shownBefore);
    },
  );

  it("export: the folder lock's write failing is exit 2 naming it; no lock left; the previous export untouched", async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
    const before = shown(dir);
    disk.fail = (write) => write.startsWith(`write ${dir}/..lock.`);
    const result = await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: cannot write ${dir}/\\.\\.lock: ENOSPC: no space left on device, write '${dir}/\\.\\.lock\\.[0-9a-f]+'\n$`,
      ),
    );
    expect(leftovers(dir)).toEqual([]);
    expect(shown(dir)).toEqual(before);
  });
});
