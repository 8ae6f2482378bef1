// How many columns text takes on a terminal: the one rule for tables, the record view and export
// progress alike. string-width's, as cli-table3 measures (so a cell cut here fits its column
// there): East Asian wide characters and emoji count two, combining marks and ANSI codes none.
import cliTableUtils from 'cli-table3/src/utils.js';

/** Printable ASCII: one column a character, no escape sequence, no grapheme of two. */
const ASCII = /^[\x20-\x7e]*$/;

export function displayWidth(text: string): number {
  // string-width costs ~20 µs a call; most API text is ASCII, and takes none of that.
  return ASCII.test(text) ? text.length : cliTableUtils.strlen(text);
}

/**
 * The grapheme segmenter, made on first use: making one loads ICU's break rules (~20 ms), which
 * ASCII text (most of the API's, and every export progress line) never needs.
 */
let segmenter: Intl.Segmenter | undefined;
function graphemesOf(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

/**
 * Text cut to `columns` display columns, ending in `…` when cut. Cut by grapheme, so a character
 * and its combining marks stay together, in one pass (cli-table3's own truncation drops a
 * character at a time and measures again: quadratic, and a column off around combining marks).
 */
export function shorten(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  if (ASCII.test(text)) return `${wholeEscapes(text.slice(0, Math.max(0, columns - 1)))}…`;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemesOf(text)) {
    const next = displayWidth(segment);
    if (used + next > columns - 1) break;
    kept += segment;
    used += next;
  }
  return `${wholeEscapes(kept)}…`;
}

/** The start of an escape that sanitize writes (`\u202e`, `\x1b`, `\n`), cut before its end. */
const CUT_ESCAPE = /\\(?:u[0-9a-f]{0,3}|x[0-9a-f]?)?$/;

/** Text cut before the end: an escape it ends inside goes whole, rather than leave `\u2…`. */
function wholeEscapes(kept: string): string {
  return kept.replace(CUT_ESCAPE, '');
}

/**
 * Text broken into lines of at most `columns` display columns: at spaces where it can be, inside
 * a word (by grapheme) only when the word alone is wider than a line. Spaces at a break are
 * dropped; others are kept. Linear in the text: each word is measured once.
 */
export function wrap(text: string, columns: number): string[] {
  const limit = Math.max(1, columns);
  const lines: string[] = [];
  let line = '';
  let used = 0;
  let first = true;
  for (const word of text.split(' ')) {
    const size = displayWidth(word);
    if (!first && used + 1 + size <= limit) {
      line += ` ${word}`;
      used += 1 + size;
      continue;
    }
    if (!first) {
      lines.push(line);
      line = '';
      used = 0;
    }
    first = false;
    if (size <= limit) {
      line = word;
      used = size;
      continue;
    }
    if (ASCII.test(word)) {
      // A character a column: cut in slices (Intl.Segmenter costs ~40 µs a character).
      for (let at = 0; at < word.length; at += limit) lines.push(word.slice(at, at + limit));
      line = lines.pop()!;
      used = line.length;
      continue;
    }
    for (const { segment } of graphemesOf(word)) {
      const next = displayWidth(segment);
      if (used + next > limit && used > 0) {
        lines.push(line);
        line = '';
        used = 0;
      }
      line += segment;
      used += next;
    }
  }
  lines.push(line);
  return lines;
}

/** Trailing padding off, in linear time (`/ +$/gm` backtracks through every run of spaces). */
export function trimSpacesEnd(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') end--;
  return line.slice(0, end);
}
