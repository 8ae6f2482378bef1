// Change detection in `cdata export` (docs/exports.md, docs/exports.md "What changed since
// the last export"): exports against the sandbox on two days, every line of changes.ndjson and
// every manifest count checked against the differences worked out here from the two days'
// answers; the baseline; a truncated list; a failed list in between; a kill during the second
// export; a state that is not cdata's; a subset of lists; a changes.ndjson in the way.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS, type Endpoint } from '../../src/core/endpoints.js';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../src/core/json.js';
import type { ResourceWritten } from '../../src/export/manifest.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { fetchDirect, NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { BIN } from '../helpers/spawn.js';
import { until } from '../helpers/wait.js';
import { scratch } from '../faults/scratch.js';
import { leftovers, manifestOf, shown, stateOf, whole } from './layout.js';

const makeSandbox = useSandboxes();
const folder = scratch('cdata-changes');
const ALL = LIST_ENDPOINTS.map((e) => e.name);
const day = (n: number, more: Parameters<typeof makeSandbox>[0] = {}) => makeSandbox({ day: n, ...more });
const exportInto = (dir: string, sandbox: Sandbox, ...more: string[]) =>
  run(['export', ...more, '--dir', dir], { env: sandboxEnv(sandbox), now: () => NOW });

type Counts = { added: number; changed: number; removed: number | null };
type Expected = { lines: JsonObject[]; counts: Record<string, Counts> };

/** Each list as the export asks for it: `limit` where the list takes one (agents and workspaces come whole). */
async function answers(
  sandbox: Sandbox,
  lists: readonly Endpoint[] = LIST_ENDPOINTS,
  limit = 200,
): Promise<Map<string, JsonObject[]>> {
  const takes = (e: Endpoint) => e.params.some((p) => p.kind === 'limit');
  const all = await Promise.all(
    lists.map(
      async (e) =>
        [e.name, (await fetchDirect(sandbox, e, takes(e) ? { limit: String(limit) } : {})) as JsonObject[]] as const,
    ),
  );
  return new Map(all);
}

/**
 * The changes from one day's answers to the next, worked out here from the rules in
 * docs/exports.md (not by src/export/changes.ts): rows by key; added, changed, removed, each by
 * key; a changed field with `from` and `to`; runwayDays not compared; nothing removed from a
 * list as long as its limit. Fields are compared by their JSON text, which for the sandbox's data
 * is the same as by value (it never rewrites a number without changing it).
 */
function expectedChanges(before: Map<string, JsonObject[]>, after: Map<string, JsonObject[]>, limit = 200): Expected {
  const lines: JsonObject[] = [];
  const counts: Record<string, Counts> = {};
  for (const [name, rows] of after) {
    const key = LIST_ENDPOINTS.find((e) => e.name === name)!.key!;
    const old = new Map(before.get(name)!.map((row) => [row[key] as string, row]));
    const now = new Map(rows.map((row) => [row[key] as string, row]));
    const truncated = rows.length >= (name === 'agents' || name === 'workspaces' ? 200 : limit);
    const added = [...now.keys()].filter((k) => !old.has(k)).sort();
    const changed: JsonObject[] = [];
    for (const k of [...now.keys()].filter((k) => old.has(k)).sort()) {
      const [was, is] = [old.get(k)!, now.get(k)!];
      const fields: JsonObject = {};
      for (const field of new Set([...Object.keys(is), ...Object.keys(was)])) {
        if (field !== 'runwayDays' && stringifyJson(was[field]) !== stringifyJson(is[field]))
          fields[field] = { from: was[field]!, to: is[field]! };
      }
      if (Object.keys(fields).length > 0) changed.push({ resource: name, key: k, change: 'changed', fields, row: is });
    }
    const removed = truncated ? [] : [...old.keys()].filter((k) => !now.has(k)).sort();
    lines.push(
      ...added.map((k) => ({ resource: name, key: k, change: 'added', row: now.get(k)! })),
      ...changed,
      ...removed.map((k) => ({ resource: name, key: k, change: 'removed', row: old.get(k)! })),
    );
    counts[name] = { added: added.length, changed: changed.length, removed: truncated ? null : removed.length };
  }
  return { lines, counts };
}

