// The table: fitted to the terminal (the main text column first, narrow forms before cuts), numbers
// right-aligned, colour only when asked.
import { stripVTControlCharacters } from 'node:util';
import cliTableUtils from 'cli-table3/src/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { tableColumns } from '../../src/output/columns.js';
import { enumLeast, fit, MAIN_MIN_WIDTH, TEXT_MIN_WIDTH } from '../../src/output/fit.js';
import { dayOf, renderTable } from '../../src/output/table.js';
import { demoData } from '../../src/sandbox/data.js';
import { NOW } from '../helpers/api.js';
import { columnsOf } from '../helpers/columns.js';

const data = demoData(NOW).rows;
const visible = (line: string) => cliTableUtils.strlen(stripVTControlCharacters(line));

describe('fit', () => {
  it('keeps natural widths when they fit, or when there is no width', () => {
    expect(fit([10, 20, 5], [false, true, false], 41)).toEqual([10, 20, 5]);
    expect(fit([10, 200, 5], [false, true, false], undefined)).toEqual([10, 200, 5]);
  });

  it('shortens free text first, then the rest, never below 6 (or a narrower natural width)', () => {
    expect(fit([11, 5, 60, 40, 10, 10, 13], [false, false, true, true, false, false, false], 80)).toEqual([11, 5, 10, 9, 10, 10, 13]);
    expect(fit([30, 30], [false, false], 32)).toEqual([15, 15]);
    expect(fit([20, 3, 20], [true, false, true], 5)).toEqual([6, 3, 6]);
  });

  it('fits any widths into any terminal that has room for the minimums', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 120 }), fc.boolean()), { minLength: 1, maxLength: 9 }), fc.integer({ min: 0, max: 300 }), fc.nat(9), (columns, room, pick) => {
        const natural = columns.map(([w]) => w);
        const floor = natural.reduce((sum, w) => sum + Math.min(w, 6), 0) + 2 * (natural.length - 1);
        // A main column, or none (an index past the end).
        const main = pick < natural.length ? pick : undefined;
        const widths = fit(natural, columns.map(([, f]) => f), floor + room, main);
        const total = widths.reduce((a, b) => a + b, 0) + 2 * (natural.length - 1);
        return total <= floor + room && widths.every((w, i) => w <= natural[i]! && w >= Math.min(natural[i]!, 6));
      }),
    );
  });
});

describe('fit, with a main text column', () => {
  it('gives it twice the room of the other text columns', () => {
    // 80 less three gaps and 20 fixed: 54 for two text columns, 2:1.
    expect(fit([10, 100, 100, 10], [false, true, true, false], 80, 1)).toEqual([10, 36, 18, 10]);
  });

  it('and at least 31 (30 characters and the …), taken from the others down to 6', () => {
    // 38 for two text columns: 2:1 would give 26 and 12; the floor makes it 31 and 7.
    expect(fit([5, 72, 58, 10, 4, 13], [false, true, true, false, false, false], 80, 1)).toEqual([5, MAIN_MIN_WIDTH, 7, 10, 4, 13]);
    // No room for the floor: the others are at 6 already, and the slack went to the main column.
    expect(fit([5, 20, 58, 10], [false, true, true, false], 40, 1)).toEqual([5, 13, 6, 10]);
  });

  it('cuts an enum column to the prefix that tells its values apart, so the main column keeps 31', () => {
    // `cdata tenders` at 80: tier 12, score 5, title, buyer, closes 10, days 4, decision 13.
    const natural = [12, 5, 72, 58, 10, 4, 13];
    const flexible = [false, false, true, true, false, false, false];
    const least = [enumLeast(['RECOMMENDED', 'WORTH_A_LOOK', 'STRETCH']), undefined, undefined, undefined, undefined, undefined, enumLeast(['BID', 'NO_BID', 'CLARIFY_FIRST'])];
    expect(least).toEqual([6, undefined, undefined, undefined, undefined, undefined, 6]);
    // 2:1 gives 16 and 8; the buyer gives 2 more (down to 6), the enums the other 13.
    expect(fit(natural, flexible, 80, 2, least)).toEqual([6, 5, 31, 6, 10, 4, 6]);
    // Without a main column nothing is cut for it: the text columns alone give way.
    expect(fit(natural, flexible, 80, undefined, least)).toEqual([12, 5, 12, 12, 10, 4, 13]);
  });

  it('then gives the other text columns up to 12 from the enums: `City of Mbo…`, `CLARIF…`', () => {
    // `cdata tenders --tier RECOMMENDED` at 80: score, title, buyer, closes, days, decision.
    const least = [undefined, undefined, undefined, undefined, undefined, 6];
    expect(fit([5, 72, 58, 10, 4, 13], [false, true, true, false, false, false], 80, 1, least)).toEqual([5, MAIN_MIN_WIDTH, TEXT_MIN_WIDTH, 10, 4, 8]);
    // Never below the enum's least: what it cannot give, the buyer goes without.
    expect(fit([5, 72, 58, 10, 4, 8], [false, true, true, false, false, false], 75, 1, least)).toEqual([5, MAIN_MIN_WIDTH, 9, 10, 4, 6]);
  });

  it('enumLeast: the shortest prefix no two values share, and the …; at least 6', () => {
    expect(enumLeast(['COMPLIANCE', 'CONTRACTUAL', 'PAYMENT', 'OTHER'])).toBe(6);
    expect(enumLeast(['PROPERTY', 'PROFESSIONAL', 'PROPOSAL'])).toBe(6);
    expect(enumLeast(['ABCDEFGH1', 'ABCDEFGH2'])).toBe(10);
    expect(enumLeast(['SAME', 'SAMEISH'])).toBe(6);
  });

  it('never below what it needs: a short main column leaves the room to the others', () => {
    expect(fit([12, 60, 60], [true, true, true], 80, 0)).toEqual([12, 32, 32]);
  });
});

