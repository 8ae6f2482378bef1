// One pass over JSON text before JSON.parse sees it, in time linear in its length, whatever the
// text is (untrusted: answer bodies, error bodies, webhook bodies). It finds what parseJson needs
// (the number lexemes a double would change) and refuses, before anything is built in memory,
// text nested deeper than the recursive steps after it can take, or holding more values than
// memory should be spent on. It does not validate: JSON.parse does, after it.
//
// Hand-written rather than a regex: the regex it replaces (`"(?:[^"\\]|\\.)*"|-?\d+…`) restarted
// at every quote of an unterminated string, quadratic in its length (a 1 MB error body of `\"`
// pairs kept cdata busy for minutes, deaf to Ctrl-C).

export interface JsonLimits {
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth: number;
  /** Most values (strings, object keys included, numbers, literals, arrays, objects) accepted. */
  maxValues: number;
  /** Most elements of a top-level array accepted (a list's rows); undefined: no limit of its own. */
  maxItems?: number | undefined;
}

/** The text is past a limit: which one, and the figure; the message reads after "the body". */
export class JsonLimitError extends Error {
  constructor(
    readonly limit: keyof JsonLimits,
    readonly max: number,
  ) {
    super(
      limit === 'maxDepth'
        ? `is nested deeper than ${max} levels`
        : limit === 'maxValues'
          ? `holds more than ${max.toLocaleString('en')} values`
          : `holds more than ${max} items in its top-level array`,
    );
  }
}

export interface JsonScan {
  /** Start and end offsets, in pairs, of each number lexeme whose text a double would change. */
  inexact: number[];
  /** Where each string starting with `\u0000` (a NUL) opens: one that could pass for parseJson's mark. */
  nulStrings: number[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

const isDigit = (code: number) => code >= ZERO && code <= NINE;

export function scanJson(text: string, limits: JsonLimits): JsonScan {
  const inexact: number[] = [];
  const nulStrings: number[] = [];
  const length = text.length;
  const topIsArray = text.charCodeAt(firstToken(text)) === OPEN_ARRAY;
  const maxItems = topIsArray ? (limits.maxItems ?? Infinity) : Infinity;
  let depth = 0;
  let values = 0;
  let items = 0;
  // One loop with its steps written out: it runs once per answer, before the JIT has looked at
  // it, so every function call in it costs (a closure per value here once cost a third).
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    // What is neither a value nor a bracket: whitespace, `,`, `:`, or what JSON.parse will refuse
    // (a lone `-` among them).
    const isNumber = (code >= ZERO && code <= NINE) || (code === MINUS && isDigit(text.charCodeAt(i + 1)));
    if (
      !isNumber &&
      code !== QUOTE &&
      code !== OPEN_ARRAY &&
      code !== OPEN_OBJECT &&
      !(code >= LOWER_A && code <= LOWER_Z)
    ) {
      if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
      i++;
      continue;
    }
    // A value starts here; at depth 1 of a top-level array, an item too.
    if (++values > limits.maxValues) throw new JsonLimitError('maxValues', limits.maxValues);
    if (depth === 1 && ++items > maxItems) throw new JsonLimitError('maxItems', maxItems);
    if (code === QUOTE) {
      if (text.startsWith('\\u0000', i + 1)) nulStrings.push(i);
      i = stringEnd(text, i);
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limits.maxDepth) throw new JsonLimitError('maxDepth', limits.maxDepth);
      i++;
    } else if (isNumber) {
      const end = numberEnd(text, i);
      const lexeme = text.slice(i, end);
      if (String(Number(lexeme)) !== lexeme) inexact.push(i, end);
      i = end;
    } else {
      // true, false, null (or a wrong word, which JSON.parse will name)
      do i++;
      while (i < length && text.charCodeAt(i) >= LOWER_A && text.charCodeAt(i) <= LOWER_Z);
    }
  }
  return { inexact, nulStrings };
}

/**
 * Just past the string that opens at `quote`, or the text's length when it never closes. Quotes
 * are found with indexOf (native, and most of a body is strings); one is escaped when an odd run
 * of backslashes precedes it. Each run is counted once, back to the quote before it at most, so
 * the whole scan stays linear however the escapes are arranged.
 */
function stringEnd(text: string, quote: number): number {
  for (let at = text.indexOf('"', quote + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at + 1;
  }
  return text.length;
}

/** Where the text's first token starts: after JSON's four whitespace characters. */
function firstToken(text: string): number {
  let i = 0;
  for (
    let code = text.charCodeAt(0);
    code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
    code = text.charCodeAt(++i)
  );
  return i;
}

/**
 * Where the number lexeme starting at `start` (a digit, or a minus and a digit) ends, by JSON's
 * grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?. What follows it is JSON.parse's to judge.
 */
function numberEnd(text: string, start: number): number {
  let i = start;
  if (text.charCodeAt(i) === MINUS) i++;
  if (text.charCodeAt(i) === ZERO) i++;
  else while (isDigit(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) === DOT && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === LOWER_E || e === UPPER_E) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === PLUS || sign === MINUS) j++;
    if (isDigit(text.charCodeAt(j))) {
      i = j;
      while (isDigit(text.charCodeAt(i))) i++;
    }
  }
  return i;
}
