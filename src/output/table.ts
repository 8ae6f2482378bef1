// The table a person reads at a terminal: cli-table3, borderless like gh's, the endpoint's
// default columns, fitted to the terminal: narrow forms first (short headings, date-times as
// their day), then free text cut (with `…`) while the main text column keeps the most room; numbers
// right-aligned, colour for tier, status, decision and a negative runway. Cells are sanitised
// first: API text never reaches the terminal raw.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { JsonObject } from '../core/json-value.js';
import { cellText } from './cells.js';
import type { ColorLevel } from './color.js';
import { sanitize } from '../core/sanitize.js';
import { colorize, isNumeric } from './tones.js';
import { fit, GAP } from './fit.js';
import { displayWidth as width, shorten, trimSpacesEnd } from './width.js';

export const TABLE_ARRAY_SEPARATOR = ', ';
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

/** One column of a table: its field, how it is headed, and how it may give way. */
export interface TableColumn {
  field: string;
  heading: string;
  /** The heading when the terminal is too narrow for the full forms (`days` for `runwayDays`). */
  narrowHeading?: string | undefined;
  /** Free text (titles, names, notes): cut first when the terminal is narrow. */
  flexible: boolean;
  /**
   * The narrowest it may be cut to so the main text column keeps its room, when that still tells
   * its values apart (an enum's: `RECOM…`, `WORTH…`); undefined: not cut for that.
   */
  least?: number | undefined;
  /** A date-time, shown as its day when the terminal is narrow. */
  dateTime?: boolean;
}

export interface TableOptions {
  header: boolean;
  color: ColorLevel;
  /** Terminal width to fit; undefined: natural widths. */
  width: number | undefined;
  /** The column that gets room first (its index), if any. */
  main?: number | undefined;
}

/** What a table shows: its headings and each row's cell texts, sanitised. */
interface Form {
  head: string[];
  texts: string[][];
}

export function renderTable(rows: readonly JsonObject[], columns: readonly TableColumn[], options: TableOptions): string {
  const paint = new Chalk({ level: options.color });
  let form: Form = {
    head: columns.map((column) => sanitize(column.heading)),
    texts: rows.map((row) => columns.map((column) => sanitize(cellText(row[column.field], TABLE_ARRAY_SEPARATOR)))),
  };
  let natural = naturalWidths(form, options.header);
  // Too wide for the terminal: the narrow forms first (short headings, date-times as their day),
  // which cost less than cutting text.
  if (options.width !== undefined && total(natural) > options.width && columns.some((c) => c.narrowHeading !== undefined || c.dateTime)) {
    form = narrowForm(form, columns);
    natural = naturalWidths(form, options.header);
  }
  const { head, texts } = form;
  const colWidths = fit(natural, columns.map((c) => c.flexible), options.width, options.main, columns.map((c) => c.least));
  for (const cells of texts) cells.forEach((text, i) => (cells[i] = shorten(text, colWidths[i]!)));
  const fields = columns.map((column) => column.field);
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

/**
 * Each column's natural width, capped at MAX_CELL_WIDTH. At least 1: cli-table3 draws a 0-wide
 * column 1 wide, and the fit would be off by one. Folded, not spread into Math.max: 150,000 rows
 * as arguments overflow the stack.
 */
function naturalWidths({ head, texts }: Form, header: boolean): number[] {
  return head.map((heading, i) => Math.min(MAX_CELL_WIDTH, texts.reduce((most, cells) => Math.max(most, width(cells[i]!)), Math.max(1, header ? width(heading) : 0))));
}

/** The table's width with these column widths. */
function total(widths: readonly number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
}

/** The narrow form: short headings, and date-times as their day (`2026-11-13`, in UTC as sent). */
function narrowForm(form: Form, columns: readonly TableColumn[]): Form {
  return {
    head: form.head.map((heading, i) => (columns[i]!.narrowHeading === undefined ? heading : sanitize(columns[i]!.narrowHeading!))),
    texts: form.texts.map((cells) => cells.map((text, i) => (columns[i]!.dateTime ? dayOf(text) : text))),
  };
}

/** `2026-11-13T09:44:46.523Z` as `2026-11-13`; anything but a UTC date-time as it is. */
export function dayOf(text: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z$/.test(text) ? text.slice(0, 10) : text;
}
