// Column widths for a terminal: which columns a table shows, and how wide. The key column is never
// dropped nor cut; the main text column (title, name, fullName, description) is the one that is
// cut, with `…`, and keeps at least MAIN_MIN_WIDTH while other columns can make room for it: the
// view's drop order takes whole columns away, first to last, until it fits (one it need not have
// taken comes back when the table then shows whole); columns the view keeps together (an amount
// and its currency) go and come back as one. Headings, enum values, dates and numbers are never
// cut. Only what no drop order covers (columns a query or --fields brought) may be cut too,
// if free text, and then be dropped from the right.

/** Between two columns. */
export const GAP = 2;
/** No free-text column is cut below this (or its heading, or its own width when smaller): 5 characters and `…`. */
export const MIN_WIDTH = 6;
/**
 * The main text column gets at least this much (or all it needs) before any free text beside it
 * is cut: 30 characters of a title, and the `…` that says it was cut.
 */
export const MAIN_MIN_WIDTH = 31;

export interface FitColumn {
  /** The widest of its cells and its heading. */
  natural: number;
  /** Its heading's width, which it never goes below. */
  heading: number;
  /** Free text: may be cut when no drop order says what to drop. */
  flexible: boolean;
}

export interface FitOptions {
  /** The main text column's index. */
  main?: number | undefined;
  /** The key column's index: never dropped, never cut. */
  key?: number | undefined;
  /** Indexes of the columns to drop, first to last, when the table is too wide. */
  drop?: readonly number[] | undefined;
  /** Groups of columns (indexes) dropped together and brought back together: one is never shown without the others. */
  together?: readonly (readonly number[])[] | undefined;
}

export interface Fitted {
  /** Each column's width; 0 for a dropped one. */
  widths: number[];
  /** The dropped columns' indexes, in the order they were dropped. */
  dropped: number[];
}

/**
 * The widths that fit `total` (undefined: natural widths):
 * 1. columns of the drop order are dropped, first to last, until the others fit at their natural
 *    widths with the main column at MAIN_MIN_WIDTH (or all it needs); the main column then takes
 *    what is left;
 * 2. if that is not enough, free-text columns are cut to a common cap (the main column's twice
 *    the others'), never below MIN_WIDTH or their heading, the main column kept at its floor
 *    while others can give;
 * 3. if still too wide, columns are dropped from the right, the key and the main column last;
 * 4. a lone column (or key and main) wider than the terminal is cut to it.
 */
export function fit(columns: readonly FitColumn[], total: number | undefined, options: FitOptions = {}): Fitted {
  const natural = columns.map((column) => column.natural);
  if (total === undefined || sum(natural) + GAP * (natural.length - 1) <= total)
    return { widths: natural, dropped: [] };
  const { main, key } = options;
  const kept = columns.map((_, i) => i);
  const dropped: number[] = [];
  /** `i` and the columns kept together with it. */
  const group = (i: number) => options.together?.find((members) => members.includes(i)) ?? [i];
  /**
   * `i` and its group, of those still shown; never the key, the main column, or the last column.
   * A group that is all that is shown loses `i` alone: a column shown whole beats two cut.
   */
  const remove = (i: number) => {
    if (!kept.includes(i) || i === main || i === key || kept.length === 1) return false;
    const mates = group(i).filter((j) => kept.includes(j) && j !== main && j !== key);
    for (const j of mates.length < kept.length ? mates : [i]) {
      kept.splice(kept.indexOf(j), 1);
      dropped.push(j);
    }
    return true;
  };
  const mainFloor = main === undefined ? 0 : Math.min(natural[main]!, Math.max(MAIN_MIN_WIDTH, columns[main]!.heading));
  const need = () =>
    kept.reduce((room, i) => room + (i === main ? mainFloor : natural[i]!), 0) + GAP * (kept.length - 1);
  for (const i of options.drop ?? []) {
    if (need() <= total) break;
    // Never the last column: one column too wide is cut to the width instead (4. below).
    remove(i);
  }
  // A column dropped early (a narrow one) comes back where a wider one dropped after it freed the
  // room, the last dropped (the most wanted) first, so long as every column then shows whole (the
  // main column is never cut for it): the phone beside a person's name, once the email went.
  const whole = () => kept.reduce((room, i) => room + natural[i]!, 0) + GAP * (kept.length - 1);
  if (whole() <= total) {
    for (const i of [...dropped].reverse()) {
      if (!dropped.includes(i)) continue; // back already, with its group
      const back = group(i).filter((j) => dropped.includes(j));
      kept.push(...back);
      kept.sort((a, b) => a - b);
      const fits = whole() <= total;
      for (const j of back)
        if (fits) dropped.splice(dropped.indexOf(j), 1);
        else kept.splice(kept.indexOf(j), 1);
    }
  }
  for (;;) {
    const widths = cut(columns, kept, total - GAP * (kept.length - 1), main, key);
    if (widths !== undefined) return { widths: columns.map((_, i) => widths.get(i) ?? 0), dropped };
    const last = [...kept].reverse().find((i) => i !== main && i !== key);
    if (last === undefined || !remove(last)) break;
  }
  return { widths: columns.map((_, i) => (kept.includes(i) ? lastResort(natural, kept, total, i, key) : 0)), dropped };
}

