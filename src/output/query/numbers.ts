// The API's JSON as a query sees it, and the query's result as cdata prints it. cdata keeps a
// number a double would change (`1250000.00`, a 20-digit id) as its text (src/core/json.ts);
// JMESPath compares and adds JavaScript numbers. So the query runs over a copy whose numbers are
// doubles, and its result is mapped back:
//
// - a record (or any part of the answer) that comes out whole is the API's own again, every
//   number in it as written;
// - a number comes back as the API wrote it when the answer writes that value one way only
//   (`1250000.00` and nowhere `1250000` or `1250000.0`); when it writes the same value several
//   ways, it prints as the double's shortest text, as a number the query computed does;
// - a double that stands for several different numbers of the answer (two 20-digit ids a double
//   rounds alike, `1e400` and `2e400`, both past its range) cannot be told back: exit 2, never
//   a rounded number or a null printed as if it were the answer's.
//
// The copy's objects have no prototype, so `toString` or `constructor` in a query is a missing
// field (null), as it is in JSON, not a function of JavaScript's.
import type { JSONValue } from '@jmespath-community/jmespath';
import { UsageError } from '../../core/errors.js';
import { sameNumber } from '../../core/json-equal.js';
import { isJsonNumber, JsonNumber, setOwn } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../core/json-value.js';

export interface QueryInput {
  /** What the query reads. */
  value: JSONValue;
  /** The result in cdata's terms: records and numbers as the API wrote them. */
  restore(result: JSONValue): JsonValue;
}

export function queryInput(data: JsonValue): QueryInput {
  const originals = new Map<object, JsonValue>();
  /**
   * Each double the answer holds: the one text it is written with (`shown`, null when the same
   * value is written several ways), or two different numbers it stands for (`several`).
   */
  const texts = new Map<number, { first: string; shown: string | null; several?: [string, string] }>();
  const note = (double: number, text: string) => {
    const seen = texts.get(double);
    if (seen === undefined) texts.set(double, { first: text, shown: text });
    else if (seen.several === undefined && seen.shown !== text) {
      if (sameNumber(seen.first, text)) seen.shown = null;
      else seen.several = [seen.first, text];
    }
  };

  const copy = (value: JsonValue): JSONValue => {
    if (typeof value === 'number') {
      note(value, String(value));
      return value;
    }
    if (isJsonNumber(value)) {
      const double = Number(value.value);
      note(double, value.value);
      return double;
    }
    if (value === null || typeof value !== 'object') return value;
    const copied = Array.isArray(value) ? value.map(copy) : copyObject(value);
    originals.set(copied, value);
    return copied;
  };
  const copyObject = (object: JsonObject): Record<string, JSONValue> => {
    const copied: Record<string, JSONValue> = Object.create(null);
    for (const key of Object.keys(object)) copied[key] = copy(object[key]!);
    return copied;
  };

  const restore = (value: unknown): JsonValue => {
    if (typeof value === 'number') {
      const seen = texts.get(value);
      if (seen?.several) throw severalNumbers(seen.several);
      const text = seen?.shown;
      return text === undefined || text === null || text === String(value) ? value : new JsonNumber(text);
    }
    if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
    if (typeof value !== 'object') return null; // not JSON (the library's own values): as JSON would print it
    // A record, a list or any part of the answer that comes out unchanged (the library builds
    // new values and never changes the ones it is given) is the answer's own again.
    const original = originals.get(value);
    if (original !== undefined) return original;
    if (Array.isArray(value)) return value.map(restore);
    const rebuilt: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(rebuilt, key, restore((value as Record<string, unknown>)[key]));
    return rebuilt;
  };
  return { value: copy(data), restore };
}

function severalNumbers([a, b]: [string, string]): UsageError {
  return new UsageError(
    `--query: the result holds a number that stands for several of the answer's (${a} and ${b}, which a double cannot tell apart): printed, it would be neither`,
    {
      hint: 'Keep the records whole: a filter such as [?amount > `100`] passes them through exactly as the API wrote them.',
    },
  );
}
