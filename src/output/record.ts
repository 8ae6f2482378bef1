// One record at a terminal (`cdata tenders OCID`, `cdata me`): every field on its own line, its
// name, then its value wrapped to the terminal's width under itself, a text's own line breaks
// kept, an array's items one per line. Sanitised as tables are: API text never reaches the
// terminal raw (a line break is the one control character that does, as a line break).
import { Chalk } from 'chalk';
import type { JsonObject, JsonValue } from '../core/json-value.js';
import { sanitize, sanitizedLines } from '../core/sanitize.js';
import { cellText } from './cells.js';
import type { ColorLevel } from './color.js';
import { colorize } from './tones.js';
import { displayWidth, trimSpacesEnd, wrap } from './width.js';

const GAP = 2;
/** Values wrap at no less than this, however narrow the terminal: a word a line reads worse than a line that runs over. */
const MIN_VALUE_WIDTH = 20;
/** Marks each item of an array; its continuation lines are indented as deep. */
const ITEM = '- ';

export interface RecordOptions {
  color: ColorLevel;
  /** The local date past-due dates are told by (tones.ts). */
  today?: string | undefined;
  /** Terminal width to wrap to; undefined: no wrapping. */
  width: number | undefined;
}

export function renderRecord(row: JsonObject, fields: readonly string[], options: RecordOptions): string {
  const paint = new Chalk({ level: options.color });
  const labels = fields.map((field) => sanitize(field));
  const labelWidth = labels.reduce((most, label) => Math.max(most, displayWidth(label)), 0);
  const valueWidth =
    options.width === undefined ? Infinity : Math.max(MIN_VALUE_WIDTH, options.width - labelWidth - GAP);
  const indent = ' '.repeat(labelWidth + GAP);
  let text = '';
  fields.forEach((field, i) => {
    const label = labels[i]!;
    const lines = valueLines(row[field], valueWidth);
    lines.forEach((line, n) => {
      const lead = n === 0 ? `${paint.bold(label)}${' '.repeat(labelWidth - displayWidth(label) + GAP)}` : indent;
      text += `${trimSpacesEnd(`${lead}${lines.length === 1 ? colorize(paint, row, field, line, options.today) : line}`)}\n`;
    });
  });
  return text;
}

/**
 * The fields a record shows unless --fields says otherwise: its view's that the API sent (a field
 * it leaves out, as /me leaves out `email` for an API key, is no empty line; null is shown), then
 * any others it sent.
 */
export function recordFields(viewFields: readonly string[], row: JsonObject): string[] {
  return [
    ...viewFields.filter((field) => Object.hasOwn(row, field)),
    ...Object.keys(row).filter((key) => !viewFields.includes(key)),
  ];
}

/** A value as lines of at most `width` columns; null as one empty line. */
function valueLines(value: JsonValue | undefined, width: number): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [''];
    return value.flatMap((item) =>
      textLines(cellText(item, ', '), width - ITEM.length).map(
        (line, n) => `${n === 0 ? ITEM : ' '.repeat(ITEM.length)}${line}`,
      ),
    );
  }
  return textLines(cellText(value, ', '), width);
}

/** Text wrapped to `width`, each of its own lines on a line of its own, sanitised. */
function textLines(text: string, width: number): string[] {
  return sanitizedLines(text).flatMap((line) => wrap(line, width));
}