describe('renderTable', () => {
  const tenders = findEndpoint('tenders')!;
  const columns = tableColumns(tenders, tenders.columns);

  it.each([60, 80, 120])('fits the tenders into %i columns, cutting with …', (width) => {
    const text = renderTable(data.tenders, columns, { header: true, color: 1, width });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(data.tenders.length + 1);
    expect(Math.max(...lines.map(visible))).toBeLessThanOrEqual(width);
    expect(text).toContain('…');
    expect(stripVTControlCharacters(lines[0]!)).toMatch(/^tier {2,}score {2,}title/);
  });

  it('takes the narrow forms before cutting text: short headings, date-times as their day', () => {
    const companies = findEndpoint('companies')!;
    const wide = renderTable(data.companies.slice(0, 2), tableColumns(companies, companies.columns), { header: true, color: 0, width: 200 });
    expect(wide.split('\n')[0]).toMatch(/^name {2,}kind {2,}registrationNumber {2,}createdAt$/);
    expect(wide).toContain(String(data.companies[0]!.createdAt));
    const narrow = renderTable(data.companies.slice(0, 2), tableColumns(companies, companies.columns), { header: true, color: 0, width: 80 });
    expect(narrow.split('\n')[0]).toMatch(/^name {2,}kind {2,}registration {2,}created$/);
    expect(narrow.split('\n')[1]).toMatch(new RegExp(`  ${String(data.companies[0]!.createdAt).slice(0, 10)}$`));
    expect(narrow).not.toContain('…');
  });

  it('dayOf: a UTC date-time as its day, anything else as it is', () => {
    expect(dayOf('2026-11-13T09:44:46.523Z')).toBe('2026-11-13');
    expect(dayOf('2026-11-13T09:44Z')).toBe('2026-11-13');
    expect(dayOf('2026-11-13T09:44:46+02:00')).toBe('2026-11-13T09:44:46+02:00');
    expect(dayOf('soon')).toBe('soon');
  });

  it('measures wide characters by the columns they take', () => {
    const companies = findEndpoint('companies')!;
    const text = renderTable(data.companies, tableColumns(companies, companies.columns), { header: true, color: 0, width: 50 });
    expect(text).toContain('王氏建材');
    expect(Math.max(...text.trimEnd().split('\n').map(visible))).toBeLessThanOrEqual(50);
  });

  it('right-aligns numbers, keeps their digits, leaves null empty, joins arrays with ", "', () => {
    const rows = parseJson('[{"n":5,"amount":1250000.00,"tags":["a","b"],"note":null},{"n":-120,"amount":0.50,"tags":[],"note":"x"}]') as JsonObject[];
    const text = renderTable(rows, columnsOf(['n', 'amount', 'tags', 'note'], [false, false, true, true]), { header: true, color: 0, width: undefined });
    expect(text).toBe('n     amount      tags  note\n   5  1250000.00  a, b\n-120        0.50        x\n');
  });

  it('colours only at a colour level above 0', () => {
    const plain = renderTable(data.tenders.slice(0, 3), columnsOf(['tier'], false), { header: true, color: 0, width: undefined });
    expect(plain).not.toContain('\u001b');
    const coloured = renderTable(data.tenders.slice(0, 3), columnsOf(['tier'], false), { header: true, color: 1, width: undefined });
    expect(coloured).toBe('\u001b[1mtier\u001b[22m\n' + '\u001b[32m\u001b[1mRECOMMENDED\u001b[22m\u001b[39m\n'.repeat(3));
  });

  it('without a header', () => {
    const text = renderTable(data.workspaces, columnsOf(['productKey', 'name'], [false, true]), { header: false, color: 0, width: undefined });
    expect(text).toBe('CONSTRUCT  Construction\nPROPERTY   Property portfolio\nGROWTH     Growth & tenders\n');
  });
});
