// Hostile data for property tests: what public notices and careless systems put in text fields.
import fc from 'fast-check';
import { JsonNumber, type JsonObject, type JsonValue } from '../../src/core/json.js';

/** Single characters that break naive output: controls, escapes, bidi, separators, surrogates. */
const nasty = fc.constantFrom(
  '\u0000',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009b',
  '\u009d',
  '\u009f',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\\',
  '"',
  "'",
  ',',
  ';',
  '=',
  '+',
  '-',
  '@',
  '\uff1d',
  '\uff0b',
  '\uff0d',
  '\uff20',
  'é',
  '王',
  '😀',
  '\u0301',
  ' ',
);

/** Sequences that would act on a terminal if sent raw. */
const sequences = fc.constantFrom(
  '\u001b[31m',
  '\u001b[0m',
  '\u001b[2J',
  '\u001b[1;1H',
  '\u001bc',
  '\u001b]8;;https://evil.example/\u0007',
  '\u001b]8;;\u0007',
  '\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  '\u001b]0;title\u001b\\',
  '\u009b31m',
  '\u009d0;x\u009c',
);

/**
 * Any code points, lone surrogates included: what fast-check's `unit: 'binary'` gives. Not that
 * unit itself: the first string arbitrary made with it builds a table of all 1.1 million code
 * points (~2 s and ~150 MB in each worker that loads this file).
 */
export const binaryText = (constraints: { maxLength?: number } = {}) =>
  fc.string({
    ...constraints,
    unit: fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  });

export const hostileText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(nasty, sequences, fc.string({ maxLength: 4 })), { maxLength: 12 })
      .map((parts) => parts.join('')),
  },
  { weight: 2, arbitrary: binaryText({ maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\uff1d'), fc.string({ maxLength: 10 }))
      .map(([a, b]) => a + b),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '=HYPERLINK("http://x","y")',
      '-2+3',
      '@SUM(A1)',
      '+27 82 555 0134',
      '"quoted", with comma',
      'line\nbreak',
      'tab\tin',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 500, maxLength: 3000 }) },
);

/** JSON number text, as an API may write it (1.50, -0, 1e21, 20 digits). */
export const numberLexeme = fc.stringMatching(/^-?(0|[1-9]\d{0,24})(\.\d{1,6})?([eE][+-]?\d{1,3})?$/);

/** A number as parseJson gives it: plain when a double keeps its text, else a JsonNumber. */
export const jsonNumber = numberLexeme.map(
  (lexeme): JsonValue => (String(Number(lexeme)) === lexeme ? Number(lexeme) : new JsonNumber(lexeme)),
);

export const cellValue: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: jsonNumber },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 4 }) },
);

export const FIELDS = ['a', 'b', 'c', 'd'] as const;

export const rows: fc.Arbitrary<JsonObject[]> = fc.array(
  fc.record(
    Object.fromEntries(FIELDS.map((f) => [f, cellValue])) as Record<(typeof FIELDS)[number], fc.Arbitrary<JsonValue>>,
  ),
  { maxLength: 8 },
);

/** Any JSON value, nested, with hostile strings and exact-number lexemes. */
export const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    jsonNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** No raw C0 (but newline), DEL, C1, bidi control, line/paragraph separator or lone surrogate. */
export const RAW_UNSAFE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
