// Column widths for a terminal: what gives way, in what order, and what each column keeps. Free
// text (titles, names, notes) gives way first, the main text column (title, name, fullName) last
// of it and least; an enum column may be cut to the prefix that still tells its values apart so
// that the main column keeps its room; only when all that is not enough are fixed-shape columns
// (dates, numbers, ids) cut too.

/** Between two columns. */
export const GAP = 2;
/** No column is cut below this (or its own width, when that is smaller): 5 characters and `…`. */
export const MIN_WIDTH = 6;
/**
 * The main text column gets at least this much (or all it needs) when the others can give it:
 * 30 characters of a title, and the `…` that says it was cut.
 */
export const MAIN_MIN_WIDTH = 31;
/**
 * The other text columns get up to this much from enum columns once the main column has its
 * floor: `City of Mbo…` tells buyers apart, `City o…` does not, and `CLARIF…` still reads.
 */
export const TEXT_MIN_WIDTH = 12;

/**
 * Column widths that fit `total`, from their natural widths:
 * 1. free-text columns are cut to a common cap, the main column's twice the others', and the
 *    slack left goes back to it first, then to the others in order;
 * 2. the main column is given up to MAIN_MIN_WIDTH (never more than it needs) from the other text
 *    columns, widest first, while they keep MIN_WIDTH;
 * 3. columns with a `least` width (enums) give what the table still lacks, then what the main
 *    column still lacks of its floor, then what the other text columns lack of TEXT_MIN_WIDTH,
 *    widest first, down to that width;
 * 4. if the table is still too wide, every column is cut to a common cap (MIN_WIDTH at least).
 */
export function fit(
  natural: readonly number[],
  flexible: readonly boolean[],
  total: number | undefined,
  main?: number,
  least: readonly (number | undefined)[] = [],
): number[] {
  const budget = total === undefined ? Infinity : total - GAP * (natural.length - 1);
  if (sum(natural) <= budget) return [...natural];
  const isMain = (i: number) => i === main;
  const text = (i: number) => flexible[i]! || isMain(i);
  const widths = capped(natural, text, budget, main);
  handBack(widths, natural, budget, main);
  if (main !== undefined) {
    const floor = Math.min(natural[main]!, MAIN_MIN_WIDTH);
    move(widths, floor - widths[main]!, (i) => !isMain(i) && text(i) && widths[i]! > MIN_WIDTH, main);
    const cuttable = (i: number) => !text(i) && least[i] !== undefined && widths[i]! > Math.max(least[i]!, MIN_WIDTH);
    move(widths, sum(widths) - budget, cuttable);
    move(widths, floor - widths[main]!, cuttable, main);
    for (let i = 0; i < widths.length; i++) {
      if (!isMain(i) && text(i)) move(widths, Math.min(natural[i]!, TEXT_MIN_WIDTH) - widths[i]!, cuttable, i);
    }
  }
  if (sum(widths) <= budget) return widths;
  const all = capped(natural, () => true, budget, main);
  if (sum(all) <= budget) {
    handBack(all, natural, budget, main);
    return all;
  }
  return natural.map((w) => Math.min(w, MIN_WIDTH));
}

/**
 * The widths at the highest common cap that fits (the main column's cap twice the others'), for
 * the columns `shrinkable` allows; at the lowest cap when none fits (over budget, then).
 */
function capped(natural: readonly number[], shrinkable: (i: number) => boolean, budget: number, main: number | undefined): number[] {
  const at = (cap: number) => natural.map((w, i) => (shrinkable(i) ? Math.min(w, Math.max(i === main ? 2 * cap : cap, MIN_WIDTH)) : w));
  let cap = Math.max(...natural);
  while (cap > 1 && sum(at(cap)) > budget) cap--;
  return at(cap);
}

/** The room left under `budget` back to the columns that were cut, the main column first. */
function handBack(widths: number[], natural: readonly number[], budget: number, main: number | undefined): void {
  let slack = budget - sum(widths);
  const order = main === undefined ? widths.map((_, i) => i) : [main, ...widths.map((_, i) => i).filter((i) => i !== main)];
  for (const i of order) {
    if (slack <= 0) return;
    const extra = Math.min(slack, natural[i]! - widths[i]!);
    widths[i]! += extra;
    slack -= extra;
  }
}

/** Up to `amount` columns taken, one at a time, from the widest column `may` allows; given to `to`, if any. */
function move(widths: number[], amount: number, may: (i: number) => boolean, to?: number): void {
  for (let left = amount; left > 0; left--) {
    let giver: number | undefined;
    widths.forEach((w, i) => {
      if (may(i) && (giver === undefined || w > widths[giver]!)) giver = i;
    });
    if (giver === undefined) return;
    widths[giver]!--;
    if (to !== undefined) widths[to]!++;
  }
}

const sum = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0);

/**
 * The narrowest an enum's column may be cut to and still tell its values apart: the shortest
 * prefix no two values share, and the `…`; at least MIN_WIDTH.
 */
export function enumLeast(values: readonly string[]): number {
  const longest = Math.max(0, ...values.map((value) => value.length));
  for (let length = 1; length <= longest; length++) {
    const starts = values.map((value) => value.slice(0, length));
    if (new Set(starts).size === values.length) return Math.max(MIN_WIDTH, length + 1);
  }
  return Math.max(MIN_WIDTH, longest);
}
