// Random and adversarial bodies (unterminated strings, deep nesting, huge arrays, long runs of
// escapes, digits and brackets) through parseJson and then every renderer, each under a time
// bound: parsing ends in a value, a SyntaxError or a JsonLimitError, never a stack overflow or
// a hang; whatever parses renders in every format. The bounds are far above what linear code
// needs on a loaded machine and far below what the quadratic scan took (a 400 KB body: ~100 s).
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  isJsonObject,
  JsonLimitError,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue,
} from '../../src/core/json.js';
import { asRows } from '../../src/output/cells.js';
import { renderCsv } from '../../src/output/csv.js';
import { renderJson, renderNdjson } from '../../src/output/json.js';
import { renderRecord } from '../../src/output/record.js';
import { renderTable } from '../../src/output/table.js';
import { columnsOf } from '../helpers/columns.js';
import { renderTsv } from '../../src/output/tsv.js';
import { jsonValue } from './arbitraries.js';
import { seed, trials } from '../helpers/soak.js';

const RUNS = { numRuns: trials(40, 500), seed: seed(20261125) };
vi.setConfig({ testTimeout: 180_000 });

/**
 * A step, named for the message when it throws. Not timed: a wall-clock bound fails on a loaded
 * machine (and under Stryker's instrumented code); a quadratic step still fails, by the file's
 * time-out, and what the steps cost is for `npm run bench`.
 */
function timed<T>(what: string, length: number, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof JsonLimitError || error instanceof SyntaxError) throw error;
    throw new Error(`${what} of ${length} characters failed`, { cause: error });
  }
}

/** What the lexer must get through: the pieces of JSON, and the pieces that make scanners slow. */
const piece = fc.constantFrom(
  '[',
  ']',
  '{',
  '}',
  '"',
  '\\',
  '\\"',
  '\\\\',
  ':',
  ',',
  '-',
  '0',
  '1',
  '9',
  '.',
  'e',
  'E',
  '+',
  ' ',
  '\n',
  'true',
  'null',
  'f',
  '\\u0000',
  '\\u0000#',
  '1.50',
  'x',
  'é',
  '\u0000',
);

const adversarial = fc.oneof(
  fc.integer({ min: 1, max: 200_000 }).map((n) => `"${'\\"'.repeat(n)}`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => `["${'\\\\'.repeat(n)}`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => '['.repeat(n)),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 1, max: 300_000 }).map((n) => `[${Array.from({ length: n }, () => '0').join(',')}]`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => `[${Array.from({ length: n }, () => '{}').join(',')}]`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `[${Array.from({ length: n }, () => '1.50').join(',')}]`),
  fc.integer({ min: 1, max: 500_000 }).map((n) => `[${'1'.repeat(n)}.${'0'.repeat(n)}]`),
  fc.integer({ min: 1, max: 500_000 }).map((n) => `[1e${'9'.repeat(n)}]`),
  fc.integer({ min: 1, max: 500_000 }).map((n) => `[${'-'.repeat(n)}1]`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `["${'\\u0000'.repeat(n)}", 1.50]`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `[{"a":"${'x'.repeat(n)}`),
);

