// Column widths at a terminal (src/output/fit.ts), one rule at a time, each case worked out by
// hand in its comment: natural widths when they fit; the view's drop order takes whole columns
// away, first to last, the main column keeping 31 (or all it needs) and taking what is left; then
// free text cut to a common cap, the main column twice the others and never below 6 or its
// heading; then columns dropped from the right, the key and the main column last; and a lone
// column cut to the terminal. The key, enums and headings are never cut. test/output/table.test.ts
// has the tables these widths draw.
import { describe, expect, it } from 'vitest';
import { fit, GAP, MAIN_MIN_WIDTH, MIN_WIDTH, type FitColumn } from '../../src/output/fit.js';

/** Free text (may be cut), its heading `heading` wide. */
const text = (natural: number, heading = 1): FitColumn => ({ natural, heading, flexible: true });
/** An enum, date, number or key: never cut. */
const fixed = (natural: number, heading = 1): FitColumn => ({ natural, heading, flexible: false });

describe('the constants a user sees in a table', () => {
  it('two spaces between columns; a title keeps 30 characters and `…`; other text 5 and `…`', () => {
    expect([GAP, MAIN_MIN_WIDTH, MIN_WIDTH]).toEqual([2, 31, 6]);
  });
});

describe('natural widths', () => {
  it('when they fit, to the last column, or with no width (not a terminal)', () => {
    const columns = [fixed(10), text(20), fixed(5)];
    // 10 + 20 + 5 and two gaps of 2: 39.
    expect(fit(columns, 39, { main: 1, key: 0, drop: [2] })).toEqual({ widths: [10, 20, 5], dropped: [] });
    expect(fit(columns, undefined, { main: 1, key: 0, drop: [2] })).toEqual({ widths: [10, 20, 5], dropped: [] });
    expect(fit([fixed(80)], undefined)).toEqual({ widths: [80], dropped: [] });
    // One short: a title of 20 keeps all it needs, so the drop order goes first; with no drop
    // order, the title gives the one.
    expect(fit(columns, 38, { main: 1, key: 0, drop: [2] })).toEqual({ widths: [10, 20, 0], dropped: [2] });
    expect(fit(columns, 38, { main: 1, key: 0 })).toEqual({ widths: [10, 19, 5], dropped: [] });
  });
});

