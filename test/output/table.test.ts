// The table: fitted to the terminal (the main text column first, narrow forms before cuts), numbers
// right-aligned, colour only when asked.
import { stripVTControlCharacters } from 'node:util';
import cliTableUtils from 'cli-table3/src/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { tableColumns, tableLayout } from '../../src/output/columns.js';
import { fit, type FitColumn } from '../../src/output/fit.js';
import { dayOf, renderTable } from '../../src/output/table.js';
import { localDate } from '../../src/output/print.js';
import { shorten } from '../../src/output/width.js';
import { demoData } from '../../src/sandbox/data.js';
import { sanitize } from '../../src/core/sanitize.js';
import { NOW } from '../helpers/api.js';
import { columnsOf } from '../helpers/columns.js';

const data = demoData(NOW).rows;
const visible = (line: string) => cliTableUtils.strlen(stripVTControlCharacters(line));

const col = (natural: number, heading = 4, flexible = true): FitColumn => ({ natural, heading, flexible });

describe('fit', () => {
  it('keeps natural widths when they fit, or when there is no width', () => {
    expect(fit([col(10), col(20), col(5)], 41)).toEqual({ widths: [10, 20, 5], dropped: [] });
    expect(fit([col(10), col(200), col(5)], undefined)).toEqual({ widths: [10, 200, 5], dropped: [] });
  });

  it('drops whole columns in the given order until the main column has 31, then gives it the rest', () => {
    // `cdata tenders` at 80: ocid 18, tier 12, score 5, title 72, buyer 58, closesOn 10, runwayDays 10, decision 13.
    const columns = [
      col(18),
      col(12, 4, false),
      col(5, 5, false),
      col(72, 5),
      col(58, 5),
      col(10, 8, false),
      col(10, 10, false),
      col(13, 8, false),
    ];
    const drop = [4, 2, 6, 7, 5, 1];
    expect(fit(columns, 80, { key: 0, main: 3, drop })).toEqual({
      widths: [18, 12, 0, 34, 0, 10, 0, 0],
      dropped: [4, 2, 6, 7],
    });
    // At 120 only the buyer goes; the title takes what is left.
    expect(fit(columns, 120, { key: 0, main: 3, drop })).toEqual({
      widths: [18, 12, 5, 40, 0, 10, 10, 13],
      dropped: [4],
    });
    // At 60, every column the order names: the key and the main column stay.
    expect(fit(columns, 60, { key: 0, main: 3, drop })).toEqual({
      widths: [18, 0, 0, 40, 0, 0, 0, 0],
      dropped: [4, 2, 6, 7, 5, 1],
    });
  });

  it('a narrow column dropped before a wide one comes back once the wide one has made room, if every column then shows whole', () => {
    // `cdata persons` at 80: id 8, fullName 26 (the main column, whole), email 45, roleTitle 21, phone 15.
    const columns = [col(8), col(26, 8), col(45, 5), col(21, 9), col(15, 5, false)];
    const drop = [3, 4, 2]; // roleTitle, phone, email
    expect(fit(columns, 80, { key: 0, main: 1, drop })).toEqual({ widths: [8, 26, 0, 21, 15], dropped: [2] });
    // Where only one fits again, the more wanted (the later in the drop order) comes back.
    expect(fit(columns, 70, { key: 0, main: 1, drop })).toEqual({ widths: [8, 26, 0, 0, 15], dropped: [3, 2] });
  });

  it('never cuts the key, an enum, a number, a date or a heading', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 20 }), fc.boolean()), {
          minLength: 2,
          maxLength: 8,
        }),
        fc.integer({ min: 40, max: 200 }),
        (spec, total) => {
          const columns = spec.map(([natural, heading, flexible]) =>
            col(Math.max(natural, heading), heading, flexible),
          );
          const main = 1;
          const drop = columns
            .map((_, i) => i)
            .filter((i) => i > 1)
            .reverse();
          const { widths, dropped } = fit(columns, total, { key: 0, main, drop });
          expect(widths[0]).toBe(columns[0]!.natural);
          widths.forEach((w, i) => {
            if (i === main) return;
            expect(w === 0 ? dropped.includes(i) : w === columns[i]!.natural).toBe(true);
          });
          if (columns[0]!.natural + 2 + Math.min(columns[1]!.natural, 31) <= total) {
            expect(widths.filter((w) => w > 0).reduce((a, b) => a + b + 2, -2)).toBeLessThanOrEqual(total);
          }
        },
      ),
    );
  });

  it('with no drop order (a query, a local view): free text is cut, to its heading at least, then columns go from the right', () => {
    const { widths, dropped } = fit([col(10, 4, false), col(60, 7), col(40, 9), col(10, 5, false)], 60);
    expect(dropped).toEqual([]);
    // 34 for the two text columns, shared: no main column to favour.
    expect(widths).toEqual([10, 17, 17, 10]);
    expect(fit([col(30, 4, false), col(30, 4, false), col(30, 4, false)], 40)).toEqual({
      widths: [30, 0, 0],
      dropped: [2, 1],
    });
  });

  it('fits any widths into any terminal wide enough for the key and the main column at 6', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 120 }), fc.boolean()), { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 0, max: 300 }),
        fc.nat(9),
        (spec, room, pick) => {
          const columns = spec.map(([natural, flexible]) => col(natural, Math.min(natural, 4), flexible));
          const main = pick < columns.length ? pick : undefined;
          const least = main === undefined ? Math.min(columns[0]!.natural, 6) : Math.min(columns[main]!.natural, 6);
          const { widths } = fit(columns, least + room, { main });
          const shown = widths.filter((w) => w > 0);
          return (
            shown.reduce((a, b) => a + b, 0) + 2 * (shown.length - 1) <= least + room &&
            widths.every((w, i) => w <= columns[i]!.natural)
          );
        },
      ),
    );
  });
});

