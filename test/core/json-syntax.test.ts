// What cdata says of JSON that does not parse: V8's words without its quote of the text (which
// may hold a key), a position as a line and column, on every Node line's wording.
import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from '../../src/core/json.js';

const KEY = 'svc_yye8NHLbQcl8kneUo7Umonu30pZSjfpY';

function problemOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxProblem(error, text);
  }
  throw new Error(`${text} parsed`);
}

describe('jsonSyntaxProblem', () => {
  it.each([
    ['an unexpected token after a key', `{"key":"${KEY}","o":x}`, "Unexpected token 'x'"],
    ['a key where a value was due', `{"key":${KEY}}`, "Unexpected token 's'"],
    ['a short text, which V8 quotes whole', `[${KEY},]`, "Unexpected token 's'"],
    ['a position on the first line', `{"key":"${KEY}`, 'Unterminated string at line 1, column 45'],
    ['a position further down', `{\n"a": 1,\n\n  "b": 01}`, 'Unexpected number at line 4, column 9'],
    ['the end of the text', '', 'Unexpected end of JSON input'],
    [
      'more after the JSON (two objects pasted)',
      '{"profiles":{}} {"x":1}',
      'Unexpected non-whitespace character after JSON at line 1, column 17',
    ],
    ['lines ended by CR LF and by CR alone', '{\r\n"a": 1,\r"b": 01}', 'Unexpected number at line 3, column 7'],
  ])('%s', (_name, text, said) => {
    expect(problemOf(text)).toBe(said);
  });

  it('a wording it does not know that quotes something: the quote is not passed on', () => {
    expect(jsonSyntaxProblem(new Error(`Bad thing near "${KEY}"`), '')).toBe('a syntax error');
    expect(jsonSyntaxProblem(new Error('Bad thing'), '')).toBe('Bad thing');
  });
});
