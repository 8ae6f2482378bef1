// Progress on a terminal: one live line per resource on stderr (pending, retrying, rows, done,
// failed), redrawn in place. Off when stderr is not a terminal (cron mails only failures) or with
// -q. A list's waits (a retry, a 429) show on its own line: an export has no spinner of its own,
// so a list unanswered for WAIT_GRACE_MS counts the seconds on its line, as the spinner does.
import { WAIT_GRACE_MS, waitedSeconds, type WaitEvent } from '../client/waits.js';
import type { Io } from '../io/index.js';
import { sanitize } from '../core/sanitize.js';
import type { shorten as shortenText } from '../output/width.js';

/** How often lines that wait are redrawn, their seconds counting. */
const TICK_MS = 500;
/** How a list's line ends once its file is written (src/commands/export/run.ts). */
export const DONE = '  done';

export class Progress {
  private readonly lines = new Map<string, string>();
  /** The lists awaiting an answer, and since when: their lines count the seconds. */
  private readonly waiting = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly width: number;
  private drawn = 0;

  /**
   * On a terminal only: the lines are drawn, and `Progress.open` loads the width rule (with
   * cli-table3's string-width) for them; a cron job's export never loads it.
   */
  static async open(io: Io, names: readonly string[], enabled: boolean): Promise<Progress> {
    // A terminal with fewer rows than the lines cannot go back up to the first: each redraw would
    // leave a copy in its scrollback. There the closing lines alone say how it went.
    const fits = !io.stderr.rows || names.length < io.stderr.rows;
    return new Progress(io, names, enabled && fits ? (await import('../output/width.js')).shorten : undefined, enabled);
  }

  constructor(
    private readonly io: Io,
    names: readonly string[],
    private readonly shorten: typeof shortenText | undefined,
    /** At a terminal (without -q), lines drawn or not: what an interrupted export says goes there. */
    readonly atTerminal = shorten !== undefined,
  ) {
    this.width = Math.max(...names.map((n) => n.length));
    for (const name of names) this.lines.set(name, this.line(name, 'pending'));
  }

  /** Drawn at all: on a terminal, without -q. */
  get enabled(): boolean {
    return this.shorten !== undefined;
  }

  /** Draws every line as it stands: called once the export starts, when every list is asked for. */
  start(): void {
    for (const name of this.lines.keys()) this.waiting.set(name, this.io.now());
    this.draw();
  }

  set(name: string, state: string): void {
    this.waiting.delete(name);
    this.setLine(name, state);
  }

  private setLine(name: string, state: string): void {
    this.lines.set(name, this.line(name, state));
    this.draw();
  }

  /** A list's line: its name, padded so the states line up, and its state. */
  private line(name: string, state: string): string {
    return `${name.padEnd(this.width)}  ${sanitize(state)}`;
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
      this.waiting.set(event.name, this.io.now());
      this.setLine(event.name, `pending (attempt ${event.attempt} of ${event.attempts})`);
    }
  }

  /**
   * Every list is settled: a line still waiting was never asked for (the lists after a refused
   * key's first request) and says so; nothing counts on, so no redraw can come after the report.
   */
  end(): void {
    if (this.waiting.size === 0) return;
    for (const name of this.waiting.keys()) this.lines.set(name, this.line(name, 'not requested'));
    this.stop();
    this.draw();
  }

  /** No more redraws: the export ended, however it ended. */
  stop(): void {
    this.waiting.clear();
    this.tick();
  }

  /** Takes the lines off the screen (an interrupted export says what it kept instead). */
  clear(): void {
    this.stop();
    if (!this.enabled || this.drawn === 0) return;
    this.io.stderr.write(`\u001b[${this.drawn}A\r\u001b[J`);
    this.drawn = 0;
  }

  private draw(): void {
    if (!this.enabled) return;
    // Back to the first line, then rewrite each one, clearing what was there.
    const up = this.drawn > 0 ? `\u001b[${this.drawn}A` : '';
    const now = this.io.now();
    const body = [...this.lines]
      .map(([name, line]) => {
        const waited = now - (this.waiting.get(name) ?? now);
        return `\r\u001b[2K${this.fit(waited >= WAIT_GRACE_MS ? `${line} ${waitedSeconds(waited)}` : line)}\n`;
      })
      .join('');
    this.io.stderr.write(`${up}${body}`);
    this.drawn = this.lines.size;
    this.tick();
  }

  /** Keeps the lines redrawn while a list waits, so its seconds count; unref: never delays the exit. */
  private tick(): void {
    if (this.waiting.size > 0 && this.enabled) this.timer ??= setInterval(() => this.draw(), TICK_MS).unref();
    else if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * A line that wraps takes two rows, and the redraw, going up one row per line, would land
   * too low and leave stale copies above: so each is cut to the terminal's width less a spare
   * column, measured as tables measure. The full error follows once the export ends. A list
   * that is done keeps its `done` whole: what is cut is the count's note before it.
   */
  private fit(line: string): string {
    const columns = this.io.stderr.columns;
    if (!columns || columns < 4 || !this.shorten) return line; // unknown (0 from some pseudo-terminals): as it is
    const width = columns - 1;
    const kept = line.endsWith(DONE) && width > this.width + DONE.length + 2 ? DONE : '';
    return this.shorten(line.slice(0, line.length - kept.length), width - kept.length) + kept;
  }
}
