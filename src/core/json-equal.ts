// Whether two JSON values are the same value, as change detection compares an export's rows with
// the previous ones (docs/exports.md, "What counts as a change"): numbers by their value, exactly
// (`1250000.00` is `1250000.0`, and two 20-digit ids differ by their last digit, however a double
// would round them); arrays by value, item by item, in order; objects by their keys and values,
// in any order; strings, booleans and null as themselves.
import { isJsonNumber, isJsonObject } from './json.js';
import type { JsonValue } from './json-value.js';

/** Recursive, and safe so: every value cdata holds was parsed at most MAX_DEPTH deep (json.ts). */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (isNumber(a) || isNumber(b)) return isNumber(a) && isNumber(b) && sameNumber(String(a), String(b));
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

/**
 * Whether two number lexemes are the same value, exactly (`1.50` and `15e-1`; never two 20-digit
 * ids a double rounds alike). The same lexeme is the same number (nearly always so, from one
 * export to the next): decimal() only when they differ.
 */
export function sameNumber(a: string, b: string): boolean {
  return a === b || decimal(a) === decimal(b);
}

function isNumber(value: JsonValue | undefined): boolean {
  return typeof value === 'number' || isJsonNumber(value);
}

const NUMBER = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A number's lexeme in one form per value: its significant digits and a power of ten
 * (`1.50`, `15e-1` and `0.0015E3` are all `15e-1`; every zero is `0`). The exponent is a BigInt:
 * `1e999999999999999999` is a valid lexeme, and must not compare equal to `1e1000000000000000000`.
 */
function decimal(lexeme: string): string {
  const match = NUMBER.exec(lexeme);
  if (!match) return lexeme; // not a JSON number (never so after parsing): equal only to itself
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  let power = BigInt(exponent) - BigInt(fraction.length);
  const zeros = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - zeros);
  power += BigInt(zeros);
  return `${sign}${digits}e${power}`;
}
