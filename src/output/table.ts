// The table a person reads at a terminal: cli-table3, borderless like gh's, the endpoint's
// default columns (the key first, a UUID as its shortest unique prefix), fitted to the terminal:
// date-times as their day first, then whole columns dropped by the view's order while the main
// text column, the one cut (with `…`), keeps its room (fit.ts); headings are the field names and
// never cut. Numbers right-aligned, colour by tones.ts. Cells are sanitised first: API text never
// reaches the terminal raw.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { JsonObject } from '../core/json-value.js';
import { cellText } from './cells.js';
import type { ColorLevel } from './color.js';
import { sanitize } from '../core/sanitize.js';
import { colorize, isNumeric } from './tones.js';
import { fit, GAP } from './fit.js';
import { displayWidth as width, shorten, trimSpacesEnd, wrap } from './width.js';

export const TABLE_ARRAY_SEPARATOR = ', ';
/**
 * The widest a cell is shown, even with no terminal to fit (a table in a file or a pipe): a
 * table is for reading, and the other formats carry every character. It also keeps long text
 * away from cli-table3, which truncates every cell to 10 characters for a debug line on each
 * draw, quadratically on wide characters (200 rows of 3,000 CJK characters: 30 s).
 */
export const MAX_CELL_WIDTH = 240;

const NO_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};

/** One column of a table: its field, how it is headed, and how it may give way. */
export interface TableColumn {
  /** Also its heading: the name --fields and --query take. Never cut. */
  field: string;
  /** Free text (titles, names, notes): may be cut when no drop order covers it. */
  flexible: boolean;
  /** A date-time, shown as its day when the terminal is narrow. */
  dateTime?: boolean;
}

export interface TableOptions {
  header: boolean;
  color: ColorLevel;
  /** The local date past-due dates are told by (tones.ts). */
  today?: string | undefined;
  /** Terminal width to fit; undefined: natural widths. */
  width: number | undefined;
  /** The column that is cut, and keeps its room first (its index), if any. */
  main?: number | undefined;
  /**
   * The key column (its index): never cut nor dropped; a UUID in it shows as its shortest prefix
   * of at least KEY_PREFIX characters that no other in the column shares, as git shows hashes.
   */
  key?: number | undefined;
  /** The columns a narrow terminal drops, first to last (indexes). */
  drop?: readonly number[] | undefined;
  /** Columns that are dropped together, and come back together (indexes). */
  together?: readonly (readonly number[])[] | undefined;
  /** Told the fields of the columns dropped to fit the width, if any were. */
  onDropped?: ((fields: string[]) => void) | undefined;
  /**
   * Lines under each row, one per item, indented and wrapped to the width rather than cut (what
   * changed, under a change): a row's own, or none.
   */
  details?: readonly (readonly string[])[] | undefined;
}

/** The shortest a UUID in the key column is shown: `cdata companies d10e897e` opens it. */
export const KEY_PREFIX = 8;
/** Indent of the detail lines under a row, and of their continuation lines. */
const DETAIL_INDENT = '  ';
const DETAIL_MORE = '    ';

/** What a table shows: its headings and each row's cell texts, sanitised. */
interface Form {
  head: string[];
  texts: string[][];
}

export function renderTable(
  rows: readonly JsonObject[],
  columns: readonly TableColumn[],
  options: TableOptions,
): string {
  const paint = new Chalk({ level: options.color });
  let form: Form = {
    head: columns.map((column) => sanitize(column.field)),
    texts: rows.map((row) => columns.map((column) => sanitize(cellText(row[column.field], TABLE_ARRAY_SEPARATOR)))),
  };
  if (options.key !== undefined) abbreviateKeys(form.texts, options.key);
  let natural = naturalWidths(form, options.header);
  // Too wide for the terminal: date-times as their day first, which loses nothing a glance needs.
  if (options.width !== undefined && total(natural) > options.width && columns.some((c) => c.dateTime)) {
    form = dayForm(form, columns);
    natural = naturalWidths(form, options.header);
  }
  const fitted = fit(
    columns.map((column, i) => ({
      natural: natural[i]!,
      heading: options.header ? Math.min(MAX_CELL_WIDTH, width(form.head[i]!)) : 0,
      flexible: column.flexible,
    })),
    options.width,
    { main: options.main, key: options.key, drop: options.drop, together: options.together },
  );
  if (fitted.dropped.length > 0)
    options.onDropped?.([...fitted.dropped].sort((a, b) => a - b).map((i) => columns[i]!.field));
  const shown = columns.map((_, i) => i).filter((i) => !fitted.dropped.includes(i));
  const colWidths = shown.map((i) => fitted.widths[i]!);
  const head = shown.map((i) => form.head[i]!);
  const texts = form.texts.map((cells) => shown.map((i, n) => shorten(cells[i]!, colWidths[n]!)));
  const fields = shown.map((i) => columns[i]!.field);
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
          content: colorize(paint, row, field, texts[r]![i]!, options.today),
          hAlign: isNumeric(row[field]) ? ('right' as const) : ('left' as const),
        })),
      );
    }
    return table.toString();
  };
  // cli-table3 lays a table out in time quadratic in its rows (each cell is checked against every
  // row above it for spans): 20,000 rows took 27 s. With the widths fixed, tables of a few rows
  // each draw the same lines, so rows go through it a chunk at a time: linear in rows.
  const parts = [
    draw(
      options.header ? head.map((h, i) => paint.bold(shorten(h, colWidths[i]!))) : [],
      0,
      Math.min(rows.length, CHUNK_ROWS),
    ),
  ];
  for (let from = CHUNK_ROWS; from < rows.length; from += CHUNK_ROWS)
    parts.push(draw([], from, Math.min(rows.length, from + CHUNK_ROWS)));
  let lines = parts.join('\n').split('\n').map(trimSpacesEnd);
  if (options.details) lines = withDetails(lines, options.header ? 1 : 0, options.details, options.width);
  return `${lines.join('\n')}\n`;
}

