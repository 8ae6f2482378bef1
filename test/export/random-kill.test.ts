// An export killed at random instants: SIGKILL, SIGTERM and SIGINT, until 4 trials of each have
// stopped a run part-way in npm test (34 under npm run soak: test/helpers/soak.ts; 102 in all;
// one chain of trials per signal, one after another, so that this file spawns one process at a
// time beside the rest of the suite). Each trial runs the built binary (`cdata export LISTS
// --stamp`) into a folder holding a hundred files of earlier exports and five lists it does not
// ask for, all carried into the new generation (and the old one removed), and kills it after a
// random delay up to just past its commit, as last measured (by an unkilled run, or by a trial
// that got as far as its commit); every other trial in the run's last 40%. After every trial
// the folder must be exactly one complete export, the previous or the new one (files, manifest
// and SHA-256s agreeing, every file the content it should have); after SIGTERM or SIGINT
// nothing may be left behind; after SIGKILL the next export must clear what was left, and
// succeed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readlinkSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceOk } from '../../src/export/manifest.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { BIN } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';
import { seed, trials } from '../helpers/soak.js';
import { leftovers, listsOf, manifestOf, REWRITTEN, shown, whole } from './layout.js';

/** Per signal: trials that end before their run does (a kill that comes after the end proves nothing), within a cap. */
const INTERRUPTED = trials(4, 34);
const MAX_TRIALS = 80;
const LISTS = ['tenders', 'sites', 'agents'];
const HISTORY = 100;
/** Every so many trials one runs unkilled, to measure how long a run takes under today's load. */
const MEASURE_EVERY = 15;
const SEED = seed(20261125);
const folder = scratch('cdata-kill');

/** mulberry32: a seeded random, so a failing chain can be run again (CDATA_SEED=…). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Ended {
  /** The exit code, or 128 + the signal's number when killed by it. */
  code: number;
  stderr: string;
  /** Start to end, and start to the commit (the rename of ..data; undefined when there was none). */
  ms: number;
  commitMs: number | undefined;
}

/**
 * `cdata export LISTS --stamp --dir dir` as a child process, sent `kill.signal` after
 * `kill.delayMs` (never, without `kill`). The signal comes from coreutils' `timeout`, which
 * only ever signals its own child (--foreground: not its process group, itself included, so it
 * lives to reap the child before it exits) and keeps time while this process is busy (checking
 * folders, answering as the sandbox): a timer here fired late, after many a run had ended.
 */
function exportOnce(
  dir: string,
  env: Record<string, string>,
  kill?: { signal: NodeJS.Signals; delayMs: number },
): Promise<Ended> {
  const started = Date.now();
  let committedAt: number | undefined;
  const command = [process.execPath, BIN, 'export', ...LISTS, '--dir', dir, '--stamp'];
  const [file, ...args] = kill
    ? ['timeout', '--foreground', '--preserve-status', '-s', kill.signal, (kill.delayMs / 1000).toFixed(3), ...command]
    : command;
  const child = spawn(file!, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const watcher = watch(dir, (_event, name) => {
    if (name === '..data') committedAt ??= Date.now();
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      watcher.close();
      const status = code ?? 128 + constants.signals[signal!];
      resolve({
        code: status,
        stderr,
        ms: Date.now() - started,
        commitMs: committedAt === undefined ? undefined : committedAt - started,
      });
    }),
  );
}

