// The lock beside the config file, in-process: held, stale by a dead owner, stale by age, released.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownIdentity, STALE_AFTER_MS, withLock } from '../../src/io/lock.js';
import { updateConfig } from '../../src/config/store.js';
import { testIo } from '../helpers/io.js';
import { cdata, configHome } from '../auth/harness.js';
import { withFolderLock } from '../../src/export/folder.js';
import { prepareFolder } from '../../src/export/plan.js';
import { tempConfigDir } from '../helpers/run.js';

/** A pid no process has: above Linux's largest pid_max (2^22). */
const DEAD_PID = 2 ** 22 + 12_345;

function lockBy(
  home: ReturnType<typeof configHome>,
  owner: { pid: number; host?: string; where?: string; started?: string },
  ageMs = 0,
): string {
  const path = `${home.file}.lock`;
  writeFileSync(path, JSON.stringify({ ...owner, host: owner.host ?? hostname(), token: 'theirs' }), {
    mode: 0o600,
  });
  if (ageMs) {
    const then = (Date.now() - ageMs) / 1000;
    utimesSync(path, then, then);
  }
  return path;
}

/**
 * A live holder elsewhere, as the waiter's sleeps pass: its lock's time stamped anew every
 * STALE_AFTER_MS / 4, by its own clock, `skewMs` from this host's.
 */
function refreshedBy(path: string, skewMs = 0): (ms: number) => void {
  let since = 0;
  let stamps = 0;
  return (ms) => {
    since += ms;
    if (since < STALE_AFTER_MS / 4) return;
    since = 0;
    const then = (Date.now() + skewMs + ++stamps) / 1000;
    utimesSync(path, then, then);
  };
}

