// For any rows, however hostile: CSV parses back to the data (modulo the formula guard), TSV
// unescapes to it, JSON round-trips, and what reaches a terminal holds no raw control character.
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import cliTableUtils from 'cli-table3/src/utils.js';
import { describe, expect, it, vi } from 'vitest';
import { isJsonNumber, parseJson, stringifyJson, type JsonValue } from '../../src/core/json.js';
import { cellText } from '../../src/output/cells.js';
import { renderCsv } from '../../src/output/csv.js';
import { renderJson, renderNdjson } from '../../src/output/json.js';
import { sanitize, unescapeTsv } from '../../src/core/sanitize.js';
import { renderRecord } from '../../src/output/record.js';
import { renderTable } from '../../src/output/table.js';
import { columnsOf } from '../helpers/columns.js';
import { renderTsv } from '../../src/output/tsv.js';
import { binaryText, FIELDS, jsonValue, RAW_UNSAFE, rows } from './arbitraries.js';
import { seed, trials } from '../helpers/soak.js';

const RUNS = { numRuns: trials(100, 1000), seed: seed(20261125) };
// Hundreds of random tables take ~4 s alone and five times that on a loaded machine: the
// timeout is there to catch a hang, not to time the renderer (npm run bench does that).
vi.setConfig({ testTimeout: 120_000 });
const isNumber = (v: JsonValue | undefined) => typeof v === 'number' || isJsonNumber(v);

/**
 * docs/output.md: a text cell starting = + - @ tab CR (or their full-width forms) gains one
 * `'`. CSV is UTF-8, which cannot carry a lone surrogate: it arrives as U+FFFD (documented).
 */
function expectedCsvCell(value: JsonValue | undefined): string {
  const text = Buffer.from(cellText(value, '; '), 'utf8').toString('utf8');
  if (isNumber(value)) return text;
  return /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/.test(text) ? `'${text}` : text;
}

describe('csv', () => {
  it('parses back to the data, with and without header and BOM', () => {
    fc.assert(
      fc.property(rows, fc.boolean(), fc.boolean(), (data, header, bom) => {
        const text = renderCsv(data, FIELDS, { header, bom });
        expect(text.startsWith('\uFEFF')).toBe(bom);
        const parsed = parseCsv(text, { bom: true, record_delimiter: ['\r\n', '\n', '\r'] }) as string[][];
        const expected = data.map((row) => FIELDS.map((f) => expectedCsvCell(row[f])));
        expect(parsed).toEqual(header ? [[...FIELDS], ...expected] : expected);
      }),
      RUNS,
    );
  });
});

describe('tsv', () => {
  it('unescapes to the data; one line per row, fields-1 tabs each, no raw control character', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const text = renderTsv(data, FIELDS, { header: true });
        const lines = text.split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(data.length + 1);
        for (const line of lines) {
          expect(line.split('\t')).toHaveLength(FIELDS.length);
          expect(line.replace(/\t/g, '')).not.toMatch(RAW_UNSAFE);
        }
        lines.slice(1).forEach((line, i) => {
          expect(line.split('\t').map(unescapeTsv)).toEqual(FIELDS.map((f) => cellText(data[i]![f], '; ')));
        });
      }),
      RUNS,
    );
  });
});

describe('json and ndjson', () => {
  it('round-trip any value exactly, numbers as written, and stay valid JSON for JSON.parse', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = stringifyJson(value, 2);
        expect(stringifyJson(parseJson(text))).toBe(stringifyJson(value));
        expect(() => JSON.parse(text)).not.toThrow();
        // -o json prints the same JSON with what a terminal could act on written as \u escapes.
        const printed = renderJson(value, undefined);
        expect(stringifyJson(parseJson(printed))).toBe(stringifyJson(value));
        expect(printed).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
      }),
      RUNS,
    );
  });

  it('ndjson is one parseable object per line, equal to the row', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const lines = renderNdjson(data, undefined).split('\n').slice(0, -1);
        expect(lines).toHaveLength(data.length);
        lines.forEach((line, i) => expect(stringifyJson(parseJson(line))).toBe(stringifyJson(data[i])));
      }),
      RUNS,
    );
  });
});

describe('what reaches a terminal', () => {
  const strlen = (text: string) => cliTableUtils.strlen(text);

  it('a table holds no raw control character, and with colour only SGR sequences cdata adds', () => {
    fc.assert(
      fc.property(rows, fc.constantFrom(0, 1) as fc.Arbitrary<0 | 1>, (data, color) => {
        const text = renderTable(data, columnsOf(FIELDS), { header: true, color, width: undefined });
        const withoutColour = text.replace(/\u001b\[[0-9;]*m/g, '');
        expect(withoutColour).not.toMatch(RAW_UNSAFE);
        if (color === 0) expect(text).toBe(withoutColour);
      }),
      RUNS,
    );
  });

  it('a fitted table is never wider than the terminal, once the minimum widths fit', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 4 * 6 + 3 * 2, max: 160 }), (data, width) => {
        const text = renderTable(data, columnsOf(FIELDS, [true, false, true, false]), {
          header: true,
          color: 0,
          width,
        });
        for (const line of text.split('\n')) expect(strlen(line)).toBeLessThanOrEqual(width);
      }),
      RUNS,
    );
  });

  it('the record view and any sanitised message hold no raw control character', () => {
    fc.assert(
      fc.property(rows, binaryText(), (data, message) => {
        if (data[0]) expect(renderRecord(data[0], FIELDS, { color: 0, width: 60 })).not.toMatch(RAW_UNSAFE);
        expect(sanitize(message)).not.toMatch(RAW_UNSAFE);
      }),
      RUNS,
    );
  });
});