describe('the drop order', () => {
  // key 10, title 50, three columns of 12.
  const columns = [fixed(10), text(50), fixed(12), fixed(12), fixed(12)];

  it('drops whole columns, first to last, until the rest fit with the title at 31; the title takes what is left', () => {
    // All but the title: 10 + 36 + 4 gaps of 2 = 54, +31 = 85 > 70. Without 2: 10 + 31 + 24 + 6
    // = 71 > 70. Without 3 too: 10 + 31 + 12 + 4 = 57, so the title has 70 - 4 - 22 = 44.
    expect(fit(columns, 70, { main: 1, key: 0, drop: [2, 3, 4] })).toEqual({
      widths: [10, 44, 0, 0, 12],
      dropped: [2, 3],
    });
    // The order is the view's, not the columns': 4 first, then 2.
    expect(fit(columns, 70, { main: 1, key: 0, drop: [4, 2, 3] })).toEqual({
      widths: [10, 44, 0, 12, 0],
      dropped: [4, 2],
    });
    // At 85 exactly, nothing is dropped: the title is cut to 31.
    expect(fit(columns, 85, { main: 1, key: 0, drop: [2, 3, 4] })).toEqual({
      widths: [10, 31, 12, 12, 12],
      dropped: [],
    });
    // At 84 one column goes, and the title has 84 - 6 - 34 = 44 again.
    expect(fit(columns, 84, { main: 1, key: 0, drop: [2, 3, 4] })).toEqual({
      widths: [10, 44, 0, 12, 12],
      dropped: [2],
    });
  });

  it('never drops the key nor the title, nor a column twice, even when the order names them', () => {
    // Only 3 and 4 can go: 10 + 31 + 12 + 4 = 57 <= 60, and the title has 60 - 4 - 22 = 34.
    expect(fit(columns, 60, { main: 1, key: 0, drop: [0, 1, 3, 3, 4] })).toEqual({
      widths: [10, 34, 12, 0, 0],
      dropped: [3, 4],
    });
  });

  it('a title narrower than 31 keeps all it needs; one with a wider heading keeps its heading', () => {
    // Title 20: 10 + 20 + 36 + 8 = 74 > 60; without 2: 60, which fits whole.
    expect(
      fit([fixed(10), text(20), fixed(12), fixed(12), fixed(12)], 60, { main: 1, key: 0, drop: [2, 3, 4] }),
    ).toEqual({
      widths: [10, 20, 0, 12, 12],
      dropped: [2],
    });
    // Heading 40: 10 + 40 + 36 + 8 = 94 > 90; without 2: 10 + 40 + 24 + 6 = 80, the title 90 - 6 - 34 = 50.
    expect(
      fit([fixed(10), text(50, 40), fixed(12), fixed(12), fixed(12)], 90, { main: 1, key: 0, drop: [2, 3, 4] }),
    ).toEqual({
      widths: [10, 50, 0, 12, 12],
      dropped: [2],
    });
    // Heading 40 at 85: 10 + 40 + 12 + 4 = 66 (2, 3 dropped) fits, 10 + 40 + 24 + 6 = 80 fits too: only 2.
    expect(
      fit([fixed(10), text(50, 40), fixed(12), fixed(12), fixed(12)], 85, { main: 1, key: 0, drop: [2, 3, 4] }),
    ).toEqual({
      widths: [10, 45, 0, 12, 12],
      dropped: [2],
    });
  });

  it('with no title, drops until the rest fit whole', () => {
    // 10 + 12 × 3 + 6 = 52 > 40; without 2: 38.
    expect(fit([fixed(10), fixed(12), fixed(12), fixed(12)], 40, { key: 0, drop: [1, 2] })).toEqual({
      widths: [10, 0, 12, 12],
      dropped: [1],
    });
  });

  it('a narrow column dropped first comes back when a wider one dropped after it freed the room (the phone, once the email went)', () => {
    // key 10, phone 5 (dropped first), email 30 (second), name 40 (the title): at 60, 10 + 5 + 30
    // + 31 + 6 = 82; without the phone 75; without the email too 43. Whole, the name takes 40:
    // 10 + 40 + 2 = 52, and the phone back 10 + 5 + 40 + 4 = 59 <= 60; the email back would be 84.
    expect(fit([fixed(10), fixed(5), fixed(30), text(40)], 60, { key: 0, main: 3, drop: [1, 2] })).toEqual({
      widths: [10, 5, 0, 40],
      dropped: [2],
    });
    // One column short of that room: the phone stays out too, and the name is not cut for it.
    expect(fit([fixed(10), fixed(5), fixed(30), text(40)], 58, { key: 0, main: 3, drop: [1, 2] })).toEqual({
      widths: [10, 0, 0, 40],
      dropped: [1, 2],
    });
  });

  it('columns kept together go together, whichever the order names', () => {
    // key 8, title 50, kind 11, status 6, dueOn 10, amount 10, currency 8 (obligations at 80).
    const columns = [fixed(8), text(50), fixed(11), fixed(6), fixed(10), fixed(10), fixed(8)];
    const order = { key: 0, main: 1, drop: [2, 6, 5, 4, 3] };
    // All, the title at 31: 8 + 31 + 45 + 12 = 96 > 80. Without kind: 8 + 31 + 34 + 10 = 83.
    // The currency's going would do alone (8 + 31 + 26 + 8 = 73), leaving the amount without it.
    expect(fit(columns, 80, order)).toEqual({ widths: [8, 38, 0, 6, 10, 10, 0], dropped: [2, 6] });
    // Together, the amount goes with it: the title takes 80 - 6 - 24 = 50, all it needs.
    const together = { ...order, together: [[5, 6]] };
    expect(fit(columns, 80, together)).toEqual({ widths: [8, 50, 0, 6, 10, 0, 0], dropped: [2, 5, 6] });
    // The amount named first instead: the same two go.
    expect(fit(columns, 80, { ...together, drop: [2, 5, 6, 4, 3] })).toEqual({
      widths: [8, 50, 0, 6, 10, 0, 0],
      dropped: [2, 5, 6],
    });
  });

  it('columns kept together come back together, and only when both show whole', () => {
    // key 10, a 5 and c 5 (kept together), b 30, name 40 (the title); the order a, b, c.
    const columns = [fixed(10), fixed(5), fixed(5), fixed(30), text(40)];
    const order = { key: 0, main: 4, drop: [1, 3, 2] };
    // Apart, at 65: 10 + 5 + 5 + 30 + 31 + 8 = 89; without a, 82; without b too, 10 + 5 + 31 + 4
    // = 50. Whole, 10 + 5 + 40 + 4 = 59, and a back would be 66: c shows without a.
    expect(fit(columns, 65, order)).toEqual({ widths: [10, 0, 5, 0, 40], dropped: [1, 3] });
    // Together: a takes c with it (10 + 30 + 31 + 4 = 75), then b (43); whole 10 + 40 + 2 = 52,
    // and the two back 52 + 10 + 4 = 66 > 65: both stay out.
    const together = { ...order, together: [[1, 2]] };
    expect(fit(columns, 65, together)).toEqual({ widths: [10, 0, 0, 0, 40], dropped: [1, 2, 3] });
    // At 66 they fit whole, and come back as one.
    expect(fit(columns, 66, together)).toEqual({ widths: [10, 5, 5, 0, 40], dropped: [3] });
  });

  it('a group that is all that is shown loses one column, whole beside it, rather than both cut', () => {
    // amount 10 and currency 8 (--fields amount,currency) at 16: 10 + 8 + 2 = 20 > 16. The
    // currency goes from the right, and the amount shows whole: numbers are never cut.
    expect(fit([fixed(10), fixed(8)], 16, { together: [[0, 1]] })).toEqual({ widths: [10, 0], dropped: [1] });
  });

  it('columns kept together leave together from the right too, when no order names them', () => {
    // key 10, title 40, two of 12 kept together. At 40: 10 + 6 + 24 + 6 = 46 > 40, so the
    // rightmost goes and its mate with it; the title takes 40 - 2 - 10 = 28. Apart, only one went.
    const columns = [fixed(10), text(40), fixed(12), fixed(12)];
    expect(fit(columns, 40, { main: 1, key: 0 })).toEqual({ widths: [10, 14, 12, 0], dropped: [3] });
    expect(fit(columns, 40, { main: 1, key: 0, together: [[2, 3]] })).toEqual({
      widths: [10, 28, 0, 0],
      dropped: [2, 3],
    });
  });

  it('never the last column: a lone column the order names is cut to the width instead (a query of one field)', () => {
    expect(fit([text(43, 5)], 30, { drop: [0] })).toEqual({ widths: [30], dropped: [] });
    // Of two, the one the order names goes, and the other stays.
    expect(fit([text(43, 5), text(43, 5)], 30, { drop: [0, 1] })).toEqual({ widths: [0, 30], dropped: [0] });
  });

  it('free text the drop order leaves is cut after the drops, the title first to its floor', () => {
    // key 10, title 60, note 40 (free text, not in the order), enum 12 to drop.
    // 10 + 31 + 40 + 12 + 6 = 99 > 80: 3 goes; 10 + 31 + 40 + 4 = 85 > 80 still, and nothing else
    // may go. Budget 76: cap c, title 2c, note c: 10 + 3c <= 76, c = 22: 44 + 22 = 66, none left.
    expect(fit([fixed(10), text(60), text(40), fixed(12)], 80, { main: 1, key: 0, drop: [3] })).toEqual({
      widths: [10, 44, 22, 0],
      dropped: [3],
    });
  });
});