describe('the config lock', () => {
  it('held by a live process: waits with backoff, then exit 2 naming the holder and the lock file', async () => {
    const home = configHome();
    const path = lockBy(home, { pid: process.pid });
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error: the config file is locked by another cdata (pid ${process.pid} on ${hostname()}): ${path}`,
    );
    expect(result.stderr).toContain(
      `hint: Try again in a moment. If no other cdata is running, remove the lock file: rm '${path}'`,
    );
    expect(result.sleeps.length).toBeGreaterThan(10);
    expect(result.sleeps.slice(0, 3)).toEqual([5, 10, 20]);
    expect(Math.max(...result.sleeps)).toBe(100);
    expect(existsSync(home.file)).toBe(false);
    expect(readFileSync(path, 'utf8')).toContain('"theirs"'); // someone else's lock is never removed
  });

  it('left by a process that is gone: taken over at once', async () => {
    const home = configHome();
    lockBy(home, { pid: DEAD_PID });
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([]);
    expect(readdirSync(home.dir)).toEqual(['config.json']);
  });

  it('on another host and older than any write takes: stale', async () => {
    const home = configHome();
    lockBy(home, { pid: DEAD_PID, host: 'elsewhere' }, STALE_AFTER_MS + 5_000);
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: home.env })).code).toBe(0);
  });

  it('on another host, or in another container, and fresh: waited for until a holder gone would have let it age out', async () => {
    for (const [owner, where] of [
      [{ pid: process.pid, host: 'elsewhere' }, ' on elsewhere'],
      [
        { pid: 1, where: 'another-boot pid:[4026531836]' },
        ` on ${hostname()}, in another container, pid namespace or boot`,
      ],
    ] as const) {
      const home = configHome();
      const path = lockBy(home, owner);
      const result = await cdata(['config', 'set', 'timeout', '5'], { env: home.env, onSleep: refreshedBy(path) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error: the config file is locked by another cdata (pid ${owner.pid}${where}): ${path}`,
      );
      // A holder's refresh comes every STALE_AFTER_MS / 4: past STALE_AFTER_MS and one more, a dead one's lock is stale.
      expect(result.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(STALE_AFTER_MS * 1.25);
    }
  });

  it('of a live process on this host, however old: still held (a stopped or stalled holder keeps it)', async () => {
    const home = configHome();
    lockBy(home, { pid: process.pid }, STALE_AFTER_MS * 100);
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`locked by another cdata (pid ${process.pid} on ${hostname()})`);
  });

  it("of a pid now another process's (the holder died, its pid given again: pid 1 of the next container): taken over at once", async () => {
    const home = configHome();
    const { where } = ownIdentity();
    expect(where).toMatch(/^[0-9a-f-]{36} pid:\[\d+\]$/); // Linux: the boot id and the pid namespace
    lockBy(home, { pid: process.pid, where, started: '1' });
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([]);
  });

  it('of a live holder, its start time recorded: still held', async () => {
    const home = configHome();
    lockBy(home, { ...ownIdentity() }, STALE_AFTER_MS * 100);
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: home.env })).code).toBe(2);
  });

  it('from another boot or pid namespace on this host: judged by age, as from another host', async () => {
    const home = configHome();
    const elsewhere = { pid: process.pid, where: 'c0ffee00-0000-4000-8000-000000000000 pid:[4026531836]' };
    const path = lockBy(home, elsewhere);
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: home.env, onSleep: refreshedBy(path) })).code).toBe(
      2,
    );
    lockBy(home, elsewhere, STALE_AFTER_MS + 5_000);
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: home.env })).code).toBe(0);
  });

  it('on another host and refreshed: not judged by a pid that means nothing here', async () => {
    const home = configHome();
    const path = lockBy(home, { pid: DEAD_PID, host: 'elsewhere' });
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: home.env, onSleep: refreshedBy(path) })).code).toBe(
      2,
    );
  });

  it("on another host whose clock is a minute behind or ahead: judged by its refreshes, never by the clocks' gap", async () => {
    for (const skewMs of [-60_000, 60_000]) {
      // A live holder: its lock looks a minute old (or new) to this host, and is refreshed: kept.
      const live = configHome();
      const path = lockBy(live, { pid: DEAD_PID, host: 'elsewhere' }, -skewMs);
      const held = await cdata(['config', 'set', 'timeout', '5'], {
        env: live.env,
        onSleep: refreshedBy(path, skewMs),
      });
      expect(held.code).toBe(2);
      expect(held.stderr).toContain(`(pid ${DEAD_PID} on elsewhere)`);
      // A holder gone: unchanged while this one waits STALE_AFTER_MS, whatever its clock said.
      const gone = configHome();
      lockBy(gone, { pid: DEAD_PID, host: 'elsewhere' }, -skewMs);
      const taken = await cdata(['config', 'set', 'timeout', '5'], { env: gone.env });
      expect(taken.code).toBe(0);
      const waited = taken.sleeps.reduce((a, b) => a + b, 0);
      expect(waited).toBeGreaterThanOrEqual(STALE_AFTER_MS);
      expect(waited).toBeLessThan(STALE_AFTER_MS * 1.25);
    }
  });

  it('on another host and older than an hour by this clock: taken over at once', async () => {
    const home = configHome();
    lockBy(home, { pid: DEAD_PID, host: 'elsewhere' }, 3_600_000 + 60_000);
    const result = await cdata(['config', 'set', 'timeout', '5'], { env: home.env });
    expect(result).toMatchObject({ code: 0, sleeps: [] });
  });

  it('half written (no owner yet) and recent: waited on', async () => {
    const home = configHome();
    writeFileSync(`${home.file}.lock`, '');
    expect((await cdata(['config', 'set', 'timeout', '5'], { env: home.env })).code).toBe(2);
  });

  it('is released after the work, also when the work fails', async () => {
    const home = configHome();
    const { io } = testIo({ env: home.env });
    const lock = join(home.dir, 'x.lock');
    await expect(withLock(lock, io, async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(existsSync(lock)).toBe(false);
    expect(await withLock(lock, io, async () => existsSync(lock))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('is released by the interrupt cleanup (Ctrl-C during a write)', async () => {
    const home = configHome();
    const test = testIo({ env: home.env });
    const lock = join(home.dir, 'x.lock');
    await withLock(lock, test.io, async () => {
      test.interrupt();
      expect(existsSync(lock)).toBe(false);
    });
  });

  it('serialises writers in one process: both changes survive', async () => {
    const home = configHome();
    const { io } = testIo({ env: home.env, realSleep: true });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        updateConfig(io, (data) => {
          data.profiles[`p${i}`] = { timeout: i + 1 };
        }),
      ),
    );
    expect(Object.keys(home.read().profiles as object).sort()).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p6',
      'p7',
    ]);
  });
});

describe('a folder removed while its lock is waited on', () => {
  it("the config's is not made again by a waiter (store.ts makes it, 0700): cannot write, exit 2", async () => {
    const dir = join(tempConfigDir(), 'config');
    mkdirSync(dir);
    const lock = join(dir, 'config.json.lock');
    const first = testIo({ realSleep: true });
    let release: () => void = () => undefined;
    const holding = withLock(lock, first.io, () => new Promise<void>((resolve) => (release = resolve)));
    const waiting = withLock(lock, testIo({ realSleep: true }).io, async () => 'held');
    await new Promise((resolve) => setTimeout(resolve, 50));
    rmSync(dir, { recursive: true });
    await expect(waiting).rejects.toThrow(/^cannot write in the config folder /);
    expect(existsSync(dir)).toBe(false);
    release();
    await holding;
  });

  it('an export interrupted before its first commit removes the folder it made; the one waiting makes it again and goes on', async () => {
    const dir = join(tempConfigDir(), 'new', 'exports');
    const first = testIo({ realSleep: true });
    const second = testIo({ realSleep: true });
    prepareFolder(dir, first.io);
    let release: () => void = () => undefined;
    const holding = withFolderLock(dir, first.io, () => new Promise<void>((resolve) => (release = resolve)));
    prepareFolder(dir, second.io); // there already: nothing of it is the second's to remove
    const waiting = withFolderLock(dir, second.io, async () => readdirSync(dir));
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.interrupt(); // the lock released, then the folder, empty, removed
    expect(existsSync(dir)).toBe(false);
    expect(await waiting).toEqual(['..lock']);
    release();
    await holding;
  });
});
