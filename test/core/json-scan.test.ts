// The scan every body goes through before JSON.parse (src/core/json-scan.ts): which numbers
// -o json must print as the API wrote them, which strings could pass for parseJson's mark, and
// the limits that refuse a hostile body (too deep, too many values, a list longer than asked
// for) with the message the user reads after "the body".
import { describe, expect, it } from 'vitest';
import { JsonLimitError, scanJson, type JsonLimits } from '../../src/core/json-scan.js';
import { parseJson, stringifyJson } from '../../src/core/json.js';

const WIDE: JsonLimits = { maxDepth: 64, maxValues: 1000 };
const scan = (text: string, limits: Partial<JsonLimits> = {}) => scanJson(text, { ...WIDE, ...limits });
/** The lexemes a double would change, as text. */
const inexact = (text: string) => {
  const { inexact: offsets } = scan(text);
  const lexemes: string[] = [];
  for (let i = 0; i < offsets.length; i += 2) lexemes.push(text.slice(offsets[i], offsets[i + 1]));
  return lexemes;
};

describe('numbers a double would change', () => {
  it('found by their exact text; those a double keeps are not', () => {
    expect(
      inexact('[12, -3, 0.5, 0, -0, 0.10, 9.50, 1.50, 1e21, 1E5, 2e+3, 5e-1, 12345678901234567890, 1250000.00, 0.1]'),
    ).toEqual(['-0', '0.10', '9.50', '1.50', '1e21', '1E5', '2e+3', '5e-1', '12345678901234567890', '1250000.00']);
  });

  it("a lexeme ends where JSON's grammar ends it", () => {
    expect(scan('{"a":10,"b":[1.50]}').inexact).toEqual([13, 17]);
    expect(inexact('[1.5e3]')).toEqual(['1.5e3']);
    expect(inexact('[-12.50e-2]')).toEqual(['-12.50e-2']);
    expect(inexact('[1.x]')).toEqual([]);
    expect(inexact('[1ex, 1e+x, 1.0]')).toEqual(['1.0']);
    expect(inexact('[007]')).toEqual([]);
    expect(inexact('[- 1.50]')).toEqual(['1.50']);
    expect(scan('[2E-1]').inexact).toEqual([1, 5]);
  });

  it('what sits inside a string is not a number, whatever escapes precede its quote', () => {
    expect(inexact('["1.50", 2.50]')).toEqual(['2.50']);
    expect(inexact('["a\\"1.50", 2.50]')).toEqual(['2.50']);
    expect(inexact('["a\\\\", 2.50, "\\\\\\"3.50"]')).toEqual(['2.50']);
    expect(inexact('["never closed 1.50')).toEqual([]);
  });

  it('-o json prints them as the API wrote them', () => {
    const text = '{"id":12345678901234567890,"amount":1250000.00,"rate":1e21,"n":3,"s":"1.50"}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });
});

describe('strings that start with NUL', () => {
  it('each one where it opens, keys included; escaped NULs elsewhere are not', () => {
    expect(scan('{"\\u0000k":"\\u0000v","x":"a\\u0000"}').nulStrings).toEqual([1, 11]);
    expect(scan('["\\u0001", "u0000"]').nulStrings).toEqual([]);
  });

  it('come out of parseJson as they went in, next to marked numbers', () => {
    const text = '["\\u0000#1.50",1.50,"\\u0000"]';
    expect(parseJson(text)).toEqual(['\u0000#1.50', expect.objectContaining({ value: '1.50' }), '\u0000']);
  });
});

describe('limits', () => {
  it('nesting: as deep as the limit, not one level more', () => {
    expect(() => scan('[[[]]]', { maxDepth: 3 })).not.toThrow();
    expect(() => scan('{"a":{"b":[]}}', { maxDepth: 3 })).not.toThrow();
    expect(() => scan('[[[[]]]]', { maxDepth: 3 })).toThrow(new JsonLimitError('maxDepth', 3));
    expect(() => scan('[{"a":[{}]}]', { maxDepth: 3 })).toThrow(
      expect.objectContaining({ limit: 'maxDepth', max: 3, message: 'is nested deeper than 3 levels' }),
    );
  });

  it('closing brackets give the depth back: many shallow values pass however many', () => {
    expect(() => scan(`[${'[],{},'.repeat(50)}[]]`, { maxDepth: 2 })).not.toThrow();
    expect(() => scan(`[${'{"a":[]},'.repeat(50)}{}]`, { maxDepth: 3 })).not.toThrow();
    // A word ends at the bracket after it, which closes its level.
    expect(() => scan(`[${'{"a":true},{"b":null},{"c":false},'.repeat(20)}{}]`, { maxDepth: 2 })).not.toThrow();
  });

  it('values: keys, strings, numbers, literals, arrays and objects all count', () => {
    // [ {"a" 1} "s" true null false -2 ] : 9 values
    const text = '[{"a":1},"s",true,null,false,-2]';
    expect(() => scan(text, { maxValues: 8 })).toThrow(
      expect.objectContaining({ limit: 'maxValues', max: 8, message: 'holds more than 8 values' }),
    );
    expect(() => scan(text, { maxValues: 9 })).not.toThrow();
    expect(new JsonLimitError('maxValues', 200_000).message).toBe('holds more than 200,000 values');
  });

  it('items: the top-level array only, after any leading whitespace', () => {
    expect(() => scan('[1,2,3]', { maxItems: 3 })).not.toThrow();
    for (const text of ['[1,2,3,4]', ' \t\r\n[1,2,3,4]', '\n[[],{},"x",null]']) {
      expect(() => scan(text, { maxItems: 3 })).toThrow(
        expect.objectContaining({
          limit: 'maxItems',
          max: 3,
          message: 'holds more than 3 items in its top-level array',
        }),
      );
    }
    expect(() => scan('[[1,2,3,4],{"a":[5,6,7,8]}]', { maxItems: 3 })).not.toThrow();
    expect(() => scan('{"a":1,"b":2,"c":3,"d":4}', { maxItems: 3 })).not.toThrow();
    expect(() => scan('[1,2,3,4,5,6]')).not.toThrow();
  });

  it('a word is one value, whatever its letters, so a body of wrong words is refused by its size too', () => {
    expect(() => scan('[nulz]', { maxValues: 2 })).not.toThrow();
    expect(() => scan('[abc]', { maxValues: 2 })).not.toThrow();
    for (const text of ['[a,a]', '[z,z]', '[0,0]', '[9,9]'])
      expect(() => scan(text, { maxValues: 2 }), text).toThrow(expect.objectContaining({ limit: 'maxValues' }));
  });

  it('a lone minus, or words JSON.parse will refuse, are left to it', () => {
    expect(scan('[-, -x, tru, nul]')).toEqual({ inexact: [], nulStrings: [] });
    expect(() => scan('[-, -, -, -]', { maxValues: 1 })).not.toThrow();
    expect(() => scan('[truefalse]', { maxValues: 2 })).not.toThrow();
    expect(() => scan('[true,false]', { maxValues: 2 })).toThrow(expect.objectContaining({ limit: 'maxValues' }));
  });
});
