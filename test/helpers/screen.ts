// What a terminal shows once it has received `text`: the lines left on the screen after every
// carriage return, line clear and cursor move has done its work. Tests of what cdata draws in
// place (the wait spinner, export progress) compare this, the screen a person reads, rather
// than the bytes that drew it. Colours are dropped; lines are not wrapped.

import { expect } from 'vitest';

/** An escape sequence (CSI), a line feed, a carriage return, or one character. */
const TOKEN = /\u001b\[([\d;]*)([A-Za-z])|\u001b|[^]/gu;

export function screen(text: string): string {
  const rows: string[][] = [];
  let row = 0;
  let column = 0;
  const line = () => (rows[row] ??= []);
  for (const [token, count = '', command] of text.matchAll(TOKEN)) {
    if (token === '\u001b') throw new Error(`an escape the test screen does not know: ${JSON.stringify(text)}`);
    if (command === undefined) {
      if (token === '\r') column = 0;
      else if (token === '\n') [row, column] = [row + 1, 0];
      else line()[column++] = token;
    } else if (command === 'A') row = Math.max(0, row - Number(count || 1));
    else if (command === 'K' && count === '2') rows[row] = [];
    else if (command === 'K' || command === 'J') {
      line().length = Math.min(line().length, column);
      if (command === 'J') rows.length = row + 1;
    } else if (command !== 'm') throw new Error(`the test screen does not know ESC[${count}${command}`);
  }
  return Array.from(rows, (cells) =>
    Array.from(cells ?? [], (cell) => cell ?? ' ')
      .join('')
      .trimEnd(),
  )
    .join('\n')
    .replace(/\n+$/, '');
}

/** One frame of the spinner (src/output/spinner.ts), as a pattern. */
export const SPIN = '[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]';

/** Back to the start of the line and clear it: how each redraw in place begins. */
export const CLEAR = '\r\u001b[2K';

/**
 * Each state of a line drawn in place: what follows each CLEAR but the last, which clears it for
 * good (what follows that is the command's own output). A redrawn line holds no line break.
 */
export function drawn(text: string): string[] {
  const parts = text.split(CLEAR).slice(1, -1);
  for (const part of parts) expect(part, 'a redrawn line holds no line break').not.toMatch(/[\r\n]/);
  return parts;
}
