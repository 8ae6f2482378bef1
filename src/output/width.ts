// How many columns text takes on a terminal: the one rule for tables, the record view and export
// progress alike. string-width's, as cli-table3 measures (so a cell cut here fits its column
// there): East Asian wide characters and emoji count two, combining marks and ANSI codes none.
import cliTableUtils from 'cli-table3/src/utils.js';

export function displayWidth(text: string): number {
  return cliTableUtils.strlen(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Text cut to `columns` display columns, ending in `…` when cut. Cut by grapheme, so a character
 * and its combining marks stay together, in one pass (cli-table3's own truncation drops a
 * character at a time and measures again: quadratic, and a column off around combining marks).
 */
export function shorten(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const next = displayWidth(segment);
    if (used + next > columns - 1) break;
    kept += segment;
    used += next;
  }
  return `${kept}…`;
}