/** changes.ndjson's lines, parsed as cdata parses JSON (numbers as written). */
const linesOf = (dir: string): JsonValue[] =>
  readFileSync(join(dir, 'changes.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson(line));
const countsOf = (dir: string): Record<string, Counts | null> =>
  Object.fromEntries(manifestOf(dir).resources.map((r) => [r.resource, r.changes]));

describe('cdata export, from one day to the next', () => {
  it('the first export is every list\'s baseline: an empty changes.ndjson, "changes": null; the same data again: nothing changed', async () => {
    const dir = folder();
    const sandbox = await day(0);
    expect(await exportInto(dir, sandbox)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'changes.ndjson'), 'utf8')).toBe('');
    expect(countsOf(dir)).toEqual(Object.fromEntries(ALL.map((name) => [name, null])));
    expect(manifestOf(dir).changesFile).toEqual({
      file: 'changes.ndjson',
      lines: 0,
      bytes: 0,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });

    expect(await exportInto(dir, sandbox)).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(dir, 'changes.ndjson'), 'utf8')).toBe('');
    expect(countsOf(dir)).toEqual(
      Object.fromEntries(
        ALL.map((name) => [name, { added: 0, changed: 0, removed: name === 'obligations' ? null : 0 }]),
      ),
    );
    whole(dir);
  });

  it('day 0 then day 1: every line of changes.ndjson and every count in the manifest, as worked out from the two days', async () => {
    const [zero, one] = [await day(0), await day(1)];
    const expected = expectedChanges(await answers(zero), await answers(one));
    // Not a vacuous comparison: the day added, changed and removed rows, and obligations outgrew the window.
    const total = (kind: keyof Counts) => Object.values(expected.counts).reduce((sum, c) => sum + (c[kind] ?? 0), 0);
    expect([total('added'), total('changed'), total('removed')].every((n) => n > 0)).toBe(true);
    expect(expected.counts.obligations!.removed).toBeNull();

    const dir = folder();
    expect((await exportInto(dir, zero)).code).toBe(0);
    expect(await exportInto(dir, one)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(linesOf(dir)).toEqual(expected.lines);
    expect(countsOf(dir)).toEqual(expected.counts);
    // The file as written: one compact line per change, in that order, numbers as the API wrote them.
    const text = readFileSync(join(dir, 'changes.ndjson'), 'utf8');
    expect(text).toBe(expected.lines.map((line) => `${stringifyJson(line)}\n`).join(''));
    expect(text).toMatch(/"amount":\d+\.00[,}]/); // a new payment's round amount, as the API wrote it
    expect(manifestOf(dir).changesFile).toMatchObject({
      file: 'changes.ndjson',
      lines: expected.lines.length,
      bytes: Buffer.byteLength(text),
    });
    whole(dir);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a truncated list reports no removals (rows may only have left the window); a list cut by --limit neither', async () => {
    const [zero, one] = [await day(0), await day(1)];
    const [before, after] = [await answers(zero), await answers(one)];
    // A naive comparison would report removals: rows of day 0's window are not in day 1's.
    const ids = new Set(after.get('obligations')!.map((row) => row.id));
    expect(before.get('obligations')!.filter((row) => !ids.has(row.id)).length).toBeGreaterThan(0);
    const dir = folder();
    expect((await exportInto(dir, zero, 'obligations')).code).toBe(0);
    expect((await exportInto(dir, one, 'obligations')).code).toBe(0);
    expect(manifestOf(dir).resources).toMatchObject([
      { resource: 'obligations', rows: 200, truncated: true, changes: { added: 2, changed: 2, removed: null } },
    ]);
    expect(linesOf(dir).map((line) => (line as JsonObject).change)).toEqual(['added', 'added', 'changed', 'changed']);

    const tenders = LIST_ENDPOINTS.filter((e) => e.name === 'tenders');
    const limited = folder();
    expect((await exportInto(limited, zero, 'tenders', '--limit', '10')).code).toBe(0);
    expect((await exportInto(limited, one, 'tenders', '--limit', '10')).code).toBe(0);
    const expected = expectedChanges(await answers(zero, tenders, 10), await answers(one, tenders, 10), 10);
    expect(expected.counts.tenders!.removed).toBeNull();
    expect(countsOf(limited)).toEqual(expected.counts);
    expect(linesOf(limited)).toEqual(expected.lines);
  });

  it('a list that fails in between loses no change: it has none then, and its next export compares with its last successful one', async () => {
    const [zero, one] = [await day(0), await day(1)];
    const broken = await day(1, {
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? FAULTS.unavailable : undefined),
    });
    const expected = expectedChanges(await answers(zero), await answers(one));
    const dir = folder();
    expect((await exportInto(dir, zero)).code).toBe(0);
    const state = readFileSync(join(dir, '..data', '.state.tenders.json'));

    expect((await exportInto(dir, broken, '--retries', '0')).code).toBe(6);
    expect(manifestOf(dir).resources.find((r) => r.resource === 'tenders')).toMatchObject({
      status: 'error',
      changes: null,
    });
    expect(countsOf(dir)).toEqual({ ...expected.counts, tenders: null });
    expect(linesOf(dir)).toEqual(expected.lines.filter((line) => line.resource !== 'tenders'));
    // Its state is day 0's, carried along with its file.
    expect(readFileSync(join(dir, '..data', '.state.tenders.json')).equals(state)).toBe(true);
    whole(dir);

    expect((await exportInto(dir, one)).code).toBe(0);
    expect(linesOf(dir)).toEqual(expected.lines.filter((line) => line.resource === 'tenders'));
    expect(countsOf(dir)).toEqual({
      ...Object.fromEntries(
        ALL.map((name) => [name, { added: 0, changed: 0, removed: name === 'obligations' ? null : 0 }]),
      ),
      tenders: expected.counts.tenders,
    });
    whole(dir);
  });

  it("a kill during the second export leaves the first export's files, manifest and state; the next run still reports the changes", async () => {
    const [zero, one] = [await day(0), await day(1)];
    // Day 1's tenders never answer, so the export is killed with the other lists (and their states) written, before any commit.
    const stalled = await day(1, {
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? FAULTS.stallAfterHeaders : undefined),
    });
    const dir = folder();
    expect((await exportInto(dir, zero)).code).toBe(0);
    const generation = readlinkSync(join(dir, '..data'));
    const snapshot = () => ({
      files: shown(dir),
      states: Object.fromEntries(
        ALL.map((name) => [name, readFileSync(join(dir, '..data', `.state.${name}.json`), 'utf8')]),
      ),
    });
    const before = snapshot();

    const child = spawn(process.execPath, [BIN, 'export', '--dir', dir], {
      env: { PATH: process.env.PATH ?? '', ...sandboxEnv(stalled) },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    const next = () => readdirSync(dir).find((name) => name.startsWith('..2') && name !== generation);
    await until(() => {
      const made = next();
      return made !== undefined && readdirSync(join(dir, made)).includes('.state.agents.json');
    }, 'the second export to write a state into its generation');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    expect(readlinkSync(join(dir, '..data'))).toBe(generation);
    expect(snapshot()).toEqual(before);
    whole(dir);

    expect((await exportInto(dir, one)).code).toBe(0);
    const expected = expectedChanges(await answers(zero), await answers(one));
    expect(linesOf(dir)).toEqual(expected.lines);
    expect(countsOf(dir)).toEqual(expected.counts);
    expect(leftovers(dir)).toEqual([]);
  });

  it('compares each list with its own last export: after exporting some lists, the others still compare with theirs; formats and --stamp do not matter', async () => {
    const [zero, one] = [await day(0), await day(1)];
    const expected = expectedChanges(await answers(zero), await answers(one));
    const dir = folder();
    expect((await exportInto(dir, zero)).code).toBe(0);
    expect((await exportInto(dir, one, 'tenders', '-o', 'json', '--stamp')).code).toBe(0);
    expect(linesOf(dir)).toEqual(expected.lines.filter((line) => line.resource === 'tenders'));
    // The others' states stay those of day 0's export, as their files do (`earlier`).
    for (const entry of manifestOf(dir).earlier)
      expect(stateOf(dir, entry.resource)?.exportedAt).toBe(entry.exportedAt);
    whole(dir);
    expect((await exportInto(dir, one, '-o', 'ndjson')).code).toBe(0);
    expect(linesOf(dir)).toEqual(expected.lines.filter((line) => line.resource !== 'tenders'));
    expect(countsOf(dir).tenders).toEqual({ added: 0, changed: 0, removed: 0 });
  });

  it.each([
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path])],
    ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path)],
    ['not JSON', (path: string) => writeFileSync(path, '{"format":"cdata-list-state",')],
    ['JSON of another kind', (path: string) => writeFileSync(path, '[1,2,3]\n')],
    [
      "another list's state",
      (path: string) => writeFileSync(path, readFileSync(join(path, '..', '.state.sites.json'))),
    ],
  ])(
    "a list's state that is not what cdata wrote (%s) is passed over: that list's baseline again, said on a terminal",
    async (_what, plant) => {
      const [zero, one] = [await day(0), await day(1)];
      const dir = folder();
      expect((await exportInto(dir, zero, 'tenders', 'sites')).code).toBe(0);
      const path = join(dir, '..data', '.state.tenders.json');
      rmSync(path);
      plant(path);
      const result = await run(['export', 'tenders', 'sites', '--dir', dir], {
        env: sandboxEnv(one),
        stderrTTY: true,
        columns: 400,
      });
      expect(result.code).toBe(0);
      // Said before the closing line, which comes last.
      expect(result.stderr).toMatch(
        /\ntenders: its previous state was not used \([^\n]+\): this export is its baseline\nexported 2 lists to [^\n]+ \(see manifest.json\)\n$/,
      );
      expect(countsOf(dir)).toEqual({ tenders: null, sites: { added: 0, changed: 1, removed: 0 } });
      whole(dir);
      // Its new state is cdata's, and the next export compares with it.
      expect((await exportInto(dir, one, 'tenders', 'sites')).code).toBe(0);
      expect(countsOf(dir).tenders).toEqual({ added: 0, changed: 0, removed: 0 });
    },
  );

  it.each([
    [
      'a plain file',
      (path: string) => writeFileSync(path, 'my own notes\n'),
      'it is a plain file, where cdata keeps a link into ..data',
    ],
    ['a folder', (path: string) => mkdirSync(path), 'it is a folder'],
  ])(
    'a changes.ndjson that is %s is in the way: exit 2 before any request, nothing written',
    async (_what, plant, why) => {
      const sandbox = await day(0);
      const dir = folder();
      plant(join(dir, 'changes.ndjson'));
      const before = readdirSync(dir);
      const result = await exportInto(dir, sandbox);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: cannot export into ${dir}: ${dir}/changes.ndjson is in the way (${why})\nhint: cdata keeps the changes each export finds under that name: move the thing there away, or choose another --dir.\n`,
      );
      expect(readdirSync(dir)).toEqual(before);
      expect(sandbox.requests).toEqual([]);
    },
  );

  it('a list whose file or state cannot be written keeps both from before; the manifest, changes and states agree', async () => {
    const [zero, one] = [await day(0), await day(1)];
    const dir = folder();
    expect((await exportInto(dir, zero, 'tenders', 'sites')).code).toBe(0);
    const state = stateOf(dir, 'tenders');
    // Something else takes tenders.csv's name: the list fails at placing its file (after both were written).
    rmSync(join(dir, 'tenders.csv'));
    mkdirSync(join(dir, 'tenders.csv'));
    const result = await exportInto(dir, one, 'tenders', 'sites');
    expect(result.code).toBe(2);
    expect(countsOf(dir)).toEqual({ tenders: null, sites: { added: 0, changed: 1, removed: 0 } });
    expect(stateOf(dir, 'tenders')).toEqual(state);
    expect(linesOf(dir).map((line) => (line as JsonObject).resource)).toEqual(['sites']);
  });
});

describe('the manifest entry', () => {
  it('carries "changes", "gap" and "unseen" after "truncated"; entries of earlier files do not', async () => {
    const dir = folder();
    const sandbox = await day(0);
    expect((await exportInto(dir, sandbox)).code).toBe(0);
    expect((await exportInto(dir, sandbox, 'agents')).code).toBe(0);
    const manifest = manifestOf(dir);
    expect(Object.keys(manifest.resources[0]!)).toEqual([
      'resource',
      'status',
      'file',
      'rows',
      'truncated',
      'changes',
      'gap',
      'unseen',
      'sha256',
      'bytes',
      'exportedAt',
      'profile',
      'baseUrl',
    ]);
    expect((manifest.resources[0] as ResourceWritten).changes).toEqual({ added: 0, changed: 0, removed: 0 });
    for (const entry of manifest.earlier)
      for (const field of ['changes', 'gap', 'unseen']) expect(Object.keys(entry)).not.toContain(field);
  });
});
