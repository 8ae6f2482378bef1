// What a client waits for before each attempt, when its requests share a budget with other
// clients' (export --profiles: one pool of requests in flight for every profile, and the guard
// that keeps refused keys from locking the address out). The client passes through it and says
// how each attempt ended; what it admits, and when, is the gate's own business.

/**
 * Says how the attempt ended: the answer's status, or undefined when none came; for a 429, the
 * seconds its Retry-After asks to wait (undefined when it says none).
 */
export type LeaveGate = (status: number | undefined, retryAfterSeconds?: number) => void;

export interface RequestGate {
  /**
   * Resolves when the attempt may be sent; its deadline (--timeout) starts after. Rejects with a
   * CliError when it must not be sent at all (the key was refused earlier in the run): the
   * client reports that as the request's failure, and never retries it.
   */
  enter(): Promise<LeaveGate>;
}
