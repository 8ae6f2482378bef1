// Data for a terminal that is longer than its screen goes through a pager, as git and gh do:
// the configured one (CDATA_PAGER, the profile's `pager`, PAGER: resolved in src/config), else
// `less -FRX` when it is installed. Empty (or `cat`) means none. Loaded only when stdout is a
// terminal.
import type { Io } from '../io/index.js';
import { onPath } from '../io/pager.js';

export const DEFAULT_PAGER = 'less -FRX';

const SGR = /\u001b\[[0-9;]*m/g;

/** Writes `text` to stdout's terminal, through the pager when it is longer than the screen. */
export async function showPaged(io: Io, text: string, configured: string | undefined): Promise<void> {
  const command = (await longerThanScreen(io, text)) ? pagerCommand(io, configured) : undefined;
  // A pager that could not be run, or that failed, may have shown nothing: the text comes here.
  if (command === undefined || !(await io.runPager(command, text))) io.stdout.write(text);
}

/** The command to run, or undefined for none. */
function pagerCommand(io: Io, configured: string | undefined): string | undefined {
  if (configured === undefined) return onPath('less', io.env) ? DEFAULT_PAGER : undefined;
  const command = configured.trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/** Text that may hold a character two columns wide (CJK, emoji): measured as tables measure it. */
const MAYBE_WIDE = /[^\u0000-\u02ff]/;

/**
 * Whether `text` needs more rows than the screen has, less one for the shell's prompt after it.
 * A line wider than the terminal takes more than one row: counted in characters, or in columns
 * where a line may hold wide ones (45 CJK characters are 90 columns). Unknown height (no rows, no
 * LINES): never.
 */
async function longerThanScreen(io: Io, text: string): Promise<boolean> {
  const screen = io.stdout.rows || Number(io.env.LINES) || 0;
  if (screen <= 0) return false;
  const columns = io.stdout.columns || Number(io.env.COLUMNS) || Infinity;
  let width: ((line: string) => number) | undefined;
  let rows = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    // Colour codes take no room; they are the only escapes in what cdata prints (API text is escaped).
    let length = stop - start;
    if (columns !== Infinity) {
      const line = text.slice(start, stop);
      if (MAYBE_WIDE.test(line)) {
        width ??= (await import('./width.js')).displayWidth;
        length = width(line.replace(SGR, ''));
      } else if (length > columns) length = line.replace(SGR, '').length;
    }
    rows += Math.max(1, Math.ceil(length / columns));
    if (rows >= screen) return true;
    if (end < 0) break;
    start = end + 1;
  }
  return false;
}
