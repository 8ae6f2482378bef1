// The export folder as docs/exports.md describes it: one generation behind ..data, a link
// per file for readers, --stamp files kept as history, an older cdata's folder taken over, what a
// killed export left cleared, one export at a time, and a previous manifest that is no file.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceOk, ResourceWritten } from '../../src/export/manifest.js';
import { NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { until } from '../helpers/wait.js';
import { BIN, NOBODY, runBin, runBinAsNobody } from '../helpers/spawn.js';
import { spawn } from 'node:child_process';
import { scratch } from '../faults/scratch.js';
import { asOldLayout, leftovers, manifestOf, names, REWRITTEN, shown, whole } from './layout.js';

const makeSandbox = useSandboxes();

/** The built binary as a child this test can stop and resume; `done` settles when it exits. */
function spawnBin(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: process.env.TMPDIR ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}
const folder = scratch('cdata-layout');
const GENERATION = /^\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.[0-9a-f]{10}$/;
const at = (iso: string) => ({ now: () => Date.parse(iso) });

/** `cdata export LISTS --dir dir` against a sandbox of its own, run once; `again` runs it again (other args may follow). */
async function exportedOnce(lists: string[], dir = folder()) {
  const sandbox = await makeSandbox();
  const again = (...more: string[]) => run(['export', ...lists, '--dir', dir, ...more], { env: sandboxEnv(sandbox) });
  expect((await again()).code).toBe(0);
  return { sandbox, dir, again };
}

describe('what a reader of the folder sees', () => {
  it('each name a link into ..data, which points to the one generation folder holding the files', async () => {
    const { dir, again } = await exportedOnce(['tenders', 'agents']);
    expect(names(dir)).toEqual(['agents.csv', 'changes.ndjson', 'manifest.json', 'tenders.csv']);
    const [generation, ...others] = readdirSync(dir).filter((name) => name.startsWith('.') && name !== '..data');
    expect(others).toEqual([]);
    expect(generation).toMatch(GENERATION);
    expect(readlinkSync(join(dir, '..data'))).toBe(generation);
    for (const name of names(dir)) expect(readlinkSync(join(dir, name))).toBe(`..data/${name}`);
    // And each list's state, a dot name with no link (docs/exports.md, "Where the state is kept").
    expect(readdirSync(join(dir, generation!)).sort()).toEqual([
      '.state.agents.json',
      '.state.tenders.json',
      ...names(dir),
    ]);

    // The next export: a new generation, the old one gone, the links as they were.
    expect((await again()).code).toBe(0);
    const [next] = readdirSync(dir).filter((name) => GENERATION.test(name));
    expect(next).not.toBe(generation);
    expect(readdirSync(dir).filter((name) => GENERATION.test(name))).toEqual([next]);
    expect(leftovers(dir)).toEqual([]);
  });

  it('shell tools: cat and cp read the files; cp -a copies a folder that works; cp -P copies links that lead nowhere', async () => {
    const base = folder();
    const { dir } = await exportedOnce(['agents'], join(base, 'exports'));
    const content = shown(dir)['agents.csv'];
    const sh = (line: string) => execFileSync('sh', ['-c', line], { cwd: base, encoding: 'utf8' });
    expect(sh('cat exports/agents.csv')).toBe(content);
    sh(
      'mkdir plain && cp exports/*.csv plain/ && cp -a exports whole && mkdir links && cp -P exports/agents.csv links/',
    );
    expect(lstatSync(join(base, 'plain', 'agents.csv')).isFile()).toBe(true);
    expect(readFileSync(join(base, 'plain', 'agents.csv'), 'utf8')).toBe(content);
    expect(readFileSync(join(base, 'whole', 'agents.csv'), 'utf8')).toBe(content);
    whole(join(base, 'whole'));
    expect(statSync(join(base, 'links', 'agents.csv'), { throwIfNoEntry: false })).toBeUndefined();
  });

  it("an export run as root, then one as the folder's owner: the owner's removes root's generation (given to the owner)", async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    chmodSync(dirname(dir), 0o755); // others may enter (as nobody under root)
    if (process.getuid?.() === 0) chownSync(dir, NOBODY, NOBODY);
    expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
    const owner = await runBinAsNobody(['export', 'agents', '--dir', dir], {
      env: { ...sandboxEnv(sandbox), CDATA_CONFIG_DIR: dir },
    });
    expect(owner).toMatchObject({ code: 0, stderr: '' });
    expect(leftovers(dir)).toEqual([]);
    whole(dir);
  });

  it("a file's mode is kept from one export to the next (chmod follows the link)", async () => {
    const { dir, again } = await exportedOnce(['agents']);
    chmodSync(join(dir, 'agents.csv'), 0o640);
    expect((await again()).code).toBe(0);
    expect(statSync(join(dir, 'agents.csv')).mode & 0o777).toBe(0o640);
  });
});

