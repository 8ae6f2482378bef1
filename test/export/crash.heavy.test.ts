// An export stopped dead at each change it makes to the folder in turn, as a power cut would stop
// it: the built binary, with a preload (preload/crash-at-write.cjs) that SIGKILLs the process
// just before its n-th change (a folder or file made, written, linked, renamed or removed), for
// every n. In a folder of this layout; and in one an older cdata wrote, whose first export takes
// it over first (there, every change of the takeover is walked, and must leave the previous
// export as a reader saw it). After each crash the folder must be exactly one complete export,
// the previous or the new one; and the next export must clear what the crash left, and succeed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { BIN } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';
import { copyFolder, LAYOUTS, leftovers, listsOf, manifestOf, names, REWRITTEN, shown, whole } from './layout.js';

const PRELOAD = fileURLToPath(new URL('./preload/crash-at-write.cjs', import.meta.url));
const makeSandbox = useSandboxes();
const folder = scratch('cdata-crash');
const DAY = 86_400_000;

/** `cdata export ...args --dir dir`, SIGKILLed before its `at`-th change in `dir` (never, at 0); `changes()`: those it made, `syscall path` each. */
function exportCrashing(dir: string, args: string[], env: Record<string, string>, at: number) {
  const log = join(folder(), 'changes');
  const child = spawn(process.execPath, ['-r', PRELOAD, BIN, 'export', ...args, '--dir', dir], {
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      CDATA_CRASH_DIR: dir,
      CDATA_CRASH_AT: String(at),
      CDATA_CRASH_LOG: log,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; changes: () => string[] }>(
    (resolve) =>
      child.on('close', (code, signal) =>
        resolve({ code, signal, stderr, changes: () => readFileSync(log, 'utf8').trimEnd().split('\n') }),
      ),
  );
}

describe.each(LAYOUTS)('an export into a folder %s, crashing at each change in turn', (_layout, prepare) => {
  it('leaves the previous export or the new one, whole; the next export clears the rest', async () => {
    const yesterday = await makeSandbox({ now: () => NOW });
    const today = await makeSandbox({ now: () => NOW + DAY });
    // Yesterday: two lists. Today: one of them under a new (stamped) name; both files of
    // yesterday's are carried along.
    const old = join(folder(), 'exports');
    expect((await run(['export', 'tenders', 'agents', '--dir', old], { env: sandboxEnv(yesterday) })).code).toBe(0);
    prepare(old);
    const before = shown(old);
    const previous = manifestOf(old).exportedAt;
    const args = ['tenders', '--stamp'];
    const env = { ...sandboxEnv(today) };

    const reference = join(folder(), 'exports');
    copyFolder(old, reference);
    const clean = await exportCrashing(reference, args, env, 0);
    expect({ code: clean.code, stderr: clean.stderr }).toEqual({ code: 0, stderr: '' });
    const expected = listsOf(shown(reference), whole(reference));
    // Every change, in this layout. In an older cdata's folder those of the takeover, up to the
    // making of the export's own generation folder (the second one made): what follows is the
    // same export as in this layout, walked there.
    const changes = clean.changes();
    const generations = changes
      .map((line, i) => [line, i + 1] as const)
      .filter(([line]) => /^mkdirSync .*\/\.\.\d{4}_/.test(line));
    const takeover = prepare !== LAYOUTS[0]![1];
    const last = takeover ? generations[1]![1] : changes.length;
    expect(last).toBeGreaterThan(12);

    const outcomes = { previous: 0, new: 0 };
    for (let at = 1; at <= last; at++) {
      const dir = join(folder(), 'exports');
      copyFolder(old, dir);
      const crashed = await exportCrashing(dir, args, env, at);
      expect({ at, signal: crashed.signal }).toEqual({ at, signal: 'SIGKILL' });
      const manifest = whole(dir);
      const files = shown(dir);
      if (manifest.exportedAt === previous) {
        outcomes.previous++;
        expect({ at, files }).toEqual({ at, files: before });
      } else {
        outcomes.new++;
        expect({ at, lists: listsOf(files, manifest) }).toEqual({ at, lists: expected });
        for (const name of names(old))
          if (!REWRITTEN.has(name))
            expect({ at, name, same: files[name] === before[name] }).toEqual({ at, name, same: true });
      }
      const next = await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(today) }); // in-process: quick
      expect({ at, code: next.code, stderr: next.stderr }).toEqual({ at, code: 0, stderr: '' });
      whole(dir);
      expect({ at, left: leftovers(dir) }).toEqual({ at, left: [] });
    }
    if (takeover) {
      // The takeover changes nothing a reader sees: every crash in it leaves the previous export.
      expect(outcomes).toEqual({ previous: last, new: 0 });
    } else {
      // Some crashes come before the commit and some after it.
      expect(outcomes.previous).toBeGreaterThan(0);
      expect(outcomes.new).toBeGreaterThan(0);
    }
  }, 120_000);
});
