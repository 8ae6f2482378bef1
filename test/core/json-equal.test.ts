// JSON values compared as change detection compares them (docs/exports.md, "What counts as a
// change"): numbers by their exact value, whatever their lexeme; arrays item by item; objects by
// keys and values in any order; null is not a missing value.
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/core/json-equal.js';
import { parseJson, type JsonValue } from '../../src/core/json.js';

const same = (a: string, b: string) => sameJson(parseJson(a), parseJson(b));

describe('sameJson', () => {
  it.each([
    ['1.50', '1.5'],
    ['1250000.00', '1250000'],
    ['15e-1', '1.5'],
    ['0.0015E3', '1.5'],
    ['100', '1e2'],
    ['1E+2', '100'],
    ['0', '-0'],
    ['0.000', '0e10'],
    ['12345678901234567890', '12345678901234567890.0'],
    ['1e999999999999999999', '10e999999999999999998'],
  ])('%s is the same number as %s', (a, b) => {
    expect(same(a, b)).toBe(true);
    expect(same(b, a)).toBe(true);
  });

  it.each([
    ['12345678901234567890', '12345678901234567891'], // one double for both
    ['0.1', '0.10000000000000001'], // one double for both
    ['1e999999999999999999', '1e1000000000000000000'],
    ['1.5', '-1.5'],
    ['10', '1'],
    ['1', '"1"'],
    ['0', 'false'],
    ['null', '0'],
    ['null', '""'],
    ['[]', '{}'],
    ['[1,2]', '[2,1]'],
    ['[1,2]', '[1,2,3]'],
    ['{"a":1}', '{"a":1,"b":null}'],
    ['{"a":null}', '{"b":null}'],
    ['"\\u00e9"', '"e\\u0301"'], // é composed and decomposed: different strings
  ])('%s differs from %s', (a, b) => {
    expect(same(a, b)).toBe(false);
    expect(same(b, a)).toBe(false);
  });

  it('compares arrays by value and objects by keys and values, in any key order, however deep', () => {
    expect(same('{"a":[1,{"b":[2.0,"x",null]}],"c":true}', '{"c":true,"a":[1.0,{"b":[2,"x",null]}]}')).toBe(true);
    expect(same('{"a":[1,{"b":[2.0,"x",null]}]}', '{"a":[1,{"b":[2.0,"x",false]}]}')).toBe(false);
  });

  it('a missing value (undefined) is the same only as another', () => {
    expect(sameJson(undefined, undefined)).toBe(true);
    expect(sameJson(undefined, null)).toBe(false);
    expect(sameJson(null as JsonValue, undefined)).toBe(false);
  });

  it('a __proto__ key is an ordinary key', () => {
    expect(same('{"__proto__":{"a":1}}', '{"__proto__":{"a":1.0}}')).toBe(true);
    expect(same('{"__proto__":{"a":1}}', '{"__proto__":{"a":2}}')).toBe(false);
    expect(same('{"__proto__":{}}', '{}')).toBe(false);
  });
});
