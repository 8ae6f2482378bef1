// Waits made visible at a terminal: one line on stderr, redrawn in place with a spinner, saying
// what is awaited and for how long. A request shows it once unanswered for WAIT_GRACE_MS (a quick
// answer shows nothing); a retry or a 429 wait shows at once, with its reason and length. The
// line is cleared when nothing is awaited any more, and on Ctrl-C. Loaded only when a command
// sends a request with stderr a terminal (src/commands/shared/api.ts); never writes to stdout.
import { WAIT_GRACE_MS, waitedSeconds as seconds, type WaitEvent, type WaitObserver } from '../client/waits.js';
import { sanitize } from '../core/sanitize.js';
import type { Io } from '../io/index.js';
import { shorten } from './width.js';

/** How often the line is redrawn: the spinner turns and the seconds count. */
const FRAME_MS = 100;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Back to the start of the line and clear it: every draw begins so, and the last one is only this. */
const CLEAR = '\r\u001b[2K';

/** One call awaited: since when, from when it may show, and what it is waiting on now. */
interface Call {
  started: number;
  showFrom: number;
  event: Exclude<WaitEvent, { kind: 'done' }>;
  /** When the current event began (a retry's or a 429's countdown runs from it). */
  since: number;
}

export function waitSpinner(io: Io): WaitObserver {
  const spinner = new Spinner(io);
  return (event) => spinner.on(event);
}

class Spinner {
  private readonly calls = new Map<string, Call>();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private drawn = false;
  private unregister: (() => void) | undefined;

  constructor(private readonly io: Io) {}

  on(event: WaitEvent): void {
    const now = this.io.now();
    if (event.kind === 'done') {
      this.calls.delete(event.name);
    } else {
      const call = this.calls.get(event.name);
      // A retry or a 429 wait is news: shown at once, and the call stays shown from then on.
      const showFrom = Math.min(call?.showFrom ?? now + WAIT_GRACE_MS, event.kind === 'request' ? Infinity : now);
      this.calls.set(event.name, { started: call?.started ?? now, showFrom, event, since: now });
    }
    this.tick();
  }

  /** Redraws (or clears) the line; keeps the timer running while anything is awaited. */
  private tick(): void {
    if (this.calls.size === 0) {
      this.stop();
      return;
    }
    // unref: the timer never keeps the process alive or delays its exit.
    this.timer ??= setInterval(() => this.tick(), FRAME_MS).unref();
    this.draw();
  }

  private visible(): Call[] {
    const now = this.io.now();
    return [...this.calls.values()].filter((call) => call.showFrom <= now);
  }

  private draw(): void {
    const [first, ...more] = this.visible();
    if (!first) {
      this.clear();
      return;
    }
    const frame = FRAMES[this.frame++ % FRAMES.length];
    const text = `${frame} ${describe(first, this.io.now())}${more.length ? ` (and ${more.length} more)` : ''}`;
    // One column spare: a line that fills the last column wraps on some terminals, and \r would
    // then return to the second row, leaving the first behind.
    const columns = this.io.stderr.columns;
    this.io.stderr.write(`${CLEAR}${columns && columns > 4 ? shorten(text, columns - 1) : text}`);
    if (!this.drawn) this.unregister = this.io.onInterrupt(() => this.clear());
    this.drawn = true;
  }

  private clear(): void {
    if (!this.drawn) return;
    this.io.stderr.write(CLEAR);
    this.drawn = false;
    this.unregister?.();
    this.unregister = undefined;
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }
}

/** What the line says of one call: what it waits for, and how long it has waited or will. */
function describe(call: Call, now: number): string {
  const { event } = call;
  switch (event.kind) {
    case 'request': {
      const attempt = event.attempt > 1 ? `attempt ${event.attempt} of ${event.attempts}, ` : '';
      return sanitize(`waiting for ${event.name} from ${event.host} (${attempt}${seconds(now - call.started)})`);
    }
    case 'retry': {
      const left = Math.max(0, event.delayMs - (now - call.since));
      return sanitize(
        `retrying in ${seconds(left, Math.ceil)} (attempt ${event.attempt} of ${event.attempts}): ${event.reason}`,
      );
    }
    case 'rate-limited': {
      const left = Math.max(0, event.seconds * 1000 - (now - call.since));
      return sanitize(
        `rate limited: waiting ${event.seconds} s as the API asked (Retry-After), ${seconds(left, Math.ceil)} left`,
      );
    }
  }
}
