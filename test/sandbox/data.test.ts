// The demo data (docs/sandbox.md): deterministic for a day, more than 200 obligations, the
// awkward values real data has, money with its two decimals as written, UTC timestamps.
import { afterAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/core/endpoints.js';
import { COUNTS } from '../../src/sandbox/data.js';
import { NATIONAL_BUYERS, PROVINCIAL_BUYERS, TOWNS } from '../../src/sandbox/vocabulary.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { useSandbox } from '../helpers/sandbox.js';
import { KEY, TIMESTAMP, call, getJson, type Row } from './http.js';

const MORNING = Date.parse('2026-11-22T00:00:01.000Z');
const EVENING = Date.parse('2026-11-22T23:59:59.999Z');
const sandbox = useSandbox({ now: () => MORNING });

const started: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});
async function another(now: number): Promise<Sandbox> {
  const s = await startSandbox({ now: () => now });
  started.push(s);
  return s;
}

const pathOf = (e: (typeof ENDPOINTS)[number]) =>
  e.params.some((p) => p.name === 'limit') ? `${e.path}?limit=200` : e.path;
const bodies = async (s: Sandbox) =>
  Promise.all(ENDPOINTS.map(async (e) => (await call(s, pathOf(e), { key: KEY.all })).text));
const everything = async () =>
  (
    await Promise.all(ENDPOINTS.filter((e) => e.shape === 'list').map((e) => getJson(sandbox.current, pathOf(e))))
  ).flat();

describe('determinism', () => {
  it('gives identical bodies, byte for byte, all day long', async () => {
    const morning = await bodies(sandbox.current);
    expect(await bodies(await another(MORNING))).toEqual(morning);
    expect(await bodies(await another(EVENING))).toEqual(morning);
  });

  it('moves the dates with the day, so the demo always looks current', async () => {
    const today = await getJson(sandbox.current, '/api/v1/graph/companies?limit=1');
    const tomorrow = await getJson(await another(MORNING + 86_400_000), '/api/v1/graph/companies?limit=1');
    expect(tomorrow[0]!.id).toBe(today[0]!.id);
    expect(Date.parse(tomorrow[0]!.createdAt as string) - Date.parse(today[0]!.createdAt as string)).toBe(86_400_000);
    expect(Date.parse(today[0]!.createdAt as string)).toBeLessThan(MORNING);
  });
});

describe('size', () => {
  it('has more than 200 obligations, so the cap shows', async () => {
    expect(COUNTS.obligations).toBeGreaterThan(200);
    expect(sandbox.current.data.rows.obligations).toHaveLength(COUNTS.obligations);
    expect(await getJson(sandbox.current, '/api/v1/graph/obligations?limit=200')).toHaveLength(200);
  });

  it('has every list non-empty', () => {
    for (const [name, rows] of Object.entries(sandbox.current.data.rows)) expect(rows.length, name).toBeGreaterThan(0);
  });
});

describe('awkward values', () => {
  const strings = (rows: Row[]) =>
    rows
      .flatMap((r) => Object.values(r).flatMap((v) => (Array.isArray(v) ? v : [v])))
      .filter((v): v is string => typeof v === 'string');

  it.each([
    ['a comma', (s: string) => s.includes(',')],
    ['a double quote', (s: string) => s.includes('"')],
    ['a newline', (s: string) => s.includes('\n')],
    ['a tab', (s: string) => s.includes('\t')],
    ['Chinese text', (s: string) => /[\u4e00-\u9fff]/.test(s)],
    ['Greek text', (s: string) => /[\u0370-\u03ff\u1f00-\u1fff]/.test(s)],
    ['an accented Latin letter', (s: string) => /[\u00c0-\u017f]/.test(s)],
  ])('includes %s', async (_what, has) => {
    expect(strings(await everything()).some(has)).toBe(true);
  });

  it.each(['=', '+', '-', '@'])('includes notes starting with %s (formula-like in a spreadsheet)', async (first) => {
    const notes = (await everything()).map((r) => r.notes).filter((n): n is string => typeof n === 'string');
    expect(notes.some((n) => n.startsWith(first))).toBe(true);
  });

  it('includes nulls in every graph list and in tenders', async () => {
    for (const endpoint of ENDPOINTS.filter((e) => e.path.startsWith('/api/v1/graph/') || e.name === 'tenders')) {
      const rows = await getJson(sandbox.current, pathOf(endpoint));
      expect(
        rows.some((r) => Object.values(r).includes(null)),
        endpoint.name,
      ).toBe(true);
    }
  });

  it('includes a tender title carrying ESC sequences (colour, OSC 8, OSC 52) and a bidi override', async () => {
    const titles = (await getJson(sandbox.current, '/api/v1/tenders?limit=200')).map((t) => t.title as string);
    const hostile = titles.find((t) => t.includes('\u001b['));
    expect(hostile).toContain('\u001b[31m');
    expect(hostile).toContain('\u001b]8;;');
    expect(hostile).toContain('\u001b]52;');
    expect(titles.some((t) => t.includes('\u202e'))).toBe(true);
  });
});