describe('the title alone cut, with no drop order', () => {
  it('when the others fit whole beside its floor, only the title is cut, however wide the others', () => {
    // Budget 105: 10 + 60 leave the title 35 >= 31, so the note keeps its 60 (a common cap would
    // have made it 40 and 55).
    expect(fit([fixed(10), text(40), text(60)], 109, { main: 1, key: 0 })).toEqual({
      widths: [10, 35, 60],
      dropped: [],
    });
    // Exactly its floor left: still the title alone, at 31 (not 40 and 51).
    expect(fit([fixed(10), text(40), text(60)], 105, { main: 1, key: 0 })).toEqual({
      widths: [10, 31, 60],
      dropped: [],
    });
    // Its heading is its floor when wider than 31: 36 left for a heading of 36, not for 37.
    expect(fit([fixed(10), text(40, 36), text(60)], 110, { main: 1, key: 0 })).toEqual({
      widths: [10, 36, 60],
      dropped: [],
    });
    // A heading of 37, one more than is left: the common cap, the title all its 40 (2c >= 40),
    // the note c: 10 + 40 + c <= 106, c = 56.
    expect(fit([fixed(10), text(40, 37), text(60)], 110, { main: 1, key: 0 })).toEqual({
      widths: [10, 40, 56],
      dropped: [],
    });
  });
});