/** The table's lines with each row's details under it (a row is one line: cells hold no line break). */
function withDetails(
  lines: readonly string[],
  headerLines: number,
  details: readonly (readonly string[])[],
  columns: number | undefined,
): string[] {
  const out = lines.slice(0, headerLines);
  lines.slice(headerLines).forEach((line, r) => {
    out.push(line);
    for (const item of details[r] ?? []) {
      const text = sanitize(item);
      if (columns === undefined) {
        out.push(`${DETAIL_INDENT}${text}`);
        continue;
      }
      // A hanging indent: the first line at DETAIL_INDENT, what follows deeper (and so narrower).
      const [first = '', ...rest] = wrap(text, columns - DETAIL_INDENT.length);
      out.push(`${DETAIL_INDENT}${first}`);
      if (rest.length > 0)
        out.push(...wrap(rest.join(' '), columns - DETAIL_MORE.length).map((part) => `${DETAIL_MORE}${part}`));
    }
  });
  return out.map(trimSpacesEnd);
}

/**
 * The UUIDs of the key column as their shortest prefix of at least KEY_PREFIX characters that no
 * other UUID in the column starts with (the same UUID twice: whole). Other keys stay whole.
 */
function abbreviateKeys(texts: string[][], column: number): void {
  const ids = [...new Set(texts.map((cells) => cells[column]!).filter((text) => UUID.test(text)))].sort();
  const shortest = new Map<string, number>();
  ids.forEach((id, i) => {
    const shared = Math.max(commonPrefix(id, ids[i - 1]), commonPrefix(id, ids[i + 1]));
    shortest.set(id, Math.max(KEY_PREFIX, shared + 1));
  });
  for (const cells of texts) {
    const length = shortest.get(cells[column]!);
    if (length !== undefined) cells[column] = cells[column]!.slice(0, length);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function commonPrefix(a: string, b: string | undefined): number {
  if (b === undefined) return 0;
  let n = 0;
  // Case folded: lookup matches a prefix in any case.
  while (n < a.length && n < b.length && a[n]!.toLowerCase() === b[n]!.toLowerCase()) n++;
  return n;
}

/**
 * Rows per cli-table3 table (see renderTable). Small: a table's layout is still quadratic within
 * it, and a command's one table runs cold (interpreted). 16 against 100: a 60-row table 56 -> 49
 * ms, 200 rows 96 -> 80 ms in a fresh process; `cdata tenders -o table` ~7% less CPU
 * (docs/performance.md).
 */
const CHUNK_ROWS = 16;

/**
 * Each column's natural width, capped at MAX_CELL_WIDTH. At least 1: cli-table3 draws a 0-wide
 * column 1 wide, and the fit would be off by one. Folded, not spread into Math.max: 150,000 rows
 * as arguments overflow the stack.
 */
function naturalWidths({ head, texts }: Form, header: boolean): number[] {
  return head.map((heading, i) =>
    Math.min(
      MAX_CELL_WIDTH,
      texts.reduce((most, cells) => Math.max(most, width(cells[i]!)), Math.max(1, header ? width(heading) : 0)),
    ),
  );
}

/** The table's width with these column widths. */
function total(widths: readonly number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
}

/** Date-times as their day (`2026-11-13`, in UTC as sent); the headings stay. */
function dayForm(form: Form, columns: readonly TableColumn[]): Form {
  return {
    head: form.head,
    texts: form.texts.map((cells) => cells.map((text, i) => (columns[i]!.dateTime ? dayOf(text) : text))),
  };
}

/** `2026-11-13T09:44:46.523Z` as `2026-11-13`; anything but a UTC date-time as it is. */
export function dayOf(text: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z$/.test(text) ? text.slice(0, 10) : text;
}

/**
 * The note for columns a narrow terminal dropped: which, and how to see them. Wider than the
 * terminal, it is broken between words, each further line indented two spaces, so that the
 * terminal never breaks a field's name. Names are made safe for a terminal here.
 */
export function droppedNote(dropped: readonly string[], fieldsGiven: boolean, width: number | undefined): string {
  const where = width === undefined ? 'Not shown' : `Not shown at ${width} columns`;
  const how = fieldsGiven
    ? 'name fewer with --fields, or use -o tsv'
    : `--fields brings ${dropped.length === 1 ? 'it' : 'them'} back`;
  const note = `${where}: ${dropped.map(sanitize).join(', ')} (${how}).`;
  if (width === undefined) return note;
  const [first = '', ...rest] = wrap(note, width);
  if (rest.length === 0) return first;
  return [first, ...wrap(rest.join(' '), width - 2).map((line) => `  ${line}`)].join('\n');
}
