// Coverage at the 200-row cap, function by function (src/export/coverage.ts; docs/exports.md,
// "When rows slip past the cap"): when an answer has a gap, the window it reports, what stderr
// says of it, and the pace the advice is worked out from. In-process and without a sandbox;
// test/export/coverage.test.ts runs the same through `export`.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../src/core/endpoints.js';
import type { JsonObject } from '../../src/core/json.js';
import { advice, coverageOf, gapLines, gapNotice, newestRow } from '../../src/export/coverage.js';

const endpoint = (name: string) => ENDPOINTS.find((e) => e.name === name) as Endpoint;
const OBLIGATIONS = endpoint('obligations');
const DAY = 86_400_000;
const END = Date.UTC(2027, 0, 10);

/** `count` rows, newest first, their createdAt spread evenly over `spanMs` up to END. */
const rowsOver = (count: number, spanMs: number): JsonObject[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `o${i}`,
    createdAt: new Date(END - Math.round((i * spanMs) / (count - 1))).toISOString(),
  }));

describe('coverageOf', () => {
  /** A truncated answer, newest first: its oldest row was created on 2 January. */
  const rows: JsonObject[] = [
    { id: 'c', createdAt: '2027-01-03T00:00:00Z' },
    { id: 'b', createdAt: '2027-01-02T00:00:00Z' },
  ];
  const gone = (createdAt: string | null) => ({ key: 'gone', createdAt });

  it('none for a baseline, a list not ordered newest first, or a list without a key', () => {
    const none = { gap: null, unseen: null };
    expect(coverageOf(OBLIGATIONS, undefined, rows, true)).toEqual(none);
    expect(coverageOf(endpoint('tenders'), gone('2027-01-01T00:00:00Z'), rows, true)).toEqual(none);
    const keyless: Endpoint = { ...OBLIGATIONS, key: undefined };
    expect(coverageOf(keyless, gone('2027-01-01T00:00:00Z'), rows, true)).toEqual(none);
  });

  it('no gap in an answer short of its limit: it holds every row, however many came since', () => {
    expect(coverageOf(OBLIGATIONS, gone('2027-01-01T00:00:00Z'), rows, false)).toEqual({ gap: false, unseen: null });
  });

  it('no gap when the last newest row is among the answer, even without a createdAt to place it by', () => {
    expect(coverageOf(OBLIGATIONS, { key: 'b', createdAt: null }, rows, true)).toEqual({ gap: false, unseen: null });
    expect(coverageOf(OBLIGATIONS, { key: 'c', createdAt: null }, rows, true)).toEqual({ gap: false, unseen: null });
  });

  it('no gap when that row is gone (withdrawn) but the answer reaches back to its creation time, or past it', () => {
    expect(coverageOf(OBLIGATIONS, gone('2027-01-02T12:00:00Z'), rows, true)).toEqual({ gap: false, unseen: null });
    expect(coverageOf(OBLIGATIONS, gone('2027-01-02T00:00:00Z'), rows, true)).toEqual({ gap: false, unseen: null });
  });

  it('a gap when the answer stops short of it: the window between that row and the oldest row', () => {
    expect(coverageOf(OBLIGATIONS, gone('2027-01-01T23:59:59Z'), rows, true)).toEqual({
      gap: true,
      unseen: { after: '2027-01-01T23:59:59Z', before: '2027-01-02T00:00:00Z' },
    });
  });

  it('a gap with a side of its window unknown: no createdAt on either row, or no row at all', () => {
    expect(coverageOf(OBLIGATIONS, gone(null), rows, true)).toEqual({
      gap: true,
      unseen: { after: null, before: '2027-01-02T00:00:00Z' },
    });
    expect(coverageOf(OBLIGATIONS, gone('2027-01-01T00:00:00Z'), [...rows, { id: 'a' }], true)).toEqual({
      gap: true,
      unseen: { after: '2027-01-01T00:00:00Z', before: null },
    });
    // The last export's list was empty: every row it holds now is new.
    expect(coverageOf(OBLIGATIONS, null, rows, true)).toEqual({
      gap: true,
      unseen: { after: null, before: '2027-01-02T00:00:00Z' },
    });
    expect(coverageOf(OBLIGATIONS, gone('2027-01-01T00:00:00Z'), [], true)).toEqual({
      gap: true,
      unseen: { after: '2027-01-01T00:00:00Z', before: null },
    });
  });
});

describe('newestRow', () => {
  it('a createdAt that is not a string is none', () => {
    expect(newestRow([{ id: 'a', createdAt: 1798761600000 }], 'id')).toEqual({ key: 'a', createdAt: null });
    expect(newestRow([{ id: 'a' }], 'id')).toEqual({ key: 'a', createdAt: null });
  });
});

