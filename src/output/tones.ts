// Colour for the values a person scans for, in tables and the record view alike, each colour with
// one meaning (the legend is in docs/output.md): green the best tier, cyan the next, blue a
// decision to bid, magenta one not to, yellow something still to do (a question before deciding,
// an open obligation), red past due or failed (a negative runway and its closing day, an open
// obligation's due date before today, a failed check), faint finished. Colour only repeats what
// the text says: tier and decision are words in their own columns, and past due is a minus sign,
// or a closing day or due date before today, so nothing is lost without it.
import type { ChalkInstance } from 'chalk';
import { isJsonNumber } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';

/** The one meaning of each colour, and the values it marks (docs/output.md shows this legend). */
const TONES: Record<string, (paint: ChalkInstance) => ChalkInstance> = {
  // The best tier.
  RECOMMENDED: (p) => p.green.bold,
  // The next tier (STRETCH, the last, stays plain).
  WORTH_A_LOOK: (p) => p.cyan,
  // A decision to bid, and one not to.
  BID: (p) => p.blue,
  NO_BID: (p) => p.magenta,
  // Still to do.
  CLARIFY_FIRST: (p) => p.yellow,
  OPEN: (p) => p.yellow,
  // Past due, or failed.
  FAIL: (p) => p.red,
  // Finished: faint, not grey (SGR 90), which some palettes (Solarized Dark) draw in the
  // background's own colour, leaving the word unseen.
  DONE: (p) => p.dim,
  CLOSED: (p) => p.dim,
};

const TONED_FIELDS = new Set(['tier', 'status', 'decision', 'pass']);

/**
 * `text` (the row's `field` as shown) in the colour its field and value call for, if any. `today`
 * (YYYY-MM-DD, local) tells an open obligation past its due date.
 */
export function colorize(paint: ChalkInstance, row: JsonObject, field: string, text: string, today?: string): string {
  const value = row[field];
  // Own keys only: a status of `toString` or `__proto__` must not reach Object.prototype.
  if (TONED_FIELDS.has(field) && typeof value === 'string' && Object.hasOwn(TONES, value))
    return TONES[value]!(paint)(text);
  // Past due: the closing day has passed, by the API's own count of days to it. The day is marked
  // too, as at 80 columns it is shown where runwayDays is left out (docs/output.md).
  if ((field === 'runwayDays' || field === 'closesOn') && isPastDue(row)) return paint.red(text);
  // An obligation still open after its due date: the date, which says so without colour too.
  if (field === 'dueOn' && row.status === 'OPEN' && isOverdue(row.dueOn, today)) return paint.red(text);
  return text;
}

/** A date (its first ten characters, YYYY-MM-DD) before today. */
function isOverdue(due: JsonValue | undefined, today: string | undefined): boolean {
  return today !== undefined && typeof due === 'string' && /^\d{4}-\d{2}-\d{2}/.test(due) && due.slice(0, 10) < today;
}

function isPastDue(row: JsonObject): boolean {
  const days = row.runwayDays;
  return isNumeric(days) && isNegative(String(days));
}

export function isNumeric(value: JsonValue | undefined): boolean {
  return typeof value === 'number' || isJsonNumber(value);
}

/** By the digits: Number() throws on what a double cannot hold, and -1e-400 parses as -0. */
function isNegative(lexeme: string): boolean {
  return /^-0*\.?0*[1-9]/.test(lexeme);
}
