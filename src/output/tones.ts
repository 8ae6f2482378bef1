// Colour for the values a person scans for, in tables and the record view alike: tier, status,
// decision and a check's result by value, a negative runway in red.
import type { ChalkInstance } from 'chalk';
import { isJsonNumber } from '../core/json.js';
import type { JsonValue } from '../core/json-value.js';

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

/** `text` (the value as shown) in the colour its field and value call for, if any. */
export function colorize(paint: ChalkInstance, field: string, value: JsonValue | undefined, text: string): string {
  // Own keys only: a status of `toString` or `__proto__` must not reach Object.prototype.
  if (TONED_FIELDS.has(field) && typeof value === 'string' && Object.hasOwn(TONES, value)) return TONES[value]!(paint)(text);
  if (field === 'runwayDays' && isNumeric(value) && isNegative(String(value))) return paint.red(text);
  return text;
}

export function isNumeric(value: JsonValue | undefined): boolean {
  return typeof value === 'number' || isJsonNumber(value);
}

/** By the digits: Number() throws on what a double cannot hold, and -1e-400 parses as -0. */
function isNegative(lexeme: string): boolean {
  return /^-0*\.?0*[1-9]/.test(lexeme);
}
