// Failed-authentication limit (docs/api-reference.md section 8): 25 failures from one address within
// 15 minutes, then every credential-bearing request from it gets 429 until the window passes.

export const LOCKOUT_THRESHOLD = 25;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

export class Lockout {
  private readonly failures = new Map<string, number[]>();

  recordFailure(address: string, now: number): void {
    const recent = this.recent(address, now);
    recent.push(now);
    this.failures.set(address, recent);
  }

  /** Seconds until `address` may authenticate again, or 0 when it is not locked out. */
  retryAfterSeconds(address: string, now: number): number {
    const recent = this.recent(address, now);
    if (recent.length < LOCKOUT_THRESHOLD) return 0;
    // Unlocked once enough failures age out that fewer than the threshold remain.
    const releasing = recent[recent.length - LOCKOUT_THRESHOLD]!;
    return Math.max(1, Math.ceil((releasing + LOCKOUT_WINDOW_MS - now) / 1000));
  }

  private recent(address: string, now: number): number[] {
    const kept = (this.failures.get(address) ?? []).filter((t) => t > now - LOCKOUT_WINDOW_MS);
    if (kept.length === 0) this.failures.delete(address);
    else this.failures.set(address, kept);
    return kept;
  }
}
