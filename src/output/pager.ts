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
  const command = longerThanScreen(io, text) ? pagerCommand(io, configured) : undefined;
  // A pager that could not be run, or that failed, may have shown nothing: the text comes here.
  if (command === undefined || !(await io.runPager(command, text))) io.stdout.write(text);
}

/** The command to run, or undefined for none. */
function pagerCommand(io: Io, configured: string | undefined): string | undefined {
  if (configured === undefined) return onPath('less', io.env) ? DEFAULT_PAGER : undefined;
  const command = configured.trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/**
 * Whether `text` needs more rows than the screen has, less one for the shell's prompt after it.
 * A line wider than the terminal takes more than one row (measured in UTF-16 units: close
 * enough to decide whether to page). Unknown height (no rows, no LINES): never.
 */
function longerThanScreen(io: Io, text: string): boolean {
  const screen = io.stdout.rows || Number(io.env.LINES) || 0;
  if (screen <= 0) return false;
  const columns = io.stdout.columns || Number(io.env.COLUMNS) || Infinity;
  let rows = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    // Colour codes take no room; they are the only escapes in what cdata prints (API text is escaped).
    const length = stop - start > columns ? text.slice(start, stop).replace(SGR, '').length : stop - start;
    rows += Math.max(1, Math.ceil(length / columns));
    if (rows >= screen) return true;
    if (end < 0) break;
    start = end + 1;
  }
  return false;
}