/**
 * The widths of the `kept` columns within `budget`: the main column alone cut, when that leaves
 * it its floor; else free text cut as far as it may. Undefined when it cannot fit.
 */
function cut(
  columns: readonly FitColumn[],
  kept: readonly number[],
  budget: number,
  main: number | undefined,
  key: number | undefined,
): Map<number, number> | undefined {
  const widths = new Map(kept.map((i) => [i, columns[i]!.natural]));
  const used = () => [...widths.values()].reduce((a, b) => a + b, 0);
  if (used() <= budget) return widths;
  // The main column alone, when the others fit whole beside its floor.
  if (main !== undefined && widths.has(main)) {
    const left = budget - (used() - columns[main]!.natural);
    if (left >= Math.min(columns[main]!.natural, Math.max(MAIN_MIN_WIDTH, columns[main]!.heading))) {
      widths.set(main, left);
      return widths;
    }
  }
  const cuttable = kept.filter((i) => i === main || (i !== key && columns[i]!.flexible));
  const floor = (i: number) => Math.min(columns[i]!.natural, Math.max(MIN_WIDTH, columns[i]!.heading));
  const at = (cap: number) => {
    for (const i of cuttable)
      widths.set(i, Math.min(columns[i]!.natural, Math.max(i === main ? 2 * cap : cap, floor(i))));
  };
  let cap = Math.max(0, ...cuttable.map((i) => columns[i]!.natural));
  at(cap);
  while (cap > 0 && used() > budget) at(--cap);
  if (used() > budget) return undefined;
  // The slack the cap left, back to the main column first.
  for (const i of main !== undefined && cuttable.includes(main)
    ? [main, ...cuttable.filter((j) => j !== main)]
    : cuttable) {
    const extra = Math.min(budget - used(), columns[i]!.natural - widths.get(i)!);
    if (extra > 0) widths.set(i, widths.get(i)! + extra);
  }
  // The main column's floor, from the other free text, widest first.
  if (main !== undefined && widths.has(main)) {
    const mainFloor = Math.min(columns[main]!.natural, MAIN_MIN_WIDTH);
    while (widths.get(main)! < mainFloor) {
      const giver = cuttable
        .filter((i) => i !== main && widths.get(i)! > floor(i))
        .sort((a, b) => widths.get(b)! - widths.get(a)!)[0];
      if (giver === undefined) break;
      widths.set(giver, widths.get(giver)! - 1);
      widths.set(main, widths.get(main)! + 1);
    }
  }
  return widths;
}

/** When nothing else fits: the key whole, the rest sharing what is left, a column at least. */
function lastResort(
  natural: readonly number[],
  kept: readonly number[],
  total: number,
  i: number,
  key: number | undefined,
): number {
  if (kept.length === 1) return Math.max(1, Math.min(natural[i]!, total));
  if (i === key) return natural[i]!;
  const others = kept.filter((j) => j !== i).reduce((room, j) => room + natural[j]!, 0);
  return Math.max(1, Math.min(natural[i]!, total - others - GAP * (kept.length - 1)));
}

const sum = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0);
