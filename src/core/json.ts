// JSON that keeps numbers exactly as the API wrote them (`1250000.00` stays `1250000.00`, a
// 20-digit id keeps its digits). Every body cdata reads goes through parseJson, and json/ndjson
// output goes through stringifyJson, so `-o json` prints what the API returned.
//
// Numbers whose text survives a round trip through a double (12, -3, 0.5) are plain numbers;
// the others (1.50, 1e21, 12345678901234567890) are LosslessNumber objects holding their text.
// Both directions run on the native JSON functions: the few numbers a double would change travel
// through them as marked strings. lossless-json, a JavaScript parser, is ~40x slower on a 200-row
// answer (8 ms against 0.2 ms); its stringify remains the fallback when a real string holds a mark.
import { LosslessNumber, isLosslessNumber, stringify } from 'lossless-json';
import { scanJson, type JsonLimits, type JsonScan } from './json-scan.js';
import type { ExactNumber, JsonObject, JsonValue } from './json-value.js';

export { JsonLimitError } from './json-scan.js';

export type { ExactNumber, JsonObject, JsonValue } from './json-value.js';

/** A number kept as written: `new JsonNumber('1250000.00')`. */
export { LosslessNumber as JsonNumber };

/** Whether a value is a number kept as written. */
export const isJsonNumber: (value: unknown) => value is ExactNumber = isLosslessNumber;

/**
 * Marks a number's text inside a string: NUL cannot appear raw in JSON, only as `\u0000`. A
 * string of the text's own that starts with NUL gets a second one (`\u0000\u0000`), taken off
 * again when the numbers are restored: after the rewrite, NUL# starts only marks.
 */
const MARK = '\u0000#';
const MARK_IN_JSON = '\\u0000#';
const NUL_IN_JSON = '\\u0000';

/**
 * The limits every parse applies (json-scan.ts checks them before anything is built). Deeper
 * nesting than MAX_DEPTH is refused, so the recursive steps after the scan (restoreNumbers,
 * JSON.stringify, cellText) never approach a stack limit; the API's records are three levels
 * deep. MAX_VALUES bounds the memory a body can ask for: a value as small as `{}` costs ~100
 * bytes once parsed, so 10 MiB of them would take 1.8 GB (docs/limits.md).
 */
export const MAX_DEPTH = 64;
export const MAX_VALUES = 200_000;

/**
 * `text` parsed, numbers kept as written. `maxItems` refuses a top-level array longer than
 * that (a list with more rows than the API returns) before it is parsed. Throws SyntaxError
 * for what is not JSON and JsonLimitError for what is past a limit. Linear in the text's length.
 */
export function parseJson(text: string, limits: Partial<JsonLimits> = {}): JsonValue {
  const scan = scanJson(text, { maxDepth: MAX_DEPTH, maxValues: MAX_VALUES, ...limits });
  if (scan.inexact.length === 0) return JSON.parse(text) as JsonValue;
  let value: JsonValue;
  try {
    value = JSON.parse(rewritten(text, scan)) as JsonValue;
  } catch {
    return JSON.parse(text) as JsonValue; // throws, with positions in the text as received
  }
  return restoreNumbers(value);
}

/**
 * Why JSON.parse refused `text`, without V8's quote of it: for an unexpected token V8 quotes up to
 * ten characters either side, and the text may hold a key (a config file; an answer that echoes
 * one), whose end no redaction would know. A position is said as a line and column.
 */
export function jsonSyntaxProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  // `… in JSON at position 7`, `… after JSON at position 8`, Node 22 on adding `(line 1 column 9)`.
  const at = / (in|after) JSON at position (\d+)/.exec(message);
  if (at) {
    const position = Number(at[2]);
    // Lines end as V8 counts them: LF, CR LF, or a CR alone.
    const breaks = /\r\n?|\n/g;
    let line = 1;
    let lineStart = 0;
    for (let found = breaks.exec(text); found && found.index < position; found = breaks.exec(text)) {
      line += 1;
      lineStart = found.index + found[0].length;
    }
    const where = `at line ${line}, column ${position - lineStart + 1}`;
    return `${message.slice(0, at.index)}${at[1] === 'after' ? ' after JSON' : ''} ${where}`;
  }
  // `Unexpected token 'x', ..."jfpY","o":x}}" is not valid JSON`: the words before the quote.
  const quote = message.search(/, (?:\.\.\.)?"/);
  if (quote !== -1) return message.slice(0, quote);
  return message.includes('"') ? 'a syntax error' : message;
}