describe('renderTable', () => {
  const tenders = findEndpoint('tenders')!;
  const layout = tableLayout(tenders, tenders.columns);

  it.each([
    [60, 'ocid {16}title', 'tier, score, buyer, closesOn, runwayDays, decision'],
    [80, 'ocid {16}tier {10}title {2,}closesOn', 'score, buyer, runwayDays, decision'],
    [120, 'ocid {16}tier {10}score {2}title {2,}closesOn {4}runwayDays {2}decision', 'buyer'],
  ])(
    'fits the tenders into %i columns: the key first and whole, whole columns dropped, the title cut',
    (width, heading, dropped) => {
      let left: string[] = [];
      const text = renderTable(data.tenders, layout.columns, {
        header: true,
        color: 1,
        width,
        ...layout,
        onDropped: (fields) => (left = fields),
      });
      const lines = text.trimEnd().split('\n').map(stripVTControlCharacters);
      expect(lines).toHaveLength(data.tenders.length + 1);
      expect(Math.max(...lines.map(visible))).toBeLessThanOrEqual(width);
      expect(lines[0]).toMatch(new RegExp(`^${heading}$`));
      expect(left.join(', ')).toBe(dropped);
      lines.slice(1).forEach((line, i) => {
        const [ocid, ...rest] = line.split(/ {2,}/);
        expect(ocid).toBe(data.tenders[i]!.ocid);
        // Only the title may end in …; every other cell is whole.
        const title = rest[{ 60: 0, 80: 1, 120: 2 }[width]!]!;
        expect(sanitize(String(data.tenders[i]!.title)).startsWith(title.replace(/…$/, ''))).toBe(true);
        for (const cell of rest) if (cell !== title) expect(cell.endsWith('…'), cell).toBe(false);
      });
    },
  );

  it('a UUID key shows as its shortest unique prefix of 8 or more; other keys whole', () => {
    const rows = [
      { id: 'd10e897e-3fad-44fe-9cce-6ea6c6b804e9', name: 'a' },
      { id: 'd10e897e-3fbb-44fe-9cce-6ea6c6b804e9', name: 'b' },
      { id: '2768b625-3a72-4d8a-8109-473d20ab034c', name: 'c' },
      { id: 'not-a-uuid-but-a-key', name: 'd' },
    ];
    const text = renderTable(rows, columnsOf(['id', 'name']), { header: true, color: 0, width: undefined, key: 0 });
    expect(text).toBe(
      'id                    name\nd10e897e-3fa          a\nd10e897e-3fb          b\n2768b625              c\nnot-a-uuid-but-a-key  d\n',
    );
  });

  it('date-times show as their day before any column is dropped; headings stay the field names', () => {
    const companies = findEndpoint('companies')!;
    const { columns, ...options } = tableLayout(companies, companies.columns);
    const wide = renderTable(data.companies.slice(0, 2), columns, { header: true, color: 0, width: 200, ...options });
    expect(wide.split('\n')[0]).toMatch(/^id {8}name {2,}kind {2,}registrationNumber {2}createdAt$/);
    expect(wide).toContain(String(data.companies[0]!.createdAt));
    const narrow = renderTable(data.companies.slice(0, 2), columns, { header: true, color: 0, width: 90, ...options });
    expect(narrow.split('\n')[0]).toMatch(/^id {8}name {2,}kind {2,}registrationNumber {2}createdAt$/);
    expect(narrow.split('\n')[1]).toMatch(new RegExp(`  ${String(data.companies[0]!.createdAt).slice(0, 10)}$`));
    expect(narrow).not.toContain('…');
  });

  it('details: under each row, indented, wrapped to the width rather than cut', () => {
    const rows = [
      { key: 'a', title: 'x' },
      { key: 'b', title: 'y' },
    ];
    const details = [
      ['status: OPEN → DONE'],
      ['notes: one two three four five six seven eight nine ten', 'tier: — → STRETCH'],
    ];
    const text = renderTable(rows, columnsOf(['key', 'title']), {
      header: true,
      color: 0,
      width: 30,
      key: 0,
      main: 1,
      details,
    });
    expect(text).toBe(
      [
        'key  title',
        'a    x',
        '  status: OPEN → DONE',
        'b    y',
        '  notes: one two three four',
        '    five six seven eight nine',
        '    ten',
        '  tier: — → STRETCH',
        '',
      ].join('\n'),
    );
  });

  it('dayOf: a UTC date-time as its day, anything else as it is', () => {
    expect(dayOf('2026-11-13T09:44:46.523Z')).toBe('2026-11-13');
    expect(dayOf('2026-11-13T09:44Z')).toBe('2026-11-13');
    expect(dayOf('2026-11-13T09:44:46+02:00')).toBe('2026-11-13T09:44:46+02:00');
    expect(dayOf('soon')).toBe('soon');
  });

  it('measures wide characters by the columns they take', () => {
    const companies = findEndpoint('companies')!;
    const text = renderTable(data.companies, tableColumns(companies, companies.columns), {
      header: true,
      color: 0,
      width: 50,
    });
    expect(text).toContain('王氏建材');
    expect(Math.max(...text.trimEnd().split('\n').map(visible))).toBeLessThanOrEqual(50);
  });

  it('a cut never ends inside an escape: `\\u202e` and `\\x1b` go whole, not `\\u2…`', () => {
    const text = sanitize('Pipe works \u202eRTL\u001b[0m 王氏');
    expect(text).toBe('Pipe works \\u202eRTL\\x1b[0m 王氏');
    const cuts = Array.from({ length: visible(text) - 1 }, (_, i) => shorten(text, i + 1));
    for (const [i, cut] of cuts.entries()) {
      expect(visible(cut), cut).toBeLessThanOrEqual(i + 1);
      expect(text.startsWith(cut.slice(0, -1)), cut).toBe(true);
      expect(cut, cut).not.toMatch(/\\(?:u[0-9a-f]{0,3}|x[0-9a-f]?)?…$/);
    }
    // At 17 columns the cut would keep `\u202`: the escape goes, the rest stays; at 18 it fits.
    expect(shorten(text, 17)).toBe('Pipe works …');
    expect(shorten(text, 18)).toBe('Pipe works \\u202e…');
    const companies = findEndpoint('companies')!;
    const table = renderTable(
      [{ id: 'c1', name: 'Pipe works \u202eRTL', kind: 'CLIENT' }],
      tableColumns(companies, ['name']),
      {
        header: false,
        color: 0,
        width: 16,
      },
    );
    expect(table).toBe('Pipe works …\n');
  });

  it('right-aligns numbers, keeps their digits, leaves null empty, joins arrays with ", "', () => {
    const rows = parseJson(
      '[{"n":5,"amount":1250000.00,"tags":["a","b"],"note":null},{"n":-120,"amount":0.50,"tags":[],"note":"x"}]',
    ) as JsonObject[];
    const text = renderTable(rows, columnsOf(['n', 'amount', 'tags', 'note'], [false, false, true, true]), {
      header: true,
      color: 0,
      width: undefined,
    });
    expect(text).toBe('n     amount      tags  note\n   5  1250000.00  a, b\n-120        0.50        x\n');
  });

  it('colours only at a colour level above 0', () => {
    const plain = renderTable(data.tenders.slice(0, 3), columnsOf(['tier'], false), {
      header: true,
      color: 0,
      width: undefined,
    });
    expect(plain).not.toContain('\u001b');
    const coloured = renderTable(data.tenders.slice(0, 3), columnsOf(['tier'], false), {
      header: true,
      color: 1,
      width: undefined,
    });
    expect(coloured).toBe(
      `\u001b[1mtier\u001b[22m\n${'\u001b[32m\u001b[1mRECOMMENDED\u001b[22m\u001b[39m\n'.repeat(3)}`,
    );
  });

  it('past due in red: runwayDays below 0 and its closesOn, which a narrow table shows alone', () => {
    const rows = [
      { closesOn: '2026-11-17', runwayDays: -9 },
      { closesOn: '2026-11-26', runwayDays: 0 },
    ];
    const both = renderTable(rows, columnsOf(['closesOn', 'runwayDays'], false), {
      header: false,
      color: 1,
      width: undefined,
    });
    expect(both).toBe('\u001b[31m2026-11-17\u001b[39m  \u001b[31m-9\u001b[39m\n2026-11-26   0\n');
    // The day alone, as at 80 columns: red still says what the left-out count would.
    const alone = renderTable(rows, columnsOf(['closesOn'], false), { header: false, color: 1, width: undefined });
    expect(alone).toBe('\u001b[31m2026-11-17\u001b[39m\n2026-11-26\n');
  });

  it("an open obligation past its due date in red: its dueOn, before today's date; one done or not yet due plain", () => {
    const rows = [
      { status: 'OPEN', dueOn: '2026-11-26' },
      { status: 'OPEN', dueOn: '2026-11-27' },
      { status: 'DONE', dueOn: '2026-11-01' },
    ];
    const text = renderTable(rows, columnsOf(['dueOn'], false), {
      header: false,
      color: 1,
      today: '2026-11-27',
      width: undefined,
    });
    expect(text).toBe('\u001b[31m2026-11-26\u001b[39m\n2026-11-27\n2026-11-01\n');
  });

  it('without a header', () => {
    const text = renderTable(data.workspaces, columnsOf(['productKey', 'name'], [false, true]), {
      header: false,
      color: 0,
      width: undefined,
    });
    expect(text).toBe('CONSTRUCT  Construction\nPROPERTY   Property portfolio\nGROWTH     Growth & tenders\n');
  });
});

describe("the day an obligation is past due by: the local date where cdata runs, not UTC's", () => {
  it('at 05:00 UTC it is still the day before in Honolulu, and already that day in Johannesburg', () => {
    const zone = process.env.TZ;
    const at = Date.UTC(2026, 10, 27, 5, 0);
    try {
      process.env.TZ = 'Pacific/Honolulu';
      expect(localDate(at)).toBe('2026-11-26');
      process.env.TZ = 'Africa/Johannesburg';
      expect(localDate(at)).toBe('2026-11-27');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