describe('free text cut to a common cap, with no drop order', () => {
  it("the title twice the others, the cap's slack back to the title first", () => {
    // Budget 80 - 6 = 74; 18 fixed leaves 56: 3c <= 56, c = 18 (36 + 18 = 54), 2 left to the title.
    expect(fit([fixed(10), text(60), text(60), fixed(8)], 80, { main: 1, key: 0 })).toEqual({
      widths: [10, 38, 18, 8],
      dropped: [],
    });
    // The title last: the same.
    expect(fit([fixed(10), text(60), fixed(8), text(60)], 80, { main: 3, key: 0 })).toEqual({
      widths: [10, 18, 8, 38],
      dropped: [],
    });
  });

  it('never more than a column needs: a short title takes its width, the other text the rest', () => {
    // Budget 56: title 20 (2c >= 20 from c = 10), note min(50, c): 20 + c <= 56 - 8, c = 28.
    expect(fit([text(50), text(20), fixed(8)], 60, { main: 1 })).toEqual({ widths: [28, 20, 8], dropped: [] });
    // Budget 61: 20 + 2c <= 61, c = 20; the title has all it needs, so the slack goes to the next.
    expect(fit([text(20), text(50), text(50)], 65, { main: 0 })).toEqual({ widths: [20, 21, 20], dropped: [] });
  });

  it('with no title, the same cap for all, the slack to the first that was cut', () => {
    // Budget 74 - 10 = 64: 3c <= 64, c = 21, one left to column 1.
    expect(fit([fixed(10), text(60), text(30), text(30)], 80, { key: 0 })).toEqual({
      widths: [10, 22, 21, 21],
      dropped: [],
    });
  });

  it('the title kept at 31 while other text can give, down to 6', () => {
    // Budget 38: 3c <= 38, c = 12: 24 + 12, 2 left to the title (26); then the note gives 5 to the title.
    expect(fit([text(60), text(60)], 40, { main: 0 })).toEqual({ widths: [31, 7], dropped: [] });
    // Budget 35: c = 11: 22 + 11, 2 left: 24; the note gives down to 6: title 29.
    expect(fit([text(60), text(60)], 37, { main: 0 })).toEqual({ widths: [29, 6], dropped: [] });
    // A title that is not free text is cut all the same, as the main column.
    expect(fit([fixed(60), text(60)], 40, { main: 0 })).toEqual({ widths: [31, 7], dropped: [] });
    // The widest other text gives first: 12 and 12 from c = 10 (budget 52: 20 + 10 + 10 + 10 = 50, 2 to the title).
    expect(fit([text(60), text(60), text(60), text(60)], 58, { main: 0 })).toEqual({
      widths: [31, 7, 7, 7],
      dropped: [],
    });
  });

  it('a heading is never cut: a column keeps its heading, or 6, or its own width when smaller', () => {
    // Budget 28: title 2c, the note at least its heading 15: 2c + 15 <= 28, c = 6: 12 + 15 = 27, 1 to the title.
    expect(fit([text(60), text(40, 15)], 30, { main: 0 })).toEqual({ widths: [13, 15], dropped: [] });
    // A note of 4 stays 4; one of 9 no narrower than 6.
    expect(fit([text(60), text(4)], 20, { main: 0 })).toEqual({ widths: [14, 4], dropped: [] });
    expect(fit([text(60), text(9)], 14, { main: 0 })).toEqual({ widths: [6, 6], dropped: [] });
    // With no title either: each at least its floor.
    expect(fit([text(30, 8), text(30)], 16, {})).toEqual({ widths: [8, 6], dropped: [] });
  });

  it('enums, dates, numbers and the key are never cut, whatever their width', () => {
    // Budget 58 - 50 fixed = 8 for the title.
    expect(fit([fixed(20), text(60), fixed(30)], 62, { main: 1, key: 0 })).toEqual({
      widths: [20, 8, 30],
      dropped: [],
    });
    // A key that is free text is not cut either: the note is.
    expect(fit([text(20), text(30)], 30, { key: 0 })).toEqual({ widths: [20, 8], dropped: [] });
  });
});

