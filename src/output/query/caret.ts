// The expression of a --query syntax error with a caret under the place (src/output/query/
// syntax.ts finds it). Its own module: measuring display width loads cli-table3's utilities,
// which only an error should cost a query printed as JSON.
import { sanitize } from '../../core/sanitize.js';
import { displayWidth, shorten } from '../width.js';

/** How much of the expression is shown on each side of the caret, in display columns. */
const CONTEXT = 36;

/**
 * Two lines: the expression as a terminal can show it (control characters escaped, a long one
 * cut around the place) and a caret under the place, measured in display columns.
 */
export function caretLines(expression: string, offset: number): [string, string] {
  let before = sanitize(expression.slice(0, offset));
  if (displayWidth(before) > CONTEXT) before = `…${tail(before, CONTEXT - 1)}`;
  const after = shorten(sanitize(expression.slice(offset)), CONTEXT);
  return [`  ${before}${after}`, `  ${' '.repeat(displayWidth(before))}^`];
}

/** The end of `text` that fits in `columns` display columns. */
function tail(text: string, columns: number): string {
  const chars = [...text];
  let width = 0;
  let from = chars.length;
  while (from > 0 && width + displayWidth(chars[from - 1]!) <= columns) width += displayWidth(chars[--from]!);
  return chars.slice(from).join('');
}
