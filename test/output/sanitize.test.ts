// Terminal-safe text: sanitize (tables, stderr), escapeTsv/unescapeTsv, sanitizeJson.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeTsv, sanitize, sanitizeJson, unescapeTsv } from '../../src/core/sanitize.js';
import { unsafeChars } from '../helpers/checked.js';

/** Any UTF-16 code unit (lone surrogates included), weighted towards the awkward ones. */
const unit = fc.oneof(
  fc.constantFrom(
    '\\',
    '\t',
    '\n',
    '\r',
    '\u0000',
    '\u001b',
    '\u007f',
    '\u0085',
    '\u009b',
    '\u202e',
    '\u2066',
    '\u2028',
    '\ud83d',
    '\ude00',
    '😀',
    'x',
    '\\x1b',
    '\\u00',
  ),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const text = fc.string({ unit, maxLength: 40 });

describe('sanitize', () => {
  it.each([
    ['\u001b[31mred\u001b[0m', '\\x1b[31mred\\x1b[0m'],
    ['\u001b]8;;https://evil.example/\u0007x\u001b]8;;\u0007', '\\x1b]8;;https://evil.example/\\x07x\\x1b]8;;\\x07'],
    ['a\tb\nc\rd', 'a\\tb\\nc\\rd'],
    ['\u0000\u0008\u007f', '\\x00\\x08\\x7f'],
    ['\u0085\u009b2J', '\\x85\\x9b2J'],
    ['\u202eevil\u202c \u2066x\u2069 \u061c \u200f', '\\u202eevil\\u202c \\u2066x\\u2069 \\u061c \\u200f'],
    ['line\u2028sep\u2029', 'line\\u2028sep\\u2029'],
    ['lone \ud800 and \udc00', 'lone \\ud800 and \\udc00'],
    ['王氏建材 Zoë Ἀλέξανδρος 😀 back\\slash', '王氏建材 Zoë Ἀλέξανδρος 😀 back\\slash'],
  ])('%j -> %j', (raw, shown) => {
    expect(sanitize(raw)).toBe(shown);
  });

  it('never lets an unsafe character through', () => {
    fc.assert(fc.property(text, (raw) => unsafeChars(sanitize(raw)).length === 0 && !sanitize(raw).includes('\n')));
  });
});

describe('escapeTsv / unescapeTsv', () => {
  it('escapes backslash first, so escapes are reversible', () => {
    expect(escapeTsv('C:\\temp\tx\\n\u001b')).toBe('C:\\\\temp\\tx\\\\n\\x1b');
    expect(unescapeTsv('C:\\\\temp\\tx\\\\n\\x1b')).toBe('C:\\temp\tx\\n\u001b');
  });

  it('round-trips any text, and keeps a field on one line without tabs', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const field = escapeTsv(raw);
        return unescapeTsv(field) === raw && unsafeChars(field).length === 0 && !/[\t\n\r]/.test(field);
      }),
    );
  });
});

describe('sanitizeJson', () => {
  it('escapes what JSON.stringify leaves raw, keeping the same JSON', () => {
    expect(sanitizeJson(JSON.stringify({ d: 'a\u007fb\u0085c\u202ed\u001b' }))).toBe(
      '{"d":"a\\u007fb\\u0085c\\u202ed\\u001b"}',
    );
    fc.assert(
      fc.property(text, (raw) => {
        const json = sanitizeJson(JSON.stringify({ detail: raw }));
        return (JSON.parse(json) as { detail: string }).detail === raw && unsafeChars(json).length === 0;
      }),
    );
  });
});