describe('then columns dropped from the right', () => {
  it('the rightmost column that is neither the key nor the title, until the rest fit', () => {
    // Budget 34: 10 + 6 + 12 + 12 = 40 > 34; without 3: 36 for 10 + 12 and the title 14.
    expect(fit([fixed(10), text(40), fixed(12), fixed(12)], 40, { main: 1, key: 0 })).toEqual({
      widths: [10, 14, 12, 0],
      dropped: [3],
    });
    // The key on the right is kept; the enum before it goes.
    expect(fit([text(40), fixed(12), fixed(12), fixed(10)], 40, { main: 0, key: 3 })).toEqual({
      widths: [14, 12, 0, 10],
      dropped: [2],
    });
    // After the drop order: 3 from the order, then 4 from the right.
    expect(fit([fixed(10), text(40), fixed(12), fixed(12), fixed(12)], 40, { main: 1, key: 0, drop: [3] })).toEqual({
      widths: [10, 14, 12, 0, 0],
      dropped: [3, 4],
    });
  });

  it('with no title nor key, down to one column', () => {
    expect(fit([fixed(10), fixed(12), fixed(12)], 25)).toEqual({ widths: [10, 12, 0], dropped: [2] });
    expect(fit([fixed(10), fixed(12), fixed(12)], 11)).toEqual({ widths: [10, 0, 0], dropped: [2, 1] });
  });
});

describe('when nothing else fits', () => {
  it('a lone column is cut to the terminal, one character at least', () => {
    expect(fit([fixed(50)], 20)).toEqual({ widths: [20], dropped: [] });
    expect(fit([fixed(50)], 0)).toEqual({ widths: [1], dropped: [] });
    // Even the key, when alone: the note (which cannot go below 6 beside it) is dropped first.
    expect(fit([text(50), fixed(40)], 30, { key: 1 })).toEqual({ widths: [0, 30], dropped: [0] });
    // The others dropped first, the lone one then cut.
    expect(fit([fixed(50), fixed(12)], 20)).toEqual({ widths: [20, 0], dropped: [1] });
  });

  it('key and title: the key whole, the title what is left, one at least', () => {
    // 30 + 6 + 2 > 20: the title 20 - 30 - 2 < 1, so 1.
    expect(fit([fixed(30), text(40)], 20, { main: 1, key: 0 })).toEqual({ widths: [30, 1], dropped: [] });
    // 30 + 6 + 2 = 38 > 37: the title 37 - 32 = 5.
    expect(fit([fixed(30), text(40)], 37, { main: 1, key: 0 })).toEqual({ widths: [30, 5], dropped: [] });
    // With no key, the other column is dropped and the title cut to the terminal.
    expect(fit([fixed(30), text(40)], 37, { main: 1 })).toEqual({ widths: [0, 37], dropped: [0] });
  });
});