/**
 * The text with each inexact lexeme written as a marked string, and a second NUL at the start of
 * each string that starts with one; built in one pass.
 */
function rewritten(text: string, { inexact, nulStrings }: JsonScan): string {
  const parts: string[] = [];
  let from = 0;
  let n = 0;
  let q = 0;
  while (n < inexact.length || q < nulStrings.length) {
    if (q < nulStrings.length && (n >= inexact.length || nulStrings[q]! < inexact[n]!)) {
      const quote = nulStrings[q++]!;
      parts.push(text.slice(from, quote + 1), NUL_IN_JSON);
      from = quote + 1;
    } else {
      const [start, end] = [inexact[n]!, inexact[n + 1]!];
      n += 2;
      parts.push(text.slice(from, start), `"${MARK_IN_JSON}`, text.slice(start, end), '"');
      from = end;
    }
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/**
 * Marked strings back to numbers, doubled NULs halved, in place. Recursive, and safe so: the scan
 * refused anything nested deeper than MAX_DEPTH. Plain loops: this runs once, mostly before the
 * JIT has looked at it, over every value of the answer.
 */
function restoreNumbers(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]!;
      if (typeof item === 'string' ? item.charCodeAt(0) === 0 : typeof item === 'object' && item !== null)
        value[i] = restoreNumbers(item);
    }
    return value;
  }
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 0) return value;
    return value.startsWith(MARK) ? new LosslessNumber(value.slice(MARK.length)) : value.slice(1);
  }
  if (typeof value !== 'object' || value === null || isJsonNumber(value)) return value;
  let renamed = false;
  for (const key in value) {
    if (key.charCodeAt(0) === 0) {
      // Only a number where a key belongs ({1.50: …}, not JSON) becomes a key with a mark.
      if (key.startsWith(MARK))
        throw new SyntaxError(`a number (${key.slice(MARK.length)}) where an object key belongs`);
      renamed = true;
    }
    const item = value[key]!;
    if (typeof item === 'string' ? item.charCodeAt(0) === 0 : typeof item === 'object' && item !== null)
      setOwn(value, key, restoreNumbers(item));
  }
  if (!renamed) return value;
  // A key that had its NUL doubled: rebuilt, so the keys keep their order.
  const rebuilt: JsonObject = {};
  for (const key in value) setOwn(rebuilt, key.charCodeAt(0) === 0 ? key.slice(1) : key, value[key]!);
  return rebuilt;
}

export function stringifyJson(value: unknown, indent?: number): string {
  let marked = false;
  let collides = false;
  const text = JSON.stringify(
    value,
    (key, item: unknown) => {
      // NUL# in a text of the value's own (`"x\"\u0000#1"` in JSON), a key's included (whatever
      // its value: a number's too), could be taken for a mark.
      if (key.includes(MARK) || (typeof item === 'string' && item.includes(MARK))) collides = true;
      if (isLosslessNumber(item)) {
        marked = true;
        return `${MARK}${item.value}`;
      }
      return item;
    },
    indent,
  );
  if (text === undefined) return 'null';
  if (marked && collides) return stringify(value, null, indent) ?? 'null';
  return marked ? text.replace(/"\\u0000#([^"]*)"/g, '$1') : text;
}

/**
 * `object[key] = item`, except that a key named `__proto__` (JSON.parse makes it an own key)
 * stays an own key: assigned, it would set the object's prototype instead.
 */
export function setOwn(object: JsonObject, key: string, item: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value: item, writable: true, enumerable: true, configurable: true });
  else object[key] = item;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}
