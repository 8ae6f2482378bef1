// The API's JSON as a query sees it, and the query's result as cdata prints it. cdata keeps a
// number a double would change (`1250000.00`, a 20-digit id) as its text (src/core/json.ts);
// JMESPath compares and adds JavaScript numbers. So the query runs over a copy whose numbers are
// doubles, and its result is mapped back:
//
// - a record (or any part of the answer) that comes out whole is the API's own again, every
//   number in it as written;
// - a number comes back as the API wrote it when the answer writes that value one way only
//   (`1250000.00` and nowhere `1250000` or `1250000.0`); otherwise it prints as the double's
//   shortest text, as a number the query computed does.
//
// The copy's objects have no prototype, so `toString` or `constructor` in a query is a missing
// field (null), as it is in JSON, not a function of JavaScript's.
import type { JSONValue } from '@jmespath-community/jmespath';
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
  /** Each double the answer holds: the one text it is written with, or null for several. */
  const texts = new Map<number, string | null>();
  const note = (double: number, text: string) =>
    texts.set(double, texts.has(double) && texts.get(double) !== text ? null : text);

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
      const text = texts.get(value);
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
