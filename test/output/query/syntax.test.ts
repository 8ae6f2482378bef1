// Where a syntax error is: the library says what, not where, so errorOffset finds the place with
// its lexer and parser. Each expected column is where a reader would put the caret.
import { describe, expect, it } from 'vitest';
import { caretLines } from '../../../src/output/query/caret.js';
import { errorOffset, MAX_LOCATED_LENGTH, syntaxMessage } from '../../../src/output/query/syntax.js';
import { compile } from '@jmespath-community/jmespath';

/** [expression, where the caret goes (0-based)]. */
const CASES: [string, number][] = [
  ['foo[?a > `1`', 12], // ends too soon: just past the end
  ['foo.[', 5],
  ['[', 1],
  ['', 0],
  ['a ||| b', 4], // || then a | with nothing between
  ['foo bar', 4],
  ['a ~ b', 2], // a character the lexer refuses
  ['`1` + `{bad`', 6], // a literal that is not JSON: its backtick
  ['`1x`', 2], // inside a literal: where it stops being JSON
  ['"abc', 0], // an unclosed quoted name
  ['[a,]', 3],
  ['a[1:2:3:4]', 7],
  ['"f"(@)', 3],
  ['@.`1`', 2],
  ['sort_by(@, &score', 17],
  ['[?score > `80`]].title', 15],
  ['a | | b', 4],
];

describe('errorOffset', () => {
  it.each(CASES)('%j: column %i', (expression, offset) => {
    expect(() => compile(expression)).toThrow();
    expect(errorOffset(expression)).toBe(offset);
  });

  it('does not look past MAX_LOCATED_LENGTH characters (each try re-reads the expression)', () => {
    const longest = `${'a'.repeat(MAX_LOCATED_LENGTH - 1)}[`;
    expect(errorOffset(longest)).toBe(MAX_LOCATED_LENGTH);
    expect(errorOffset(`a${longest}`)).toBeUndefined();
  });

  it('takes little time at the longest it locates, the place at the start', () => {
    const worst = `~${' a'.repeat((MAX_LOCATED_LENGTH - 1) / 2)}`;
    // Not timed (a wall-clock bound fails on a loaded machine): well under 100 ms on an idle
    // one, and the test's time-out fails a search that goes quadratic.
    expect(errorOffset(worst)).toBe(0);
  });
});

describe('syntaxMessage', () => {
  it.each([
    ['foo[?a > `1`', "expected ']' before the end"],
    ['a ||| b', "unexpected '|'"],
    ['foo bar', "unexpected 'bar'"],
    ['a.b.', 'the expression ends too soon'],
    ['[', 'the expression ends too soon'],
    ['a ~ b', 'unknown character: ~'],
    ['[?a == `foo`]', 'not valid JSON between the quotes or backticks (text goes in \'single quotes\' or `"double"`)'],
  ])('%j: %s', (expression, message) => {
    let error: unknown;
    try {
      compile(expression);
    } catch (caught) {
      error = caught;
    }
    expect(syntaxMessage(error)).toBe(message);
  });
});

describe('caretLines', () => {
  it('puts the caret under the place, two columns in', () => {
    expect(caretLines('foo bar', 4)).toEqual(['  foo bar', '      ^']);
    expect(caretLines('foo', 3)).toEqual(['  foo', '     ^']);
  });

  it('escapes control characters and counts wide characters as two columns', () => {
    expect(caretLines('名前\u0007 x', 4)).toEqual(['  名前\\x07 x', `  ${' '.repeat(9)}^`]);
  });

  it('cuts a long expression on both sides of the place, with an ellipsis', () => {
    const expression = `${'a'.repeat(100)}~${'b'.repeat(100)}`;
    const [line, caret] = caretLines(expression, 100);
    expect(line).toBe(`  …${'a'.repeat(35)}~${'b'.repeat(34)}…`);
    expect(caret).toBe(`  ${' '.repeat(36)}^`);
  });
});