/** Adds `count` files of earlier stamped exports to the export in `dir`: in its generation, linked, and in its manifest's history. */
function addHistory(dir: string, count: number): void {
  const generation = join(dir, readlinkSync(join(dir, '..data')));
  const manifest = manifestOf(dir);
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString();
    const file = `tenders-${at.slice(0, 10)}T${at.slice(11, 13)}00Z.csv`;
    const content = `ocid,title\nocds-${i},Tender ${i}\n`;
    writeFileSync(join(generation, file), content);
    symlinkSync(`..data/${file}`, join(dir, file));
    const sha256 = createHash('sha256').update(content).digest('hex');
    const entry: ResourceOk = {
      resource: 'tenders',
      status: 'ok',
      file,
      rows: 1,
      truncated: false,
      sha256,
      bytes: content.length,
      exportedAt: at,
      profile: 'default',
      baseUrl: manifest.baseUrl,
    };
    manifest.history.push(entry);
  }
  writeFileSync(join(generation, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

describe('an export killed at random instants', () => {
  // Two days' data: each trial exports the day the folder does not hold yet.
  const days = ['2027-02-28T06:00:00Z', '2027-03-01T06:00:00Z'].map(Date.parse);
  const sandboxes: Sandbox[] = [];
  /** Each day's lists as a whole export writes them. */
  const expected: Record<string, string>[] = [];
  const tally = { old: 0, new: 0, finished: 0, measured: 0, trials: 0 };

  beforeAll(async () => {
    for (const day of days) {
      const sandbox = await startSandbox({ now: () => day });
      sandboxes.push(sandbox);
      const dir = join(folder(), 'exports');
      expect((await run(['export', ...LISTS, '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
      expected.push(listsOf(shown(dir), whole(dir)));
    }
  });

  afterAll(async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    console.log(
      `random kills (seed ${SEED}): ${tally.trials} trials; ${tally.old} left the previous export, ${tally.new} the new one (${tally.finished} of them finished before the signal); ${tally.measured} unkilled runs measured`,
    );
  });

  it.each([
    ['SIGKILL', 137],
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s: the folder is always the previous export or the new one, whole',
    async (signal, stopped) => {
      const random = seeded(SEED + signal.charCodeAt(3));
      const dir = join(folder(), 'exports');
      let day = 0;
      expect((await run(['export', '--dir', dir], { env: sandboxEnv(sandboxes[day]!) })).code).toBe(0);
      addHistory(dir, HISTORY);
      // When a run commits, from its start: measured unkilled, now and then, as the load changes.
      const measure = async () => {
        const ended = await exportOnce(dir, sandboxEnv(sandboxes[1 - day]!));
        expect({ code: ended.code, stderr: ended.stderr }).toEqual({ code: 0, stderr: '' });
        day = 1 - day;
        tally.measured++;
        return ended.commitMs ?? ended.ms;
      };
      let commitMs = await measure();

      let interrupted = 0;
      for (let trial = 1; interrupted < INTERRUPTED; trial++) {
        expect(trial, `only ${interrupted} of ${MAX_TRIALS} trials ended before their run did`).toBeLessThanOrEqual(
          MAX_TRIALS,
        );
        if (trial % MEASURE_EVERY === 0) commitMs = await measure();
        const before = shown(dir);
        const previous = whole(dir).exportedAt;
        // Anywhere up to just past the commit; every other trial in its last 40% (writing,
        // carrying, the commit, tidying), where a kill once paired new files with the old manifest.
        const from = trial % 2 === 0 ? 0 : 0.6;
        const delayMs = Math.floor(commitMs * (from + random() * (1.02 - from)));
        const env = sandboxEnv(sandboxes[1 - day]!);
        const ended = await exportOnce(dir, env, { signal, delayMs });
        if (ended.code !== 0) interrupted++;
        // Any run that got as far as its commit measures it too: a trial spent on a run that
        // finished before its signal proves little, and a stale estimate made half of them so.
        if (ended.commitMs !== undefined) commitMs = ended.commitMs;
        tally.trials++;
        const where = { signal, trial, delayMs, seed: SEED };

        // Stopped by the signal (killed, or cleaned up and exited 130, 143), or done before it came.
        expect({ ...where, code: [0, stopped].includes(ended.code) ? 'ok' : ended.code, stderr: ended.stderr }).toEqual(
          { ...where, code: 'ok', stderr: '' },
        );
        const manifest = whole(dir);
        const files = shown(dir);
        if (manifest.exportedAt === previous) {
          tally.old++;
          expect({ ...where, files }).toEqual({ ...where, files: before });
        } else {
          tally.new++;
          if (ended.code === 0) tally.finished++;
          day = 1 - day;
          expect({ ...where, lists: listsOf(files, manifest) }).toEqual({ ...where, lists: expected[day] });
          // Every earlier file is still there, as it was.
          const own = new Set(manifest.resources.map((r) => r.file));
          const kept = Object.keys(before).filter((name) => !REWRITTEN.has(name) && !own.has(name));
          expect({ ...where, kept: kept.filter((name) => files[name] !== before[name]) }).toEqual({
            ...where,
            kept: [],
          });
        }
        // SIGINT and SIGTERM leave nothing behind (before cdata listens for them, nothing is written).
        if (signal !== 'SIGKILL') expect({ ...where, left: leftovers(dir) }).toEqual({ ...where, left: [] });
        else {
          // What SIGKILL left (a generation never committed, the lock, a link leading nowhere)
          // the next export clears, and it succeeds.
          const next = await run(['export', ...LISTS, '--stamp', '--dir', dir], {
            env: sandboxEnv(sandboxes[1 - day]!),
          });
          expect({ ...where, code: next.code, stderr: next.stderr }).toEqual({ ...where, code: 0, stderr: '' });
          day = 1 - day;
          whole(dir);
          expect({ ...where, left: leftovers(dir) }).toEqual({ ...where, left: [] });
        }
      }
    },
    240_000,
  );
});
