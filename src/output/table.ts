// The table a person reads at a terminal: cli-table3, borderless like gh's, the endpoint's
// default columns, fitted to the terminal by shortening the widest columns (with `…`), numbers
// right-aligned, colour for tier, status, decision and a negative runway. Cells are sanitised
// first: API text never reaches the terminal raw.
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { isJsonNumber } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';
import { cellText } from './cells.js';
import type { ColorLevel } from './color.js';
import { sanitize } from '../core/sanitize.js';
import { displayWidth as width, shorten } from './width.js';

export const TABLE_ARRAY_SEPARATOR = ', ';
const GAP = 2;
const MIN_WIDTH = 6;
/**
 * The widest a cell is shown, even with no terminal to fit (a table in a file or a pipe): a
 * table is for reading, and the other formats carry every character. It also keeps long text
 * away from cli-table3, which truncates every cell to 10 characters for a debug line on each
 * draw, quadratically on wide characters (200 rows of 3,000 CJK characters: 30 s).
 */
export const MAX_CELL_WIDTH = 240;

const NO_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: ' '.repeat(GAP),
};

export interface TableOptions {
  header: boolean;
  color: ColorLevel;
  /** Terminal width to fit; undefined: natural widths. */
  width: number | undefined;
  /** Headings that differ from the field names. */
  headings?: Readonly<Record<string, string>>;
}

export function renderTable(rows: readonly JsonObject[], fields: readonly string[], options: TableOptions & { flexible: readonly boolean[] }): string {
  const { flexible } = options;
  const paint = new Chalk({ level: options.color });
  const texts = rows.map((row) => fields.map((field) => sanitize(cellText(row[field], TABLE_ARRAY_SEPARATOR))));
  const head = fields.map((field) => sanitize(options.headings?.[field] ?? field));
  // At least 1: cli-table3 draws a 0-wide column 1 wide, and the fit would be off by one. Folded,
  // not spread into Math.max: 150,000 rows as arguments overflow the stack.
  const natural = fields.map((_, i) => texts.reduce((most, cells) => Math.max(most, width(cells[i]!)), Math.max(1, options.header ? width(head[i]!) : 0)));
  const colWidths = fit(natural.map((w) => Math.min(w, MAX_CELL_WIDTH)), flexible, options.width);
  for (const cells of texts) cells.forEach((text, i) => (cells[i] = shorten(text, colWidths[i]!)));
  const draw = (head: string[], from: number, to: number) => {
    const table = new Table({
      head,
      chars: NO_BORDERS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
      colWidths,
      wordWrap: false,
      truncate: '…',
    });
    for (let r = from; r < to; r++) {
      const row = rows[r]!;
      table.push(
        fields.map((field, i) => ({
          content: colorize(paint, field, row[field], texts[r]![i]!),
          hAlign: isNumeric(row[field]) ? ('right' as const) : ('left' as const),
        })),
      );
    }
    return table.toString();
  };
  // cli-table3 lays a table out in time quadratic in its rows (each cell is checked against every
  // row above it for spans): 20,000 rows took 27 s. With the widths fixed, tables of a few rows
  // each draw the same lines, so rows go through it a chunk at a time: linear in rows.
  const parts = [draw(options.header ? head.map((h, i) => paint.bold(shorten(h, colWidths[i]!))) : [], 0, Math.min(rows.length, CHUNK_ROWS))];
  for (let from = CHUNK_ROWS; from < rows.length; from += CHUNK_ROWS) parts.push(draw([], from, Math.min(rows.length, from + CHUNK_ROWS)));
  return `${parts.join('\n').split('\n').map(trimSpacesEnd).join('\n')}\n`;
}

/** Rows per cli-table3 table (see renderTable). */
const CHUNK_ROWS = 100;

/** Field/value pairs, for a single object such as `me`. */
export function renderPairs(row: JsonObject, fields: readonly string[], options: TableOptions): string {
  const paint = new Chalk({ level: options.color });
  const labels = fields.map(sanitize);
  const labelWidth = labels.reduce((most, label) => Math.max(most, width(label)), 0);
  return fields
    .map((field, i) => `${paint.bold(labels[i]!.padEnd(labelWidth))}${' '.repeat(GAP)}${sanitize(cellText(row[field], TABLE_ARRAY_SEPARATOR))}`)
    .map((line) => `${line.trimEnd()}\n`)
    .join('');
}

/** Trailing padding off, in linear time (`/ +$/gm` backtracks through every run of spaces). */
function trimSpacesEnd(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') end--;
  return line.slice(0, end);
}

/**
 * Column widths that fit `total`. Free-text columns (titles, names, notes) give way first: they
 * are cut down to a common cap, and any slack left goes back to them. Only if that is not enough
 * are the fixed-shape columns (tiers, dates, numbers, ids) cut too. Never below MIN_WIDTH (or a
 * column's own width when that is smaller).
 */
export function fit(natural: readonly number[], flexible: readonly boolean[], total: number | undefined): number[] {
  const budget = total === undefined ? Infinity : total - GAP * (natural.length - 1);
  const sum = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0);
  if (sum(natural) <= budget) return [...natural];
  const capped = (cap: number, shrinkable: (i: number) => boolean) =>
    natural.map((w, i) => (shrinkable(i) ? Math.min(w, Math.max(cap, MIN_WIDTH)) : w));
  for (const shrinkable of [(i: number) => flexible[i]!, () => true]) {
    let cap = Math.max(...natural);
    while (cap > MIN_WIDTH && sum(capped(cap, shrinkable)) > budget) cap--;
    const widths = capped(cap, shrinkable);
    if (sum(widths) <= budget) {
      // Hand the slack back, one column at a time, to the columns the cap cut.
      let slack = budget - sum(widths);
      for (let i = 0; slack > 0 && i < widths.length; i++) {
        const extra = Math.min(slack, natural[i]! - widths[i]!);
        widths[i]! += extra;
        slack -= extra;
      }
      return widths;
    }
  }
  return capped(MIN_WIDTH, () => true);
}

function isNumeric(value: JsonValue | undefined): boolean {
  return typeof value === 'number' || isJsonNumber(value);
}

const TONES: Record<string, (paint: ChalkInstance) => ChalkInstance> = {
  RECOMMENDED: (p) => p.green.bold,
  WORTH_A_LOOK: (p) => p.yellow,
  STRETCH: (p) => p.magenta,
  OPEN: (p) => p.yellow,
  DONE: (p) => p.green,
  ACTIVE: (p) => p.green,
  PLANNED: (p) => p.cyan,
  CLOSED: (p) => p.gray,
  BID: (p) => p.green,
  NO_BID: (p) => p.red,
  CLARIFY_FIRST: (p) => p.yellow,
  PASS: (p) => p.green,
  FAIL: (p) => p.red,
};

const TONED_FIELDS = new Set(['tier', 'status', 'decision', 'pass']);

function colorize(paint: ChalkInstance, field: string, value: JsonValue | undefined, text: string): string {
  // Own keys only: a status of `toString` or `__proto__` must not reach Object.prototype.
  if (TONED_FIELDS.has(field) && typeof value === 'string' && Object.hasOwn(TONES, value)) return TONES[value]!(paint)(text);
  if (field === 'runwayDays' && isNumeric(value) && isNegative(String(value))) return paint.red(text);
  return text;
}

/** By the digits: Number() throws on what a double cannot hold, and -1e-400 parses as -0. */
function isNegative(lexeme: string): boolean {
  return /^-0*\.?0*[1-9]/.test(lexeme);
}