describe('--stamp', () => {
  it("keeps every earlier stamped file, each described in the manifest's history as its own export described it", async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    const stamped = (iso: string) =>
      run(['export', 'tenders', 'agents', '--dir', dir, '--stamp'], { env: sandboxEnv(sandbox), ...at(iso) });
    expect((await stamped('2026-11-20T06:00:00Z')).code).toBe(0);
    // Described as their exports described them, but for what changed, which concerns only the export that wrote them.
    const files = () =>
      (manifestOf(dir).resources as ResourceWritten[]).map(
        ({ changes: _changes, gap: _gap, unseen: _unseen, ...entry }): ResourceOk => entry,
      );
    const first = files();
    expect((await stamped('2026-11-21T06:00:00Z')).code).toBe(0);
    const second = files();
    expect((await stamped('2026-11-22T06:00:00Z')).code).toBe(0);
    const manifest = whole(dir);
    expect(names(dir)).toEqual([
      'agents-2026-11-20T0600Z.csv',
      'agents-2026-11-21T0600Z.csv',
      'agents-2026-11-22T0600Z.csv',
      'changes.ndjson',
      'manifest.json',
      'tenders-2026-11-20T0600Z.csv',
      'tenders-2026-11-21T0600Z.csv',
      'tenders-2026-11-22T0600Z.csv',
    ]);
    expect(manifest.resources.map((r) => r.file)).toEqual([
      'tenders-2026-11-22T0600Z.csv',
      'agents-2026-11-22T0600Z.csv',
    ]);
    expect(manifest.history).toEqual([...first, ...second].sort((a, b) => a.file.localeCompare(b.file)));
  });

  it('a stamped file whose name is deleted is left out of the next export', async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    const stamped = (iso: string) =>
      run(['export', 'agents', '--dir', dir, '--stamp'], { env: sandboxEnv(sandbox), ...at(iso) });
    expect((await stamped('2026-11-20T06:00:00Z')).code).toBe(0);
    expect((await stamped('2026-11-21T06:00:00Z')).code).toBe(0);
    unlinkSync(join(dir, 'agents-2026-11-20T0600Z.csv'));
    expect((await stamped('2026-11-22T06:00:00Z')).code).toBe(0);
    expect(names(dir)).toEqual([
      'agents-2026-11-21T0600Z.csv',
      'agents-2026-11-22T0600Z.csv',
      'changes.ndjson',
      'manifest.json',
    ]);
    expect(manifestOf(dir).history.map((h) => h.file)).toEqual(['agents-2026-11-21T0600Z.csv']);
    expect(readdirSync(join(dir, '..data'))).not.toContain('agents-2026-11-20T0600Z.csv');
  });
});

