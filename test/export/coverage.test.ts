// Coverage at the 200-row cap (docs/exports.md, "When rows slip past the cap"): exports against the
// sandbox's days, where day 10 imports 250 obligations at once. The manifest's gap and unseen, exit
// 9, what stderr says (even with -q, from the built binary), the export committed whole, `cdata
// changes` after it, the run after it, and a failure beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS } from '../../src/core/endpoints.js';
import type { JsonObject } from '../../src/core/json.js';
import { advice as adviceFor, coverageOf as coverageFor, newestRow } from '../../src/export/coverage.js';
import type { ResourceEntry } from '../../src/export/manifest.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { fetchDirect, NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { runBin } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';
import { changeLinesOf, manifestOf, whole } from './layout.js';

const makeSandbox = useSandboxes();
const folder = scratch('cdata-coverage');
const day = (n: number, more: Parameters<typeof makeSandbox>[0] = {}) => makeSandbox({ day: n, ...more });
const exportInto = (dir: string, sandbox: Sandbox, ...more: string[]) =>
  run(['export', ...more, '--dir', dir], { env: sandboxEnv(sandbox), now: () => NOW });
/** The lists the API orders newest first, which can have a gap; the others' gap is always null. */
const BY_TIME = ['companies', 'documents', 'obligations', 'persons', 'sites'];
const ALL = LIST_ENDPOINTS.map((e) => e.name);
const OBLIGATIONS = LIST_ENDPOINTS.find((e) => e.name === 'obligations')!;
const obligationsOf = async (sandbox: Sandbox) =>
  (await fetchDirect(sandbox, OBLIGATIONS, { limit: '200' })) as JsonObject[];

const coverageOf = (dir: string) =>
  Object.fromEntries(
    manifestOf(dir).resources.map((r: ResourceEntry) => [r.resource, { gap: r.gap, unseen: r.unseen }]),
  );
const noGap = (gap: boolean | null) =>
  Object.fromEntries(ALL.map((name) => [name, { gap: BY_TIME.includes(name) ? gap : null, unseen: null }]));

/**
 * The advice for an answer, worked out as docs/exports.md says: its rows' pace (rows after the
 * first over the span of their createdAt), and four fifths of the time 200 rows take at it.
 */
function advice(rows: JsonObject[]): string {
  const times = rows.map((row) => Date.parse(row.createdAt as string));
  const perDay = ((times.length - 1) / (Math.max(...times) - Math.min(...times))) * 86_400_000;
  const magnitude = 10 ** (Math.floor(Math.log10(perDay)) - 1);
  const hours = Math.floor(((0.8 * 200) / perDay) * 24);
  expect(hours).toBeGreaterThanOrEqual(2); // the test's own check: an interval said in hours
  return `hint: obligations: about ${(Math.round(perDay / magnitude) * magnitude).toLocaleString('en-US')} new rows a day; export at least every ${hours} h\n`;
}

