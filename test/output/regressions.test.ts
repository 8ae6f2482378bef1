// Counterexamples the property tests found (here and on the props branch), kept as plain examples.
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/core/base-url.js';
import { parseTier } from '../../src/core/params.js';
import { JsonNumber } from '../../src/core/json.js';
import { renderCsv } from '../../src/output/csv.js';
import { renderTable } from '../../src/output/table.js';
import { columnsOf } from '../helpers/columns.js';

const plain = { header: true, color: 0 as const, width: undefined };

describe('regressions', () => {
  it('csv: numbers a double cannot hold keep their digits (Number() would throw)', () => {
    const text = renderCsv([{ a: new JsonNumber('1e400'), b: new JsonNumber('-12345678901234567890') }], ['a', 'b'], {
      header: false,
      bom: false,
    });
    expect(text).toBe('1e400,-12345678901234567890\r\n');
  });

  it('csv: a first cell starting with U+FEFF is quoted, so no reader takes it for a BOM', () => {
    const text = renderCsv([{ a: '\uFEFFx', b: 'y' }], ['a', 'b'], { header: false, bom: false });
    expect(text).toBe('"\uFEFFx",y\r\n');
    expect(parseCsv(text, { bom: true })).toEqual([['\uFEFFx', 'y']]);
  });

  it('table: a tier, status or decision named like an Object.prototype member is plain text', () => {
    for (const value of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(
        renderTable([{ tier: value, status: value }], columnsOf(['tier', 'status']), { ...plain, color: 1 }),
      ).toContain(value);
    }
  });

  it('table: negative runway read from the digits (-1e400, -1e-400), not Number()', () => {
    for (const lexeme of ['-1e400', '-1e-400', '-3']) {
      expect(
        renderTable([{ runwayDays: new JsonNumber(lexeme) }], columnsOf(['runwayDays'], false), { ...plain, color: 1 }),
      ).toContain(`\u001b[31m${lexeme}\u001b[39m`);
    }
    expect(
      renderTable([{ runwayDays: new JsonNumber('-0.0') }], columnsOf(['runwayDays'], false), { ...plain, color: 1 }),
    ).not.toContain('\u001b[31m');
  });

  it('table: an empty column still fits the width exactly', () => {
    const text = renderTable([{ '': '', b: 'x'.repeat(40) }], columnsOf(['', 'b']), { ...plain, width: 20 });
    for (const line of text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(20);
  });

  it('table: long padding is trimmed in linear time (a 240-wide column of spaces, 2,000 rows)', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ a: i === 0 ? 'x'.repeat(240) : '', b: 'y' }));
    const text = renderTable(rows, columnsOf(['a', 'b']), plain);
    expect(text.split('\n')[2]).toBe(`${' '.repeat(242)}y`);
  });

  it('--tier: only ASCII letters fold (ſtretch and the ﬆ ligature are not STRETCH)', () => {
    expect(parseTier('stretch')).toBe('STRETCH');
    expect(() => parseTier('ſtretch')).toThrow(/--tier must be one of/);
    expect(() => parseTier('ﬆretch')).toThrow(/--tier must be one of/);
  });

  it('localhost. (a fully qualified name, resolved by DNS) is not loopback', () => {
    expect(isLoopback('localhost')).toBe(true);
    expect(isLoopback('localhost.')).toBe(false);
  });
});
