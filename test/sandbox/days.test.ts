// The demo data moved forward by days (docs/sandbox.md, "Days"): day 0 is the data as it always
// was; each day after adds, changes and removes what the docs list, the same way every time, and
// keeps every list in the API's order; obligations stay past the 200-row cap.
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS, TIERS } from '../../src/core/endpoints.js';
import type { JsonObject } from '../../src/core/json.js';
import { stringifyJson } from '../../src/core/json.js';
import { demoData, type DemoData } from '../../src/sandbox/data.js';
import { advance } from '../../src/sandbox/days.js';
import { NOW, useSandboxes } from '../helpers/api.js';
import { call, KEY } from './http.js';

const makeSandbox = useSandboxes();
const dataOf = async (day: number): Promise<DemoData['rows']> => (await makeSandbox({ day })).data.rows;
/** Each list's key field, from the endpoint table. */
const keyOf = (list: keyof DemoData['rows']): string => LIST_ENDPOINTS.find((endpoint) => endpoint.name === list)!.key!;

/** What differs from one list to the next, by key: added, removed, and each changed row's fields. */
function differences(before: JsonObject[], after: JsonObject[], key: string) {
  const old = new Map(before.map((row) => [row[key], row]));
  const now = new Map(after.map((row) => [row[key], row]));
  const changed = after.filter((row) => old.has(row[key]) && stringifyJson(old.get(row[key])) !== stringifyJson(row));
  return {
    added: after.filter((row) => !old.has(row[key])),
    removed: before.filter((row) => !now.has(row[key])),
    changed: changed.map((row) =>
      Object.keys(row).filter((field) => stringifyJson(row[field]) !== stringifyJson(old.get(row[key])![field])),
    ),
  };
}

