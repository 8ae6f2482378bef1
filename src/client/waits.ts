// What the client is waiting on, told as it happens: a request sent, a retry scheduled (why, and
// how long), a 429's Retry-After being waited out, the call over. The client only tells; who
// listens decides what a person sees (a spinner at a terminal, a line of export progress, a note).

export type WaitEvent =
  /** An attempt is on its way to `host` (attempt 1 of `attempts`, then each retry). */
  | { kind: 'request'; name: string; host: string; attempt: number; attempts: number }
  /** The last attempt failed for `reason`; attempt number `attempt` follows after `delayMs`. */
  | { kind: 'retry'; name: string; reason: string; delayMs: number; attempt: number; attempts: number }
  /** A 429 whose Retry-After is being waited out before one more try. */
  | { kind: 'rate-limited'; name: string; seconds: number }
  /** The call is over, answered or failed: nothing of it is awaited any more. */
  | { kind: 'done'; name: string };

/** `name`: the endpoint asked for (tenders, me), which tells concurrent calls apart. */
export type WaitObserver = (event: WaitEvent) => void;

/** How long a request may go unanswered before a terminal shows it waiting (spinner, export progress). */
export const WAIT_GRACE_MS = 500;

/** Milliseconds as `1.2 s`; a countdown rounds up, so it says 0.0 s only once it is over. */
export function waitedSeconds(ms: number, round = Math.floor): string {
  return `${(round(ms / 100) / 10).toFixed(1)} s`;
}
