// JSON that keeps numbers exactly as the API wrote them (`1250000.00` stays `1250000.00`, a
// 20-digit id keeps its digits). Every body cdata reads goes through parseJson, and json/ndjson
// output goes through stringifyJson, so `-o json` prints what the API returned.
//
// Numbers whose text survives a round trip through a double (12, -3, 0.5) are plain numbers;
// the others (1.50, 1e21, 12345678901234567890) are LosslessNumber objects holding their text.
// Both directions run on the native JSON functions: the few numbers a double would change travel
// through them as marked strings. lossless-json, a JavaScript parser, is ~40x slower on a 200-row
// answer (8 ms against 0.2 ms), and remains the fallback when a real string looks like a marker.
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json';

export { LosslessNumber as JsonNumber, isLosslessNumber as isJsonNumber };

export type JsonValue = string | number | boolean | null | LosslessNumber | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Marks a number's text inside a string: NUL cannot appear raw in JSON, only as `\u0000`. */
const MARK = '\u0000#';
const MARK_IN_JSON = '\\u0000#';
/** A JSON string (skipped whole, so digits inside strings are never taken for numbers) or a number. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

export function parseJson(text: string): JsonValue {
  let marked = false;
  const rewritten = text.replace(TOKEN, (token) => {
    if (token.charCodeAt(0) === 0x22 || String(Number(token)) === token) return token;
    marked = true;
    return `"${MARK_IN_JSON}${token}"`;
  });
  if (!marked) return JSON.parse(text) as JsonValue;
  if (text.includes(MARK_IN_JSON)) return parse(text, null, (lexeme) => new LosslessNumber(lexeme)) as JsonValue;
  let value: JsonValue;
  try {
    value = JSON.parse(rewritten) as JsonValue;
  } catch {
    return JSON.parse(text) as JsonValue; // throws, with positions in the text as received
  }
  return restoreNumbers(value);
}

function restoreNumbers(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.startsWith(MARK) ? new LosslessNumber(value.slice(MARK.length)) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restoreNumbers(value[i]!);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) value[key] = restoreNumbers(value[key]!);
  }
  return value;
}

export function stringifyJson(value: unknown, indent?: number): string {
  let marked = false;
  let collides = false;
  const text = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (isLosslessNumber(item)) {
        marked = true;
        return `${MARK}${item.value}`;
      }
      if (typeof item === 'string' && item.startsWith(MARK)) collides = true;
      return item;
    },
    indent,
  );
  if (text === undefined) return 'null';
  if (collides) return stringify(value, null, indent) ?? 'null';
  return marked ? text.replace(/"\\u0000#([^"]*)"/g, '$1') : text;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}