describe('a folder an older cdata wrote (plain files)', () => {
  it('is taken over: each file the old manifest names becomes a link to the same content; files it does not name stay as they were', async () => {
    const yesterday = await makeSandbox({ now: () => NOW });
    const today = await makeSandbox({ now: () => NOW + 86_400_000 });
    const dir = folder();
    expect((await run(['export', '--dir', dir], { env: sandboxEnv(yesterday) })).code).toBe(0);
    asOldLayout(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    writeFileSync(join(dir, 'tenders-2025-01-01T0000Z.csv'), 'an older stamped file the manifest forgot\n');
    const before = shown(dir);

    expect((await run(['export', 'tenders', '--dir', dir], { env: sandboxEnv(today) })).code).toBe(0);
    const manifest = whole(dir);
    expect(manifest.earlier.map((e) => e.file).sort()).toEqual([
      'agents.csv',
      'companies.csv',
      'documents.csv',
      'obligations.csv',
      'persons.csv',
      'sites.csv',
      'workspaces.csv',
    ]);
    for (const name of names(dir)) {
      const mine = name === 'notes.txt' || name.startsWith('tenders-');
      expect({ name, link: lstatSync(join(dir, name)).isSymbolicLink() }).toEqual({ name, link: !mine });
      if (name !== 'tenders.csv' && !REWRITTEN.has(name))
        expect({ name, same: shown(dir)[name] === before[name] }).toEqual({ name, same: true });
    }
    expect(shown(dir)['tenders.csv']).not.toBe(before['tenders.csv']);
    expect(leftovers(dir)).toEqual([]);
  });

  it('with no manifest at all: a list that fails keeps its plain file, now behind a link', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'tenders.csv'), 'ocid,title\nocds-old,An earlier export\n');
    const failing = await makeSandbox({ faults: () => (_req, res) => (res.writeHead(503).end(), 503) });
    const result = await run(['export', 'tenders', '--dir', dir, '--retries', '0'], { env: sandboxEnv(failing) });
    expect(result.code).toBe(6);
    expect(lstatSync(join(dir, 'tenders.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'tenders.csv'), 'utf8')).toBe('ocid,title\nocds-old,An earlier export\n');
    expect(manifestOf(dir).resources[0]).toMatchObject({ status: 'error', kept: null });
  });
});

describe('what a killed export leaves, the next one clears', () => {
  it('a generation never committed, the temp links, a link leading nowhere, the lock of a process gone', async () => {
    const { dir, again } = await exportedOnce(['agents']);
    mkdirSync(join(dir, '..2020_01_01_00_00_00.0123456789'));
    writeFileSync(join(dir, '..2020_01_01_00_00_00.0123456789', 'agents.csv'), 'half');
    symlinkSync('..2020_01_01_00_00_00.0123456789', join(dir, '..data_tmp'));
    symlinkSync('..data/tenders-2020-01-01T0000Z.csv', join(dir, 'tenders-2020-01-01T0000Z.csv'));
    writeFileSync(join(dir, '..lock'), JSON.stringify({ pid: 2 ** 22 + 12_345, host: hostname(), token: 'gone' }));
    writeFileSync(join(dir, '..lock.0123456789abcdef'), '{}');
    expect(leftovers(dir).length).toBe(5);
    const result = await again();
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(leftovers(dir)).toEqual([]);
    whole(dir);
  });

  it("a list's state is carried to the next generation, as it was, by an export of other lists", async () => {
    const { dir, sandbox } = await exportedOnce(['tenders', 'agents']);
    const state = (name: string) => readFileSync(join(dir, '..data', name), 'utf8');
    const tenders = state('.state.tenders.json');
    expect(JSON.parse(tenders)).toMatchObject({ resource: 'tenders' });
    const generation = readlinkSync(join(dir, '..data'));
    expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox) })).code).toBe(0);
    expect(readlinkSync(join(dir, '..data'))).not.toBe(generation);
    expect(
      readdirSync(join(dir, '..data'))
        .filter((name) => name.startsWith('.'))
        .sort(),
    ).toEqual(['.state.agents.json', '.state.tenders.json']);
    expect(state('.state.tenders.json')).toBe(tenders);
  });
});