describe('values', () => {
  it('writes amounts as decimals with exactly two places, trailing zeros kept, in the raw JSON', async () => {
    const raw = (await call(sandbox.current, '/api/v1/graph/obligations?limit=200', { key: KEY.all })).text;
    const amounts = [...raw.matchAll(/"amount":([^,}]*)[,}]/g)].map((m) => m[1]!);
    expect(amounts).toHaveLength(200);
    const numbers = amounts.filter((a) => a !== 'null');
    expect(numbers.length).toBeGreaterThan(20);
    for (const amount of numbers) expect(amount).toMatch(/^\d+\.\d{2}$/);
    expect(numbers.some((a) => a.endsWith('0'))).toBe(true); // e.g. 1250.50, which JSON.stringify would print as 1250.5
    expect(amounts.length - numbers.length).toBeGreaterThan(0);
  });

  it('gives a currency exactly when there is an amount, ZAR mostly', async () => {
    const rows = await getJson(sandbox.current, '/api/v1/graph/obligations?limit=200');
    for (const r of rows) expect(r.currency === null).toBe(r.amount === null);
    const currencies = rows.map((r) => r.currency).filter((c) => c !== null);
    expect(currencies.filter((c) => c === 'ZAR').length).toBeGreaterThan(currencies.length / 2);
    for (const c of currencies) expect(c).toMatch(/^[A-Z]{3}$/);
  });

  it('writes every createdAt in UTC with fractional seconds and Z', async () => {
    const rows = await everything();
    const stamps = rows.map((r) => r.createdAt).filter((v) => v !== undefined);
    expect(stamps.length).toBeGreaterThan(400);
    for (const stamp of stamps) expect(stamp).toMatch(TIMESTAMP);
  });

  it('computes runwayDays from the clock: days to closing, negative once closed, null without a date', async () => {
    let clock = MORNING;
    const s = await startSandbox({ now: () => clock });
    started.push(s);
    const today = Date.parse('2026-11-22T00:00:00.000Z');
    const first = await getJson(s, '/api/v1/tenders?limit=200');
    for (const t of first) {
      if (t.closesOn === null) expect(t.runwayDays).toBeNull();
      else expect(t.runwayDays).toBe((Date.parse(t.closesOn as string) - today) / 86_400_000);
    }
    expect(first.some((t) => (t.runwayDays as number) < 0)).toBe(true);
    expect(first.some((t) => t.closesOn === null)).toBe(true);
    clock += 86_400_000;
    const next = await getJson(s, '/api/v1/tenders?limit=200');
    next.forEach((t, i) =>
      expect(t.runwayDays).toBe(t.closesOn === null ? null : (first[i]!.runwayDays as number) - 1),
    );
  });

  it('gives tenders OCDS ocids, unique', async () => {
    const ocids = (await getJson(sandbox.current, '/api/v1/tenders?limit=200')).map((t) => t.ocid as string);
    for (const ocid of ocids) expect(ocid).toMatch(/^ocds-[a-z0-9]{6}-\d+$/);
    expect(new Set(ocids).size).toBe(ocids.length);
  });

  it("names a buyer that would tender there: the town's municipality, its province's department, or a national body", async () => {
    const tenders = await getJson(sandbox.current, '/api/v1/tenders?limit=200');
    const buyers = new Set<string>();
    for (const tender of tenders) {
      const buyer = tender.buyer as string;
      buyers.add(buyer);
      const place = TOWNS.find(([town]) => (tender.title as string).includes(town));
      if (!place) continue; // the special titles (escape sequences, bidi) name no town of the list
      const [, province, municipality] = place;
      expect(
        [municipality, PROVINCIAL_BUYERS[province], ...NATIONAL_BUYERS],
        `${tender.title as string}: ${buyer}`,
      ).toContain(buyer);
      if (tender.province !== null) expect(tender.province).toBe(province);
    }
    expect(buyers.size).toBeGreaterThan(10);
  });
});
