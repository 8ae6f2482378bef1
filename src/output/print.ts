// Printing data: the one place that decides, for every command that prints data, how it reaches
// its reader. The fields are checked against the view; a terminal gets colour (as --color and
// the environment allow), a table fitted to its width, every control character escaped and, when
// the text is longer than the screen, a pager; a file, a pipe or --out gets none of that; and the
// text goes to stdout or, atomically, to --out.
import type { ColorMode } from '../config/resolve.js';
import type { Format } from '../config/schema.js';
import type { View } from '../core/endpoints.js';
import { canRedraw, type Io } from '../io/index.js';
import type { JsonValue } from '../core/json-value.js';
import { colorLevel, type ColorLevel } from './color.js';
import { parseFields } from './fields.js';
import { render } from './render.js';

export interface PrintOptions {
  format: Format;
  /** --fields as typed: checked against each view printed. */
  fields: string | undefined;
  header: boolean;
  bom: boolean;
  color: ColorMode;
  /** --out: a file instead of stdout. */
  out: string | undefined;
  /** The pager for a terminal: undefined for the default (less -FRX, when installed), '' for none. */
  pager?: string | undefined;
  /** -q: no note on stderr (which columns a narrow terminal left out). */
  quiet?: boolean | undefined;
}

export interface Output {
  format: Format;
  /**
   * Renders `data` and writes it where it goes. `continued`: more rows of what the last print
   * began (printed a batch at a time), so without the header and BOM it already printed.
   */
  print(data: JsonValue, continued?: boolean): Promise<void>;
}

/** A view made from the data itself (a query's result): --fields is checked when it prints. */
export type ViewOf = (data: JsonValue) => View;

/** The output for data of this view; --fields is checked here, before any request is sent. */
export function output(io: Io, options: PrintOptions, viewOf: View | ViewOf): Output {
  const early = typeof viewOf === 'function' ? undefined : parseFields(viewOf, options.fields);
  return {
    format: options.format,
    async print(data, continued = false) {
      const view = typeof viewOf === 'function' ? viewOf(data) : viewOf;
      const fields = typeof viewOf === 'function' ? parseFields(view, options.fields) : early;
      let dropped: string[] = [];
      const onDropped = (names: string[]) => void (dropped = names);
      const text = await render({
        view,
        data,
        format: options.format,
        fields,
        header: options.header && !continued,
        bom: options.bom && !continued,
        onDropped,
        ...rendering(io, options),
      });
      // --out's rules (atomic files, descriptors, what is refused) load only when it is given; the
      // pager's only when stdout is a terminal.
      if (options.out !== undefined) await (await import('./sink.js')).writeOutput(io, options.out, text);
      else if (canRedraw(io, io.stdout) && options.pager !== '')
        await (await import('./pager.js')).showPaged(io, text, options.pager);
      else io.stdout.write(text);
      // After the pager, as every note: a person at a terminal learns what the width left out.
      if (dropped.length > 0 && io.stderr.isTTY && !options.quiet) {
        const { droppedNote } = await import('./table.js'); // loaded already: it dropped them
        const fieldsGiven = fields !== undefined || view.named === true;
        io.stderr.write(`${droppedNote(dropped, fieldsGiven, rendering(io, options).width)}\n`);
      }
    },
  };
}

export interface Rendering {
  color: ColorLevel;
  /** The terminal's width, for tables; undefined: natural widths. */
  width: number | undefined;
  /** The text goes to a terminal: control characters are escaped in every format but JSON. */
  terminal: boolean;
  /** The local date (YYYY-MM-DD) past-due dates are told by, where colour shows them. */
  today?: string | undefined;
}

/** For files cdata writes itself (exports): no colour, natural widths, the data as sent. */
export const FILE_RENDERING: Rendering = { color: 0, width: undefined, terminal: false };

/** How text is rendered for where it goes: stdout (a terminal or not), or --out. */
export function rendering(io: Io, options: Pick<PrintOptions, 'out' | 'color'>): Rendering {
  if (options.out !== undefined) return FILE_RENDERING;
  const color = colorLevel(io.stdout, options.color, io.env);
  return {
    color,
    width: terminalWidth(io),
    terminal: io.stdout.isTTY === true,
    today: color > 0 ? localDate(io.now()) : undefined,
  };
}

/** `2026-11-27`: the day it is where cdata runs (its time zone, TZ), not UTC's. */
export function localDate(at: number): string {
  const day = new Date(at);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

/** The terminal's width; a pseudo-terminal of unknown size reports 0, then COLUMNS or none. */
function terminalWidth(io: Io): number | undefined {
  if (!io.stdout.isTTY) return undefined;
  if (io.stdout.columns) return io.stdout.columns;
  const columns = Number(io.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