describe('gapNotice', () => {
  const rows = rowsOver(111, DAY);
  const hint = 'obligations: about 110 new rows a day; export at least every 34 h';

  it('the window as far as it is known, the limit, and the advice', () => {
    const window = (after: string | null, before: string | null) =>
      gapNotice('obligations', { after, before }, rows, 200, 200);
    const detail = (text: string) =>
      `obligations: ${text} were never exported: more were created since the last export than one export holds (200 rows)`;
    expect(window('2027-01-01T00:00:00Z', '2027-01-02T00:00:00Z')).toEqual({
      detail: detail('rows created after 2027-01-01T00:00:00Z and before 2027-01-02T00:00:00Z'),
      hint,
    });
    expect(window('2027-01-01T00:00:00Z', null)).toEqual({
      detail: detail('rows created after 2027-01-01T00:00:00Z'),
      hint,
    });
    expect(window(null, '2027-01-02T00:00:00Z')).toEqual({
      detail: detail('rows created before 2027-01-02T00:00:00Z'),
      hint,
    });
    expect(window(null, null)).toEqual({ detail: detail('some rows'), hint });
  });

  it('said as a warning and a hint', () => {
    expect(gapLines({ detail: 'D', hint: 'H' })).toEqual(['warning: D', 'hint: H']);
  });
});

describe('advice: the pace, and how often to export to keep up with it', () => {
  it("the docstring's example: 110 rows a day fill 200 in 43.6 h; four fifths of that, rounded down", () => {
    expect(advice('obligations', rowsOver(111, DAY), 200, 200)).toBe(
      'obligations: about 110 new rows a day; export at least every 34 h',
    );
  });

  it('the pace from the rows with a createdAt, the others passed over', () => {
    const rows = [
      { id: 'x' },
      ...rowsOver(111, DAY),
      { id: 'y', createdAt: 'yesterday' },
      { id: 'z', createdAt: null },
    ];
    expect(advice('obligations', rows, 200, 200)).toBe(
      'obligations: about 110 new rows a day; export at least every 34 h',
    );
  });

  it('no pace from fewer than two creation times, or from times all the same', () => {
    const none = 'obligations: its rows carry no creation times to measure its pace by; export it more often';
    expect(advice('obligations', [], 200, 200)).toBe(none);
    expect(advice('obligations', [{ id: 'a' }, { id: 'b', createdAt: null }], 200, 200)).toBe(none);
    expect(advice('obligations', [{ id: 'a', createdAt: '2027-01-01T00:00:00Z' }], 200, 200)).toBe(none);
    expect(advice('obligations', rowsOver(3, 0), 200, 200)).toBe(none);
    expect(advice('obligations', [{ id: 'a' }], 100, 200)).toBe(`${none}, or with --limit 200`);
    // Two times are enough: 2 h apart, 12 a day.
    expect(advice('obligations', rowsOver(2, DAY / 12), 200, 200)).toBe(
      'obligations: about 12 new rows a day; export at least every 13 days',
    );
  });

  it('a pace under 10 a day to a tenth; the interval in minutes under 2 h, hours under 4 days, days from then', () => {
    // 9 rows after the first in 2 days: 4.5 a day, 200 in 44.4 days.
    expect(advice('obligations', rowsOver(10, 2 * DAY), 200, 200)).toBe(
      'obligations: about 4.5 new rows a day; export at least every 35 days',
    );
    // One row every 45 s: 200 in 2.5 h, four fifths of it 2 h exactly.
    expect(advice('obligations', rowsOver(2, 45_000), 200, 200)).toBe(
      'obligations: about 1,900 new rows a day; export at least every 2 h',
    );
    // One row every 36 min: 40 a day, 200 in 5 days, four fifths of it 4 days exactly.
    expect(advice('obligations', rowsOver(2, 2_160_000), 200, 200)).toBe(
      'obligations: about 40 new rows a day; export at least every 4 days',
    );
  });

  it('at the minute: the limit filling in exactly a minute can be kept up with, barely; four fifths of a minute left is a minute', () => {
    // One row every 300 ms: 200 in 60 s exactly.
    expect(advice('obligations', rowsOver(2, 300), 200, 200)).toBe(
      'obligations: about 290,000 new rows a day; export every minute, and even that barely keeps up',
    );
    // One row every 375 ms: 200 in 75 s, four fifths of it 60 s exactly.
    expect(advice('obligations', rowsOver(2, 375), 200, 200)).toBe(
      'obligations: about 230,000 new rows a day; export at least every 1 min',
    );
  });
});
