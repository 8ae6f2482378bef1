// The table: fitted to the terminal, numbers right-aligned, colour only when asked, pairs for me.
import { stripVTControlCharacters } from 'node:util';
import cliTableUtils from 'cli-table3/src/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { fit, renderPairs, renderTable } from '../../src/output/table.js';
import { demoData } from '../../src/sandbox/data.js';
import { NOW } from '../helpers/api.js';

const data = demoData(NOW).rows;
const visible = (line: string) => cliTableUtils.strlen(stripVTControlCharacters(line));
const flexibleOf = (name: string, columns: readonly string[]) => {
  const endpoint = findEndpoint(name)!;
  return columns.map((column) => ['string', 'string[]'].includes(endpoint.fields.find((f) => f.name === column)!.type.kind));
};

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
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 120 }), fc.boolean()), { minLength: 1, maxLength: 9 }), fc.integer({ min: 0, max: 300 }), (columns, room) => {
        const natural = columns.map(([w]) => w);
        const floor = natural.reduce((sum, w) => sum + Math.min(w, 6), 0) + 2 * (natural.length - 1);
        const widths = fit(natural, columns.map(([, f]) => f), floor + room);
        const total = widths.reduce((a, b) => a + b, 0) + 2 * (natural.length - 1);
        return total <= floor + room && widths.every((w, i) => w <= natural[i]! && w >= Math.min(natural[i]!, 6));
      }),
    );
  });
});

describe('renderTable', () => {
  const columns = findEndpoint('tenders')!.columns;

  it.each([60, 80, 120])('fits the tenders into %i columns, cutting with …', (width) => {
    const text = renderTable(data.tenders, columns, { header: true, color: 1, width, flexible: flexibleOf('tenders', columns) });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(data.tenders.length + 1);
    expect(Math.max(...lines.map(visible))).toBeLessThanOrEqual(width);
    expect(text).toContain('…');
    expect(stripVTControlCharacters(lines[0]!)).toMatch(/^tier {2,}score {2,}title/);
  });

  it('measures wide characters by the columns they take', () => {
    const companyColumns = findEndpoint('companies')!.columns;
    const text = renderTable(data.companies, companyColumns, { header: true, color: 0, width: 50, flexible: flexibleOf('companies', companyColumns) });
    expect(text).toContain('王氏建材');
    expect(Math.max(...text.trimEnd().split('\n').map(visible))).toBeLessThanOrEqual(50);
  });

  it('right-aligns numbers, keeps their digits, leaves null empty, joins arrays with ", "', () => {
    const rows = parseJson('[{"n":5,"amount":1250000.00,"tags":["a","b"],"note":null},{"n":-120,"amount":0.50,"tags":[],"note":"x"}]') as JsonObject[];
    const text = renderTable(rows, ['n', 'amount', 'tags', 'note'], { header: true, color: 0, width: undefined, flexible: [false, false, true, true] });
    expect(text).toBe('n     amount      tags  note\n   5  1250000.00  a, b\n-120        0.50        x\n');
  });

  it('colours only at a colour level above 0', () => {
    const plain = renderTable(data.tenders.slice(0, 3), ['tier'], { header: true, color: 0, width: undefined, flexible: [false] });
    expect(plain).not.toContain('\u001b');
    const coloured = renderTable(data.tenders.slice(0, 3), ['tier'], { header: true, color: 1, width: undefined, flexible: [false] });
    expect(coloured).toBe('\u001b[1mtier\u001b[22m\n' + '\u001b[32m\u001b[1mRECOMMENDED\u001b[22m\u001b[39m\n'.repeat(3));
  });

  it('without a header', () => {
    const text = renderTable(data.workspaces, ['productKey', 'name'], { header: false, color: 0, width: undefined, flexible: [false, true] });
    expect(text).toBe('CONSTRUCT  Construction\nPROPERTY   Property portfolio\nGROWTH     Growth & tenders\n');
  });
});

describe('renderPairs', () => {
  it('prints field/value pairs, labels padded, arrays joined, null empty', () => {
    const me = parseJson('{"email":null,"displayName":"CI key","tenant":"Mthembu","roles":["API"],"scopes":["graph.read","tenders.read"]}') as JsonObject;
    expect(renderPairs(me, ['displayName', 'email', 'scopes'], { header: true, color: 0, width: undefined })).toBe(
      'displayName  CI key\nemail\nscopes       graph.read, tenders.read\n',
    );
    expect(renderPairs(me, ['roles'], { header: true, color: 1, width: undefined })).toBe('\u001b[1mroles\u001b[22m  API\n');
  });
});