describe('sandbox days', () => {
  it('day 0 is the demo data as it always was: the same bodies, byte for byte', async () => {
    const [plain, zero] = [await makeSandbox(), await makeSandbox({ day: 0 })];
    for (const path of ['/api/v1/tenders?limit=200', '/api/v1/graph/obligations?limit=200', '/api/v1/agents']) {
      expect((await call(zero, path, { key: KEY.all })).text).toBe((await call(plain, path, { key: KEY.all })).text);
    }
  });

  it('the same day always gives the same data', async () => {
    expect(stringifyJson(await dataOf(7))).toBe(stringifyJson(await dataOf(7)));
  });

  it('each sandbox has data of its own: what a test changes in one, the next of that day never sees', async () => {
    const fresh = stringifyJson(advance(demoData(NOW), 3).rows);
    // Three in a row: the first may be made fresh, the rest come from what the process keeps.
    for (let i = 0; i < 3; i++) {
      const rows = await dataOf(3);
      expect(stringifyJson(rows)).toBe(fresh);
      rows.tenders[0]!.title = 'changed by a test';
      rows.tenders[0]!.reasons = [];
      (rows.tenders[1]!.reasons as string[]).push('added by a test');
      rows.sites.pop();
    }
  });

  it.each([0, 1, 2, 5, 29, 60, 364])('from day %i to the next: what each list gains, changes and loses', async (n) => {
    const [before, after] = [await dataOf(n), await dataOf(n + 1)];
    const day = n + 1;
    const diff = (list: keyof DemoData['rows']) => differences(before[list], after[list], keyOf(list));

    const tenders = diff('tenders');
    expect(tenders.added.map((t) => t.tier === 'RECOMMENDED')).toEqual(expect.arrayContaining([true, false]));
    expect(tenders.added.every((t) => t.decision === null && t.runwayDays === null)).toBe(true);
    expect(tenders.removed).toHaveLength(1);
    // Of those there before: the one whose closing date passed longest ago.
    const closing = before.tenders
      .map((t) => t.closesOn)
      .filter((c): c is string => typeof c === 'string')
      .sort();
    expect(tenders.removed[0]!.closesOn).toBe(closing[0]);
    expect(tenders.changed.length).toBeGreaterThanOrEqual(1);
    expect(tenders.changed.flat().every((field) => ['decision', 'score', 'tier', 'reasons'].includes(field))).toBe(
      true,
    );

    const obligations = diff('obligations');
    expect(obligations.added).toEqual(after.obligations.slice(0, 2));
    expect(obligations.added.every((o) => o.status === 'OPEN')).toBe(true);
    expect(obligations.added.map((o) => o.kind === 'PAYMENT' && /^\d+00\.00$/.test(String(o.amount)))).toContain(true);
    expect(obligations.removed).toHaveLength(1);
    expect(obligations.changed).toEqual([['status'], ['status']]);
    expect(after.obligations.length).toBe(before.obligations.length + 1);

    expect(diff('companies')).toMatchObject({
      added: { length: day % 2 === 0 ? 1 : 0 },
      removed: [],
      changed: [['notes']],
    });
    expect(diff('persons')).toMatchObject({
      added: { length: day % 3 === 0 ? 1 : 0 },
      removed: [],
      changed: [['roleTitle']],
    });
    expect(diff('sites')).toMatchObject({
      added: day % 2 === 0 ? [{ status: 'PLANNED' }] : [],
      removed: [],
      changed: [['status']],
    });
    expect(diff('documents')).toMatchObject({
      added: [{ kind: 'INVOICE', title: `Invoice INV-2027-${String(day).padStart(4, '0')}` }],
      removed: { length: 1 },
      changed: [],
    });
    expect(diff('agents')).toEqual({ added: [], removed: [], changed: [] });
    expect(diff('workspaces')).toEqual({ added: [], removed: [], changed: [] });
  });

  it('day 10 imports 250 obligations at once, beside its usual two: more than an export holds, newest of all', async () => {
    const [before, after] = [await dataOf(9), await dataOf(10)];
    const diff = differences(before.obligations, after.obligations, 'id');
    expect(diff.added).toEqual(after.obligations.slice(0, 252));
    expect(diff.added.every((o) => o.status === 'OPEN')).toBe(true);
    expect(after.obligations.length).toBe(before.obligations.length + 251);
    const window = new Set(after.obligations.slice(0, 200).map((o) => o.id));
    expect(before.obligations.filter((o) => window.has(o.id))).toEqual([]);
  });

  it('keeps every list in the API order (newest first; tenders best tier, then highest score) up to the last day', async () => {
    for (const n of [1, 10, 30, 365]) {
      const rows = await dataOf(n);
      for (const list of ['companies', 'documents', 'obligations', 'persons', 'sites'] as const) {
        const times = rows[list].map((row) => Date.parse(row.createdAt as string));
        expect({
          n,
          list,
          newestFirst: times.every((t, i) => i === 0 || t < times[i - 1]!),
          beforeToday: times[0]! < Math.floor(NOW / 86_400_000) * 86_400_000,
        }).toEqual({ n, list, newestFirst: true, beforeToday: true });
      }
      const rank = (t: JsonObject) => TIERS.indexOf(t.tier as never) * 1000 - Number(t.score);
      expect(rows.tenders.every((t, i) => i === 0 || rank(t) >= rank(rows.tenders[i - 1]!))).toBe(true);
      expect(
        rows.tenders.every(
          (t) =>
            t.tier === (Number(t.score) >= 75 ? 'RECOMMENDED' : Number(t.score) >= 50 ? 'WORTH_A_LOOK' : 'STRETCH'),
        ),
      ).toBe(true);
      expect(rows.obligations.length).toBeGreaterThan(200);
      expect(new Set(rows.tenders.map((t) => t.ocid)).size).toBe(rows.tenders.length);
    }
  });

  it('refuses a day it has not got', async () => {
    for (const day of [-1, 366, 1.5, Number.NaN])
      await expect(makeSandbox({ day })).rejects.toThrow(`day must be a whole number from 0 to 365 (got ${day})`);
  });
});
