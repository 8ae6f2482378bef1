// What an interrupted export or --out leaves behind: every file whole, old or new, never partial.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/sandbox/faults.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { BIN } from '../helpers/spawn.js';
import { copyFolder, names, REWRITTEN, shown, whole } from './layout.js';

const folder = () => mkdtempSync(join(tmpdir(), 'cdata-interrupt-'));
const snapshot = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const dataFiles = (dir: string) => names(dir).filter((f) => !REWRITTEN.has(f));

/** Starts `cdata ...args`, calls `interrupt(child)` when `when` resolves, resolves on exit. */
function runUntil(args: string[], env: Record<string, string>, when: Promise<unknown>, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  void when.then(() => child.kill(signal));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr })),
  );
}

describe('an export killed part-way', () => {
  // Yesterday's export (old) and what today's would write (new): every data file differs.
  let old: Sandbox;
  let oldDir: string;
  let newFiles: Record<string, string>;
  let oldManifest: string;
  const today = () => Date.parse('2027-03-01T06:00:00Z');

  beforeAll(async () => {
    old = await startSandbox({ now: () => Date.parse('2027-02-28T06:00:00Z') });
    oldDir = folder();
    expect((await run(['export', '--dir', oldDir], { env: sandboxEnv(old) })).code).toBe(0);
    const fresh = await startSandbox({ now: today });
    const newDir = folder();
    expect((await run(['export', '--dir', newDir], { env: sandboxEnv(fresh) })).code).toBe(0);
    newFiles = shown(newDir);
    oldManifest = whole(oldDir).exportedAt;
    await fresh.close();
    // Dated lists differ from one day to the next (agents and workspaces do not).
    const differing = dataFiles(oldDir).filter((file) => readFileSync(join(oldDir, file), 'utf8') !== newFiles[file]);
    expect(differing.sort()).toEqual([
      'companies.csv',
      'documents.csv',
      'obligations.csv',
      'persons.csv',
      'sites.csv',
      'tenders.csv',
    ]);
  });
  afterAll(() => old.close());

  it('by SIGKILL at any point: each file is the old one or the new one, never a part', async () => {
    // Killed right after the k-th answer leaves the server, for k = 1..8, and a little later:
    // across the staging of files and their renames.
    for (const [answer, extraMs] of [
      [1, 0],
      [4, 0],
      [8, 0],
      [8, 5],
      [8, 15],
      [8, 30],
      [8, 60],
      [8, 120],
    ] as const) {
      let answered = 0;
      let reached!: () => void;
      const killPoint = new Promise<void>((resolve) => (reached = resolve));
      const slow = await startSandbox({
        now: today,
        latencyMs: 100,
        onRequest: () => {
          if (++answered === answer) setTimeout(reached, extraMs);
        },
      });
      const dir = join(folder(), 'exports');
      copyFolder(oldDir, dir);
      const oldFiles = shown(oldDir);
      const result = await runUntil(['export', '--dir', dir], sandboxEnv(slow), killPoint, 'SIGKILL');
      await slow.close();
      expect(result.signal === 'SIGKILL' || result.code === 0).toBe(true);
      // All old or all new, and the manifest agrees with the files.
      const manifest = whole(dir);
      const expected = manifest.exportedAt === oldManifest ? oldFiles : newFiles;
      // The manifest and the changes as this run wrote them (whole() checked that they agree).
      const rewritten = Object.fromEntries([...REWRITTEN].map((name) => [name, shown(dir)[name]]));
      expect({ answer, extraMs, files: shown(dir) }).toEqual({ answer, extraMs, files: { ...expected, ...rewritten } });
      expect(dataFiles(dir)).toEqual(dataFiles(oldDir));
    }
  }, 60_000);

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'by %s while written files wait for a slow list: nothing replaced, the new generation removed',
    async (signal, exitCode) => {
      let answered = 0;
      let reached!: () => void;
      const staged = new Promise<void>((resolve) => (reached = resolve));
      const stuck = await startSandbox({
        now: today,
        // tenders never finishes; the seven others answer and are staged (temp files) meanwhile.
        faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? FAULTS.stallAfterHeaders : undefined),
        onRequest: () => {
          if (++answered === 7) setTimeout(reached, 150);
        },
      });
      const dir = join(folder(), 'exports');
      copyFolder(oldDir, dir);
      const result = await runUntil(['export', '--dir', dir], sandboxEnv(stuck), staged, signal);
      await stuck.close();
      expect(result.code).toBe(exitCode);
      expect(shown(dir)).toEqual(shown(oldDir)); // byte for byte
      expect(readdirSync(dir)).toEqual(readdirSync(oldDir)); // the new generation and the lock removed
    },
  );
});

describe('--out interrupted', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('by %s before the answer: the old file stays, no temp file', async (signal, exitCode) => {
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    const slow = await startSandbox({
      faults: () => {
        arrived();
        return FAULTS.stallAfterHeaders;
      },
    });
    const dir = folder();
    writeFileSync(join(dir, 'tenders.csv'), 'old,content\n');
    const result = await runUntil(['tenders', '--out', join(dir, 'tenders.csv')], sandboxEnv(slow), requested, signal);
    await slow.close();
    expect(result.code).toBe(exitCode);
    expect(snapshot(dir)).toEqual({ 'tenders.csv': 'old,content\n' });
  });
});