describe('one export at a time', () => {
  it('a second export into a folder in use waits, then exit 2 naming the holder; the first completes', async () => {
    const slow = await makeSandbox({ latencyMs: 1500 });
    const dir = folder();
    const first = runBin(['export', 'agents', '--dir', dir], { env: sandboxEnv(slow) });
    for (let i = 0; i < 200 && !readdirSync(dir).includes('..lock'); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const second = await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(slow) });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^error: another cdata is exporting into ${dir} \\(pid \\d+ on ${hostname()}\\): ${dir}/\\.\\.lock\\nhint: Let it finish, then run this export again\\. If no other cdata is running, remove the lock file: rm '${dir}/\\.\\.lock'\\n$`,
      ),
    );
    expect(await first).toMatchObject({ code: 0, stderr: '' });
    whole(dir);
    expect(leftovers(dir)).toEqual([]);
  });
});

describe('an export stopped or stalled for longer than its lock is refreshed', () => {
  /** A whole export in a folder, then a second one, against a slow sandbox, caught holding the lock. */
  async function exportHoldingTheLock() {
    const slow = await makeSandbox({ latencyMs: 1500 });
    const dir = folder();
    expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(slow) })).code).toBe(0);
    const before = whole(dir);
    const first = spawnBin(['export', 'agents', '--dir', dir], sandboxEnv(slow));
    await until(() => readdirSync(dir).includes('..lock'), 'the first export to take the lock');
    return { slow, dir, before, first };
  }

  it('keeps its lock: a second export waits and gives up (exit 2); the first, resumed, commits whole', async () => {
    const { slow, dir, before, first } = await exportHoldingTheLock();
    first.child.kill('SIGSTOP'); // Ctrl-Z: no refresh of the lock while it stays stopped
    const lock = join(dir, '..lock');
    const long = (Date.now() - 60_000) / 1000;
    utimesSync(lock, long, long); // as if stopped for a minute
    const second = await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(slow) });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/^error: another cdata is exporting into /);
    expect(manifestOf(dir).exportedAt).toBe(before.exportedAt); // nothing of the second's
    first.child.kill('SIGCONT');
    expect(await first.done).toMatchObject({ code: 0, stderr: '' });
    expect(manifestOf(dir).exportedAt).not.toBe(before.exportedAt);
    whole(dir);
    expect(leftovers(dir)).toEqual([]);
  });

  it('whose lock was taken over meanwhile commits nothing: exit 2, the folder as the new holder left it', async () => {
    const { dir, before, first } = await exportHoldingTheLock();
    // Another holder's lock in its place (as a takeover from another host would leave it).
    writeFileSync(join(dir, '..lock'), JSON.stringify({ pid: 4242, host: 'elsewhere', token: 'theirs' }));
    const result = await first.done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "this export no longer holds the folder's lock (..lock): another export took it over; nothing was committed",
    );
    expect(whole(dir)).toEqual(before);
    expect(readFileSync(join(dir, '..lock'), 'utf8')).toContain('"theirs"'); // not released as if ours
  });

  it('whose generation the new holder cleared: exit 2 said as the lost lock, not the ENOENT of a file it was writing', async () => {
    const { dir, before, first } = await exportHoldingTheLock();
    // Its own generation folder made: then the takeover a host whose refresh went unseen makes.
    const current = readlinkSync(join(dir, '..data'));
    const mine = () => readdirSync(dir).filter((name) => name.startsWith('..2') && name !== current);
    await until(() => mine().length === 1, 'the first export to open its generation');
    writeFileSync(join(dir, '..lock'), JSON.stringify({ pid: 4242, host: 'elsewhere', token: 'theirs' }));
    for (const name of mine()) rmSync(join(dir, name), { recursive: true, force: true });
    const result = await first.done;
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "error: this export no longer holds the folder's lock (..lock): another export took it over; nothing was committed\n" +
        'hint: Run one export into a folder at a time: a lock not refreshed for 10 s (a run stopped or stalled that long) is taken over by the next.\n',
    });
    expect(whole(dir)).toEqual(before);
  });
});

describe('a previous manifest that is no file cdata wrote: exit 2 at once, nothing written', () => {
  const refused = async (dir: string) => {
    const sandbox = await makeSandbox();
    const result = await runBin(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox), timeoutMs: 10_000 });
    return { ...result, requests: sandbox.requests.length };
  };

  it('a FIFO (an open would wait for a writer forever, deaf to signals), in either layout', async () => {
    const plain = folder();
    execFileSync('mkfifo', [join(plain, 'manifest.json')]);
    expect(await refused(plain)).toMatchObject({
      code: 2,
      signal: null,
      requests: 0,
      stderr: `error: cannot export into ${plain}: ${plain}/manifest.json is in the way (it is not a regular file)\nhint: cdata keeps its manifest under that name: move the thing there away, or choose another --dir.\n`,
    });

    const { dir } = await exportedOnce(['agents']);
    rmSync(join(dir, '..data', 'manifest.json'));
    execFileSync('mkfifo', [join(dir, '..data', 'manifest.json')]);
    const before = readdirSync(dir).sort();
    const result = await refused(dir);
    expect(result).toMatchObject({ code: 2, signal: null, requests: 0 });
    expect(result.stderr).toBe(
      `error: cannot export: the previous manifest ${dir}/manifest.json cannot be read: it is not a regular file\nhint: cdata reads it to know which earlier files to keep; move it away to start the folder afresh.\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it("someone's own manifest.json (JSON of another shape, or not JSON): kept as it is, exit 2, no request", async () => {
    for (const theirs of [
      '{"manifest_version":3,"name":"My extension"}',
      'hello, not json',
      '{"version":1,"resources":"x"}',
    ]) {
      const dir = folder();
      writeFileSync(join(dir, 'manifest.json'), theirs);
      expect(await refused(dir)).toMatchObject({
        code: 2,
        requests: 0,
        stderr: `error: cannot export into ${dir}: ${dir}/manifest.json is in the way (it is a plain file, and not a manifest cdata wrote)\nhint: cdata keeps its manifest under that name: move the thing there away, or choose another --dir.\n`,
      });
      expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(theirs);
      expect(readdirSync(dir)).toEqual(['manifest.json']);
    }
  });

  it('a link to /dev/zero, a folder, a file past 64 MiB', async () => {
    const link = folder();
    symlinkSync('/dev/zero', join(link, 'manifest.json'));
    expect((await refused(link)).stderr).toBe(
      `error: cannot export into ${link}: ${link}/manifest.json is in the way (it is a symbolic link cdata did not make (to /dev/zero))\nhint: cdata keeps its manifest under that name: move the thing there away, or choose another --dir.\n`,
    );
    const dir = folder();
    mkdirSync(join(dir, 'manifest.json'));
    expect((await refused(dir)).stderr).toMatch(/is in the way \(it is a folder\)\n/);
    const big = folder();
    writeFileSync(join(big, 'manifest.json'), '');
    truncateSync(join(big, 'manifest.json'), 64 * 1024 * 1024 + 1);
    expect(await refused(big)).toMatchObject({
      code: 2,
      requests: 0,
      stderr: `error: cannot export: the previous manifest ${big}/manifest.json cannot be read: it is larger than 64 MiB\nhint: cdata reads it to know which earlier files to keep; move it away to start the folder afresh.\n`,
    });
  });

  it('..data whose generation was removed by hand: the next export starts afresh, as `cdata changes` says', async () => {
    const dir = folder();
    const env = sandboxEnv(await makeSandbox());
    expect((await run(['export', '--dir', dir, '-q'], { env })).code).toBe(0);
    rmSync(join(dir, readlinkSync(join(dir, '..data'))), { recursive: true });
    const changes = await run(['changes', '--dir', dir], { env });
    expect(changes.code).toBe(2);
    expect(changes.stderr).toContain(
      `hint: cdata export writes them; the next export into ${dir} writes them afresh.\n`,
    );
    const again = await run(['export', '--dir', dir, '-q'], { env });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(manifestOf(dir).resources.every((entry) => entry.status === 'ok' && entry.changes === null)).toBe(true);
    expect(leftovers(dir)).toEqual([]);
  });

  it("..data that is not cdata's", async () => {
    const dir = folder();
    mkdirSync(join(dir, '..data'));
    const result = await refused(dir);
    expect(result).toMatchObject({ code: 2, requests: 0 });
    expect(result.stderr.split('\n')[0]).toBe(
      `error: cannot export into ${dir}: ${dir}/..data is not cdata's (a link to one of its ..YYYY_MM_DD_… folders)`,
    );
  });
});