const bodies = fc.oneof(
  { weight: 3, arbitrary: jsonValue.map((value) => stringifyJson(value, 2)) },
  { weight: 3, arbitrary: fc.array(piece, { maxLength: 400 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: adversarial },
  { weight: 1, arbitrary: fc.tuple(jsonValue, adversarial).map(([value, tail]) => `[${stringifyJson(value)},${tail}`) },
);

/** Everything a list or a record could be printed as, for whatever rows came out. */
function renderAll(data: JsonValue): void {
  const rows = asRows(data);
  const fields = [...new Set(rows.slice(0, 20).flatMap((row) => Object.keys(row)))].slice(0, 6);
  const length = stringifyJson(data).length;
  timed('json', length, () => renderJson(data, undefined));
  timed('ndjson', length, () => renderNdjson(rows, undefined));
  timed('csv', length, () => renderCsv(rows, fields, { header: true, bom: false }));
  timed('tsv', length, () => renderTsv(rows, fields, { header: true }));
  if (rows.length > 0) {
    timed('table', length, () => renderTable(rows, columnsOf(fields), { header: true, color: 1, width: 80 }));
    timed('record', length, () => renderRecord(rows[0]!, fields, { color: 0, width: 80 }));
  }
}

describe('parseJson and the renderers on random and adversarial bodies', () => {
  it('end in a value or a SyntaxError/JsonLimitError, in bounded time; what parses renders', () => {
    fc.assert(
      fc.property(bodies, fc.option(fc.integer({ min: 1, max: 200 })), (body, maxItems) => {
        let data: JsonValue | undefined;
        try {
          data = timed('parse', body.length, () => parseJson(body, { maxItems: maxItems ?? undefined }));
        } catch (error) {
          expect(error instanceof SyntaxError || error instanceof JsonLimitError, String(error)).toBe(true);
          return;
        }
        // Agrees with the native parser wherever the text is plain JSON without inexact numbers.
        if (!/\d[.eE]|\d{16}|-0/.test(body)) expect(stringifyJson(data)).toBe(JSON.stringify(JSON.parse(body)));
        if (maxItems != null && Array.isArray(data)) expect(data.length).toBeLessThanOrEqual(maxItems);
        renderAll(data);
      }),
      RUNS,
    );
  });
});

describe('a large table, drawn in chunks', () => {
  // 150,000 and 20,000 rows in every format, in time linear in rows: test/output/large-render.heavy.test.ts.
  it('a table drawn in chunks is one table: widths decided once, every row in order', () => {
    // 250 rows: many chunks for cli-table3, the last one short; the last row alone widens the tier column.
    const rows = Array.from(
      { length: 250 },
      (_, i): JsonObject => ({ n: i, word: 'x'.repeat(i % 17), tier: i === 249 ? 'RECOMMENDED' : null }),
    );
    const text = renderTable(rows, columnsOf(['n', 'word', 'tier'], [false, true, false]), {
      header: true,
      color: 0,
      width: undefined,
    });
    const line = (n: string, word: string, tier: string) => `${n}  ${word.padEnd(16)}  ${tier}`.trimEnd();
    const expected = [
      line('n  ', 'word', 'tier'),
      ...rows.map((row, i) => line(String(i).padStart(3), String(row.word), i === 249 ? 'RECOMMENDED' : '')),
    ];
    expect(text).toBe(`${expected.join('\n')}\n`);
  });
});

describe('parseJson keeps to JSON where the marks could fool it', () => {
  it.each([
    ['{1.50: 2}', 'a number where a key belongs'],
    ['[-.5]', 'no digit before the point'],
    ['[01.50]', 'a leading zero'],
    ['[1.50e]', 'an exponent without digits'],
  ])('%s (%s) is not JSON', (text) => {
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it('strings and keys of its own starting with a NUL (and #), beside an inexact number, stay strings and keys', () => {
    const value = parseJson(
      '["\\u0000#1.50", "\\u0000\\u0023x", "\\u0000", {"\\u0000#k": 1, "b": "\\u0000\\u0000"}, 1.50]',
    );
    expect(value).toEqual([
      '\u0000#1.50',
      '\u0000#x',
      '\u0000',
      { '\u0000#k': 1, b: '\u0000\u0000' },
      expect.anything(),
    ]);
    expect(stringifyJson(value)).toBe(
      '["\\u0000#1.50","\\u0000#x","\\u0000",{"\\u0000#k":1,"b":"\\u0000\\u0000"},1.50]',
    );
  });

  it('a text holding NUL# after an escaped quote is written back as it was (it once read as a mark)', () => {
    const value = parseJson('[1.50, "x\\"\\u0000#y\\"", {"a\\"\\u0000#1": 2}]');
    expect(stringifyJson(value)).toBe('[1.50,"x\\"\\u0000#y\\"",{"a\\"\\u0000#1":2}]');
    expect(() => JSON.parse(stringifyJson(value, 2))).not.toThrow();
  });

  it('a cap-sized body with such a string parses in linear time (no slower parser behind it)', () => {
    const text = `[{"a":["\\u0000",1.50,"${'x'.repeat(16 * 1024 * 1024 - 40)}"]}]`;
    expect(((parseJson(text) as JsonObject[])[0]!.a as JsonValue[])[0]).toBe('\u0000');
  });

  it('a key named __proto__ stays a key when its number is restored', () => {
    const value = parseJson('[{"__proto__": 1.50, "a": 1}]') as JsonObject[];
    expect(isJsonObject(value[0])).toBe(true);
    expect(Object.getPrototypeOf(value[0])).toBe(Object.prototype);
    expect(stringifyJson(value)).toBe('[{"__proto__":1.50,"a":1}]');
  });
});
