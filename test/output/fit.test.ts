// Column widths at a terminal (src/output/fit.ts), one rule at a time, each case worked out by
// hand in its comment: widths as given when they fit; free text cut first, the main column to
// twice the others and at least 31; enums cut to the prefix that tells their values apart; then
// every column; never below 6. test/output/table.test.ts has the tables these widths draw.
import { describe, expect, it } from 'vitest';
import { enumLeast, fit } from '../../src/output/fit.js';

const TEXT = true;
const FIXED = false;

describe('fit', () => {
  it('as they are when they fit, to the last column, or with no width (not a terminal)', () => {
    // 10 + 20 + 5 and two gaps of 2: 39.
    expect(fit([10, 20, 5], [FIXED, TEXT, FIXED], 39)).toEqual([10, 20, 5]);
    expect(fit([10, 20, 5], [FIXED, TEXT, FIXED], undefined)).toEqual([10, 20, 5]);
    // One short: the text gives the one.
    expect(fit([10, 20, 5], [FIXED, TEXT, FIXED], 38)).toEqual([10, 19, 5]);
  });

  it('text columns share what the fixed ones leave, equally', () => {
    // 50 - 2 gaps: 48, so 24 each; then 46 - 10: 36, so 18 each.
    expect(fit([40, 40], [TEXT, TEXT], 50)).toEqual([24, 24]);
    expect(fit([40, 10, 40], [TEXT, FIXED, TEXT], 50)).toEqual([18, 10, 18]);
  });

  it('the main column gets twice the others, wherever it is, but never more than it needs', () => {
    // 56 - 8: 48 = 2 × 16 + 16.
    expect(fit([50, 50, 8], [TEXT, TEXT, FIXED], 60, 0)).toEqual([32, 16, 8]);
    expect(fit([50, 50, 8], [TEXT, TEXT, FIXED], 60, 1)).toEqual([16, 32, 8]);
    // A main column of 20 takes 20; the other has the rest.
    expect(fit([50, 20, 8], [TEXT, TEXT, FIXED], 60, 1)).toEqual([28, 20, 8]);
    // Three text columns: 2c + c + c = 64.
    expect(fit([10, 60, 30, 30], [FIXED, TEXT, TEXT, TEXT], 80, 1)).toEqual([10, 32, 16, 16]);
    // No main column: 21 each, and the one left over to the first that was cut.
    expect(fit([10, 60, 30, 30], [FIXED, TEXT, TEXT, TEXT], 80)).toEqual([10, 22, 21, 21]);
  });

  it('room left after the common cap goes to the main column first, wherever it is', () => {
    // 57 - 8: 49 = 32 + 16, and the one left to the main column.
    expect(fit([50, 50, 8], [TEXT, TEXT, FIXED], 61, 1)).toEqual([16, 33, 8]);
    expect(fit([50, 50, 8], [TEXT, TEXT, FIXED], 61, 0)).toEqual([33, 16, 8]);
    // A main column that has all it needs (10) passes the room on to the others, in order.
    expect(fit([50, 10, 50, 8], [TEXT, TEXT, TEXT, FIXED], 61, 1)).toEqual([19, 10, 18, 8]);
  });

  it('with no main column no enum is cut: the text columns alone give way', () => {
    const least = [6, undefined, undefined, undefined, undefined, undefined, 6];
    expect(fit([12, 5, 72, 58, 10, 4, 13], [FIXED, FIXED, TEXT, TEXT, FIXED, FIXED, FIXED], 80, undefined, least)).toEqual([12, 5, 12, 12, 10, 4, 13]);
    // Too narrow for text cuts alone: every column to a common cap (8), 2 back to the first; the
    // enums are not cut to their least first.
    expect(fit([13, 60, 13], [FIXED, TEXT, FIXED], 30, undefined, [6, undefined, 6])).toEqual([10, 8, 8]);
  });

  it('enums give the main column its 31, then the other text up to 12, down to their least', () => {
    // 54 - 21 fixed: 33 = 22 + 11. The other text gives 5 (to 6), the enums the 4 more the main
    // column lacks and then 5 to the other text, down to 6 each.
    const least = [6, undefined, undefined, 6];
    expect(fit([8, 60, 40, 13], [FIXED, TEXT, TEXT, FIXED], 60, 1, least)).toEqual([6, 31, 11, 6]);
    expect(fit([13, 60, 40, 8], [FIXED, TEXT, TEXT, FIXED], 60, 1, least)).toEqual([6, 31, 11, 6]);
    // Only the first is an enum: it gives the other text its 12 and keeps 8; the last is not cut.
    expect(fit([13, 60, 40, 13], [FIXED, TEXT, TEXT, FIXED], 70, 1, [6])).toEqual([8, 31, 12, 13]);
    // Text already at 6 gives nothing: the enum gives its one.
    expect(fit([10, 20, 30, 7], [TEXT, TEXT, TEXT, FIXED], 40, 2, [undefined, undefined, undefined, 6])).toEqual([6, 6, 16, 6]);
  });

  it('the other text gives the main column its 31 before any enum is cut', () => {
    // 64 - 20 fixed: 44 = 28 + 14, 2 more to the main column (30); the other text gives the last 1.
    expect(fit([10, 70, 50, 10], [FIXED, TEXT, TEXT, FIXED], 70, 1)).toEqual([10, 31, 13, 10]);
    expect(fit([10, 70, 50, 10], [FIXED, TEXT, TEXT, FIXED], 70, 1, [6, undefined, undefined, 6])).toEqual([10, 31, 13, 10]);
    // Then two enums give, the widest first (the first of two as wide): 11 from 13 and 13.
    expect(fit([13, 60, 13], [FIXED, TEXT, FIXED], 50, 1, [6, undefined, 6])).toEqual([7, 31, 8]);
    // Other text at 9 gives 3 (to 6), the enums 10 to the main column and 4 back to it (to 10).
    expect(fit([13, 13, 60, 30, 9], [FIXED, FIXED, TEXT, TEXT, FIXED], 70, 2, [6, 6, undefined, undefined, undefined])).toEqual([6, 6, 31, 10, 9]);
    // Text columns are never cut as enums, whatever least says.
    expect(fit([30, 72, 58, 10], [TEXT, TEXT, TEXT, FIXED], 80, 1, [6, 6, 6, 6])).toEqual([16, 32, 16, 10]);
  });

  it('an enum is never cut below 6, whatever its least', () => {
    // 36 - 18 fixed: the main column has 18 and takes 4 and 2 from the enums, down to 6.
    expect(fit([10, 60, 8], [FIXED, TEXT, FIXED], 40, 1, [4, undefined, 4])).toEqual([6, 24, 6]);
  });

  it('when cutting text is not enough, every column is cut to a common cap, the slack to the first', () => {
    // 26 for three: 8 each, and 2 back to the first.
    expect(fit([20, 20, 20], [FIXED, FIXED, FIXED], 30)).toEqual([10, 8, 8]);
    // 36 with a main column: 9 + 18 + 9; without one: 12 each.
    expect(fit([20, 60, 20], [FIXED, TEXT, FIXED], 40, 1)).toEqual([9, 18, 9]);
    expect(fit([20, 60, 20], [FIXED, TEXT, FIXED], 40)).toEqual([12, 12, 12]);
  });

  it('and no column below 6 (or its own width), even past the terminal', () => {
    expect(fit([20, 20, 20], [FIXED, FIXED, FIXED], 10)).toEqual([6, 6, 6]);
    expect(fit([3, 20, 20], [FIXED, FIXED, FIXED], 10)).toEqual([3, 6, 6]);
  });
});

describe('enumLeast', () => {
  it('the shortest prefix that tells the values apart, and the …; at least 6', () => {
    expect(enumLeast(['LONGPREFIX_A', 'LONGPREFIX_B', 'X'])).toBe(13);
    expect(enumLeast(['A', 'B'])).toBe(6);
    expect(enumLeast([])).toBe(6);
  });

  it('values no prefix tells apart (the same value twice): the longest, not cut', () => {
    expect(enumLeast(['ABCDEFGHIJ', 'ABCDEFGHIJ'])).toBe(10);
  });
});
