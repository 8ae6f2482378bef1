// Progress on a terminal: one live line per resource on stderr (pending, retrying, rows, done,
// failed), redrawn in place. Off when stderr is not a terminal (cron mails only failures) or with
// -q. A list's waits (a retry, a 429) show on its own line: an export has no spinner of its own.
import type { WaitEvent } from '../client/waits.js';
import type { Io } from '../io/index.js';
import { sanitize } from '../core/sanitize.js';
import type { shorten as shortenText } from '../output/width.js';

export class Progress {
  private readonly lines = new Map<string, string>();
  private readonly width: number;
  private drawn = 0;

  /**
   * On a terminal only: the lines are drawn, and `Progress.open` loads the width rule (with
   * cli-table3's string-width) for them; a cron job's export never loads it.
   */
  static async open(io: Io, names: readonly string[], enabled: boolean): Promise<Progress> {
    return new Progress(io, names, enabled ? (await import('../output/width.js')).shorten : undefined);
  }

  constructor(
    private readonly io: Io,
    names: readonly string[],
    private readonly shorten: typeof shortenText | undefined,
  ) {
    this.width = Math.max(...names.map((n) => n.length));
    for (const name of names) this.lines.set(name, `${name.padEnd(this.width)}  pending`);
  }

  /** Drawn at all: on a terminal, without -q. */
  get enabled(): boolean {
    return this.shorten !== undefined;
  }

  /** Draws every line as it stands: called once the export starts. */
  start(): void {
    this.draw();
  }

  set(name: string, state: string): void {
    this.lines.set(name, `${name.padEnd(this.width)}  ${sanitize(state)}`);
    this.draw();
  }

  /** What the client says of a list's waits, on that list's line. */
  wait(event: WaitEvent): void {
    if (event.kind === 'retry') {
      this.set(
        event.name,
        `retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt} of ${event.attempts}): ${event.reason}`,
      );
    } else if (event.kind === 'rate-limited') {
      this.set(event.name, `rate limited: waiting ${event.seconds} s as the API asked (Retry-After)`);
    } else if (event.kind === 'request' && event.attempt > 1) {
      this.set(event.name, `pending (attempt ${event.attempt} of ${event.attempts})`);
    }
  }

  /** Takes the lines off the screen (an interrupted export says what it kept instead). */
  clear(): void {
    if (!this.enabled || this.drawn === 0) return;
    this.io.stderr.write(`\u001b[${this.drawn}A\r\u001b[J`);
    this.drawn = 0;
  }

  private draw(): void {
    if (!this.enabled) return;
    // Back to the first line, then rewrite each one, clearing what was there.
    const up = this.drawn > 0 ? `\u001b[${this.drawn}A` : '';
    const body = [...this.lines.values()].map((line) => `\r\u001b[2K${this.fit(line)}\n`).join('');
    this.io.stderr.write(`${up}${body}`);
    this.drawn = this.lines.size;
  }

  /**
   * A line that wraps takes two rows, and the redraw, going up one row per line, would land
   * too low and leave stale copies above: so each is cut to the terminal's width less a spare
   * column, measured as tables measure. The full error follows once the export ends.
   */
  private fit(line: string): string {
    const columns = this.io.stderr.columns;
    if (!columns || columns < 4 || !this.shorten) return line; // unknown (0 from some pseudo-terminals): as it is
    return this.shorten(line, columns - 1);
  }
}
