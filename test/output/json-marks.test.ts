// JSON out is JSON whatever the data: a key that starts with the marks json.ts uses inside (NUL
// and #), beside numbers kept exact, prints as the key it is (it once lost its quotes).
import { expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/core/json.js';

it('a key starting with NUL# whose value is an exact number, and one holding it in a string', () => {
  for (const body of [
    '[{"id":"1","\\u0000#1":1.50}]',
    '{"\\u0000#x":"\\u0000#2","n":1.50}',
    '{"a\\u0000#":12345678901234567890}',
  ]) {
    const data = parseJson(body);
    for (const indent of [undefined, 2]) {
      const text = stringifyJson(data, indent);
      expect(JSON.parse(text)).toEqual(
        JSON.parse(body.replace(/1\.50\b/g, '1.5').replace(/12345678901234567890/, '12345678901234567000')),
      );
      expect(text.replace(/\s/g, '')).toBe(body);
    }
  }
});
