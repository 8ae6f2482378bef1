// Which filters of a query read the answer's rows, and which of them kept no row for a name no
// row has (src/output/query/row-filters.ts): what the empty-filter note and the typo hint rest on.
import { compile } from '@jmespath-community/jmespath';
import { describe, expect, it } from 'vitest';
import { isRowFilter, namesThatEmptied, readingRows, type QueryNode } from '../../../src/output/query/row-filters.js';

const ROWS = [
  { tier: 'RECOMMENDED', score: 90, dueOn: '2026-12-01' },
  { tier: 'STRETCH', score: 20, dueOn: null, extra: 1 },
];
const emptied = (expression: string, rows: unknown[] = ROWS) =>
  namesThatEmptied(compile(expression), rows as never, rows as never);

describe('a filter of the rows that kept none, for a name no row has', () => {
  it.each([
    ['at the top', '[?tier == RECOMMENDED]', ['RECOMMENDED']],
    ['its projection aside', '[?tier == RECOMMENDED].score', ['RECOMMENDED']],
    ['inside a count', 'length([?dueOn < "2027-01-01"])', ['2027-01-01']],
    ['on the left of a pipe', '[?dueOn < "2027-01-01"] | length(@)', ['2027-01-01']],
    ['as a value of an object', '{n: length([?scroe > `50`]), all: length(@)}', ['scroe']],
    ['in a list', '[length([?scroe > `50`]), `1`]', ['scroe']],
    ['in a let binding', 'let $x = [?scroe > `50`] in length($x)', ['scroe']],
    ['in a comparison', 'length([?scroe > `50`]) > `0`', ['scroe']],
    ['under a negation', '!length([?scroe > `50`])', ['scroe']],
    ['through && and !', '[?!(tier != RECOMMENDED) && score > `0`]', ['RECOMMENDED']],
    ['a subexpression of it', 'sort_by([?scroe > `50`], &score)[0].tier', ['scroe']],
    ['a projection over it', 'sort_by([?scroe > `50`], &score)[*].tier', ['scroe']],
    ['on either side of &&', 'length([?scroe > `50`]) == `0` && `true`', ['scroe']],
    ['on either side of ||', '`false` || length([?scroe > `50`]) == `0`', ['scroe']],
    ['in arithmetic', 'length([?scroe > `50`]) + `1`', ['scroe']],
    ['in a condition of ||', '[?scroe > `1` || nope > `1`]', ['scroe', 'nope']],
    ['both sides of a comparison', 'length([?a > b])', ['a', 'b']],
  ])('%s: %s', (_where, expression, names) => {
    expect(emptied(expression)).toEqual(names);
  });

  it.each([
    ['a name every row has', '[?score > `100`]'],
    ['a missing name that keeps rows (null == null)', '[?nope == null] | length(@)'],
    ['a filter over a projection, not the rows', '[].{s: score} | [?nope > `1`]'],
    ['a filter inside a projection', '[].tags[?nope == `1`]'],
    ['a filter of a field, not of the rows', 'tags[?nope > `1`]'],
    ['a name some row has', '[?extra > `5`]'],
    ['a filter under an &expression', 'sort_by(@, &[?nope][0])'],
    ['no filter', 'length(@)'],
  ])('not said: %s', (_what, expression) => {
    expect(emptied(expression)).toEqual([]);
  });

  it('rows that are no objects are rows without the name', () => {
    expect(emptied('[?nope > `1`]', ['text', null, 7])).toEqual(['nope']);
  });

  it('no rows, or an answer that is no list: nothing to say', () => {
    expect(emptied('[?nope == `1`]', [])).toEqual([]);
    expect(namesThatEmptied(compile('[?nope == `1`]'), { a: 1 } as never, { a: 1 } as never)).toEqual([]);
  });
});

describe('what reads the rows', () => {
  const reading = (expression: string) => readingRows(compile(expression) as QueryNode).filter(isRowFilter).length;

  it('counts the filters over the answer itself, and only those', () => {
    expect(reading('[?a] | [?b]')).toBe(1);
    expect(reading('{x: [?a], y: length([?b])}')).toBe(2);
    expect(reading('[].tags[?a]')).toBe(0);
    expect(isRowFilter(undefined)).toBe(false);
    expect(isRowFilter(compile('@[?a]') as QueryNode)).toBe(true);
  });
});