describe('a gap: more rows created between two exports than the cap holds', () => {
  it('baseline: gap null; a day with fewer new rows than the cap: gap false, exit 0, nothing said', async () => {
    const dir = folder();
    expect(await exportInto(dir, await day(0))).toMatchObject({ code: 0, stderr: '' });
    expect(coverageOf(dir)).toEqual(Object.fromEntries(ALL.map((name) => [name, { gap: null, unseen: null }])));
    const result = await exportInto(dir, await day(1));
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // Obligations were truncated, and its previous newest row is still there.
    expect(manifestOf(dir).resources.find((r) => r.resource === 'obligations')).toMatchObject({
      truncated: true,
      gap: false,
    });
    expect(coverageOf(dir)).toEqual(noGap(false));
    expect(manifestOf(dir)).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('a day with more: gap true, unseen exact, exit 9, the list and its advice on stderr even with -q; committed whole; cdata changes says so; the next run has none', async () => {
    const [nine, ten] = [await day(9), await day(10)];
    const [before, after] = [await obligationsOf(nine), await obligationsOf(ten)];
    const unseen = { after: before[0]!.createdAt as string, before: after[199]!.createdAt as string };
    // Not vacuous: none of day 9's rows is among day 10's newest 200.
    expect(after.some((row) => before.some((old) => old.id === row.id))).toBe(false);

    const dir = folder();
    const env = sandboxEnv(nine);
    expect(await runBin(['export', '--dir', dir, '-q'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const result = await runBin(['export', '--dir', dir, '-q'], { env: { ...env, CDATA_BASE_URL: ten.url } });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `warning: obligations: rows created after ${unseen.after} and before ${unseen.before} were never exported: more were created since the last export than one export holds (200 rows)\n` +
        advice(after),
    );
    expect(result.code).toBe(9);

    const manifest = whole(dir);
    expect(manifest).toMatchObject({ ok: false, exitCode: 9 });
    expect(coverageOf(dir)).toEqual({ ...noGap(false), obligations: { gap: true, unseen } });
    // Committed as any export: every list written from day 10, obligations' 200 rows added.
    expect(manifest.resources.every((r) => r.status === 'ok' && r.exportedAt >= new Date(NOW).toISOString())).toBe(
      true,
    );
    expect(manifest.resources.find((r) => r.resource === 'obligations')).toMatchObject({
      rows: 200,
      truncated: true,
      changes: { added: 200, changed: 0, removed: null },
    });
    const ids = readFileSync(join(dir, 'obligations.csv'), 'utf8')
      .split('\n')
      .slice(1, -1)
      .map((line) => line.split(',')[0]);
    expect(ids).toEqual(after.map((row) => row.id));
    expect(
      changeLinesOf(dir)
        .filter((line) => line.resource === 'obligations')
        .map((line) => line.change),
    ).toEqual(Array(200).fill('added'));

    // cdata changes lists what could be seen, says the rest was missed (even with -q), exit 0.
    const changes = await runBin(['changes', '--dir', dir, 'obligations', '-o', 'ndjson', '-q'], { env });
    expect(changes.code).toBe(0);
    expect(changes.stdout.split('\n').filter(Boolean)).toHaveLength(200);
    expect(changes.stderr).toBe(
      `warning: obligations: the last export missed the rows created after ${unseen.after} and before ${unseen.before} (more than the API returns at once): these changes are all that could be seen\n`,
    );
    // Another list's changes: nothing said of obligations.
    expect(await runBin(['changes', '--dir', dir, 'tenders', '-o', 'ndjson'], { env })).toMatchObject({
      code: 0,
      stderr: '',
    });

    // The next run, with nothing new: no gap, exit 0, silent.
    expect(await runBin(['export', '--dir', dir, '-q'], { env: { ...env, CDATA_BASE_URL: ten.url } })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(coverageOf(dir)).toEqual(noGap(false));
    expect(await runBin(['changes', '--dir', dir, 'obligations', '-o', 'ndjson'], { env })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('-o json: the gap also as a JSON line after its two, as a failed list is, for scripts', async () => {
    const [nine, ten] = [await day(9), await day(10)];
    const dir = folder();
    expect((await exportInto(dir, nine, 'obligations', '-o', 'json')).code).toBe(0);
    const result = await exportInto(dir, ten, 'obligations', '-o', 'json', '-q');
    expect(result.code).toBe(9);
    const [warning, hint, json, ...rest] = result.stderr.trimEnd().split('\n');
    expect(rest).toEqual([]);
    const { unseen } = manifestOf(dir).resources[0]!;
    expect(JSON.parse(json!)).toEqual({
      gap: {
        resource: 'obligations',
        unseen,
        detail: warning!.replace(/^warning: /, ''),
        hint: hint!.replace(/^hint: /, ''),
        exitCode: 9,
      },
    });
    expect(unseen).not.toBeNull();
  });

  it("a failed list beside a gap: the failure's exit code; the gap is said and recorded too", async () => {
    const nine = await day(9);
    const ten = await day(10, {
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? FAULTS.unavailable : undefined),
    });
    const dir = folder();
    expect((await exportInto(dir, nine)).code).toBe(0);
    const result = await exportInto(dir, ten, '--retries', '0', '-q');
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^warning: obligations: rows created after \S+ and before \S+ were never exported/);
    expect(result.stderr).toMatch(/^hint: obligations: about [\d,]+ new rows a day; export at least every \d+ h$/m);
    expect(result.stderr).toMatch(/^error: tenders: /m);
    expect(manifestOf(dir)).toMatchObject({ ok: false, exitCode: 6 });
    expect(coverageOf(dir)).toMatchObject({ obligations: { gap: true }, tenders: { gap: null, unseen: null } });
    whole(dir);
  });

  it('a row withdrawn since is no gap while the window reaches back past it; --limit below the cap says so in its advice', async () => {
    // Day 0 then day 1 at --limit 3: the newest row of day 0 is still among day 1's newest 3 or
    // is older than its oldest; day 0 then day 2 at --limit 3: four new rows, a gap.
    const dir = folder();
    expect((await exportInto(dir, await day(0), 'obligations', '--limit', '3')).code).toBe(0);
    expect((await exportInto(dir, await day(1), 'obligations', '--limit', '3')).code).toBe(0);
    expect(coverageOf(dir)).toEqual({ obligations: { gap: false, unseen: null } });
    const two = await day(2);
    const gapped = folder();
    expect((await exportInto(gapped, await day(0), 'obligations', '--limit', '3')).code).toBe(0);
    const result = await exportInto(gapped, two, 'obligations', '--limit', '3');
    expect(result.code).toBe(9);
    const rows = (await fetchDirect(two, OBLIGATIONS, { limit: '3' })) as JsonObject[];
    expect(coverageOf(gapped).obligations).toMatchObject({ gap: true, unseen: { before: rows[2]!.createdAt } });
    expect(result.stderr).toMatch(
      /more were created since the last export than one export holds \(3 rows\)\nhint: obligations: about [\d,]+ new rows a day; export at least every \d+ (min|h|days), or with --limit 200\n$/,
    );
  });
});

describe('the newest row an export remembers', () => {
  it('is the first with a key: a newest row without one (null, missing) is passed over, not taken for an empty list', () => {
    const rows: JsonObject[] = [
      { id: null, createdAt: '2027-01-03T00:00:00Z' },
      { createdAt: '2027-01-02T12:00:00Z' },
      { id: 'b', createdAt: '2027-01-02T00:00:00Z' },
      { id: 'c', createdAt: '2027-01-01T00:00:00Z' },
    ];
    const newest = newestRow(rows, 'id');
    expect(newest).toEqual({ key: 'b', createdAt: '2027-01-02T00:00:00Z' });
    // The same answer again, at its limit: that row is among it, so no gap (the false exit 9 of before).
    expect(coverageFor(OBLIGATIONS, newest, rows, true)).toEqual({ gap: false, unseen: null });
    expect(newestRow([{ id: null }, { id: 7 }], 'id')).toBeNull();
  });
});

describe('the advice at a pace near what one export a minute holds', () => {
  /** 201 rows, `perMinute` apart: the pace the advice reads from their createdAt. */
  const rowsAt = (perMinute: number): JsonObject[] =>
    Array.from({ length: 201 }, (_, i) => ({
      id: `o${i}`,
      createdAt: new Date(Date.UTC(2027, 0, 1) - (i * 60_000) / perMinute).toISOString(),
    }));

  it('says no schedule keeps up only when the limit fills in under a minute; every minute when it fills in a little more', () => {
    expect(adviceFor('obligations', rowsAt(250), 200, 200)).toBe(
      'obligations: about 360,000 new rows a day, more than 200 a minute: no schedule keeps up with it',
    );
    expect(adviceFor('obligations', rowsAt(170), 200, 200)).toBe(
      'obligations: about 240,000 new rows a day; export every minute, and even that barely keeps up',
    );
    expect(adviceFor('obligations', rowsAt(130), 100, 200)).toBe(
      'obligations: about 190,000 new rows a day, more than 100 a minute: no schedule keeps up with it, or with --limit 200',
    );
    expect(adviceFor('obligations', rowsAt(2), 200, 200)).toBe(
      'obligations: about 2,900 new rows a day; export at least every 80 min',
    );
  });
});
