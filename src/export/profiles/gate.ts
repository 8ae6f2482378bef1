// The budget of an `export --profiles` run, passed through by every request of every profile:
//
// - Slots: at most --concurrency requests in flight across all profiles, the others waiting in
//   the order they asked.
// - HostGuard: at most MAX_REFUSED_PER_HOST refused requests (401) to one API host in the run,
//   and a shard of N its share of them (refusalBudget). The API locks an address out after 25
//   failed attempts in 15 minutes, which would stop every profile and every other job on that
//   address. A profile starts only once its host admits it:
//   the refusals so far plus the profiles whose key is not yet known good stay within the limit,
//   so even when every key is revoked no more than the limit can be refused. Profiles are
//   admitted in the run's order (their names'), whichever key is ready first (a key command may
//   take a while): past the limit, the profiles left on that host, the last in that order, are
//   not started (skipped), the same ones at every run.
// - ProfileGate: until a profile's key is known good (an answer that is not a refusal), its
//   requests go one at a time; once refused (401), none of them goes. A profile with a revoked
//   key so costs one request, however many lists it asks for.
// - The lock-out itself: once the host answers 429 with a wait longer than --max-wait (the API
//   has locked the address out, and every request with a key gets the same until its window
//   passes), nothing more goes to it in the run: the requests not yet sent fail at once, and
//   the profiles not yet started are skipped.
import { DEFAULTS } from '../../config/resolve.js';
import { AuthError, RateLimitError } from '../../core/errors.js';
import type { LeaveGate, RequestGate } from '../../client/gate.js';
import { waitsOut } from '../../client/retry-after.js';
import type { Shard } from './shard.js';

/** The API's lock-out: this many failed authentications from one address in 15 minutes. */
export const LOCKOUT = 25;

/** Refused requests to one API host in one run, well short of the API's lock-out (LOCKOUT). */
export const MAX_REFUSED_PER_HOST = 10;

/**
 * The refusals one run may spend on a host. A shard's share: the N shards of a run may all go
 * out from one address at once (`xargs -P` on one host, pods behind one NAT), where a budget each
 * would be N times the run's. floor(10 / N), at least 1 (past 10 shards: one each, N in all).
 */
export function refusalBudget(shard: Shard | undefined): number {
  return shard === undefined ? MAX_REFUSED_PER_HOST : Math.max(1, Math.floor(MAX_REFUSED_PER_HOST / shard.count));
}

/** At most `size` holders at once; the others wait, first come first served. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * One API host's refusals in the run, the profiles started on it whose key is not yet known good,
 * and the order in which its profiles are admitted: each takes a turn as it starts.
 */
export class HostGuard {
  private refusedCount = 0;
  private unproven = 0;
  private waiting: (() => void)[] = [];
  private turns = 0;
  /** The first turn not yet over; the turns after it that are over. */
  private head = 0;
  private readonly over = new Set<number>();
  /** The wait a 429 asked for once it outlasted --max-wait (null: it named none); undefined: none came. */
  private lockout: number | null | undefined;

  constructor(
    readonly origin: string,
    /** The refusals it may take in the run (refusalBudget). */
    readonly limit = MAX_REFUSED_PER_HOST,
  ) {}

  /** Requests to this host the API refused (401) in this run. */
  get refused(): number {
    return this.refusedCount;
  }

  /** The limit is reached, or the host locked the address out: no further profile on it starts. */
  get closed(): boolean {
    return this.refusedCount >= this.limit || this.lockedOut;
  }

  /** The host answered 429 with a wait past --max-wait: the address is locked out for the run. */
  get lockedOut(): boolean {
    return this.lockout !== undefined;
  }

  /** Why nothing more goes to this host: its refusals, or its lock-out of the address. */
  get why(): string {
    if (this.lockout === undefined)
      return `${this.refusedCount} requests to ${this.origin} were refused (HTTP 401) in this run`;
    const wait = this.lockout === null ? '' : `, asking to wait ${this.lockout} s`;
    return `${this.origin} locked this address out (HTTP 429${wait}) earlier in this run`;
  }

  /** A 429 whose wait outlasts --max-wait (none named: the same): the first one is kept. */
  lockOut(seconds: number | undefined): void {
    if (this.lockout !== undefined) return;
    this.lockout = seconds ?? null;
    this.wakeAll();
  }

  /** A profile's place in the order of admission, taken as it starts (the run starts them in order). */
  takeTurn(): number {
    return this.turns++;
  }

  /**
   * Whether the profile of `turn` may start: true once every earlier turn is over and the
   * refusals so far and the profiles not yet known good leave room for one more refusal (waiting
   * for that if need be); false once the limit is reached. Either way its turn is then over. A
   * profile admitted must be settled, once. Without a turn, it takes the next one as it asks.
   */
  async admit(turn = this.takeTurn()): Promise<boolean> {
    for (;;) {
      if (this.closed) {
        this.pass(turn);
        return false;
      }
      if (turn === this.head && this.refusedCount + this.unproven < this.limit) {
        this.unproven++;
        this.pass(turn);
        return true;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** The turn is over (admitted, skipped, or its profile ended before asking): the next may go. Again: nothing. */
  pass(turn: number): void {
    if (turn < this.head || this.over.has(turn)) return;
    this.over.add(turn);
    while (this.over.delete(this.head)) this.head++;
    this.wakeAll();
  }

  /** An admitted profile's key was refused, found good, or it ended without knowing. */
  settle(refused: boolean): void {
    this.unproven--;
    if (refused) this.refusedCount++;
    this.wakeAll();
  }

  private wakeAll(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** A refusal of a key already settled (revoked while the run went on): it counts all the same. */
  refusedAgain(): void {
    this.refusedCount++;
  }
}

/** What makes a key known good: the API checks the key before it answers any of these. */
const provesKey = (status: number) =>
  (status >= 200 && status < 300) || status === 400 || status === 403 || status === 404;

/** One profile's requests: one at a time until its key is known good, none once it is refused. */
export class ProfileGate implements RequestGate {
  private key: 'unproven' | 'good' | 'refused' = 'unproven';
  private settled = false;
  private busy = false;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly slots: Slots,
    private readonly host: HostGuard,
    /** The client's --max-wait: a 429 asking to wait longer is the address locked out. */
    private readonly maxWaitSeconds: number = DEFAULTS.maxWaitSeconds,
  ) {}

  async enter(): Promise<LeaveGate> {
    while (this.key === 'unproven' && this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.key === 'refused') throw refusedEarlier();
    if (this.host.lockedOut) throw lockedOutEarlier(this.host);
    const alone = this.key === 'unproven';
    if (alone) this.busy = true;
    await this.slots.acquire();
    if (this.host.lockedOut) {
      // Locked out while this request waited for its slot: it is not sent either.
      this.slots.release();
      if (alone) this.wakeNext();
      throw lockedOutEarlier(this.host);
    }
    return (status, retryAfterSeconds) => {
      this.slots.release();
      if (status === 429 && !waitsOut(retryAfterSeconds, this.maxWaitSeconds)) this.host.lockOut(retryAfterSeconds);
      if (status !== undefined) this.observe(status);
      if (alone) this.wakeNext();
    };
  }

  /** The request that went alone is over: the profile's next ones may go. */
  private wakeNext(): void {
    this.busy = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** The profile is over: an admission not yet settled is given back. */
  finish(): void {
    if (!this.settled) {
      this.settled = true;
      this.host.settle(false);
    }
  }

  private observe(status: number): void {
    if (status === 401) {
      if (this.settled) this.host.refusedAgain();
      else {
        this.settled = true;
        this.host.settle(true);
      }
      this.key = 'refused';
    } else if (this.key === 'unproven' && provesKey(status)) {
      this.key = 'good';
      this.settled = true;
      this.host.settle(false);
    }
  }
}

function refusedEarlier(): AuthError {
  return new AuthError("not requested: the API refused this profile's key (HTTP 401) earlier in this run", {
    hint: `export --profiles sends nothing more with a key once the API has refused it: each refusal counts towards the lock-out of the address (${LOCKOUT} failures in 15 minutes).`,
  });
}

/** What to do once a host has locked the address out: said with its requests, and after its skipped profiles. */
export const LOCKED_OUT_HINT =
  'Every request with a key gets the same answer until the lock-out ends (15 minutes at most): run the export again after it.';

function lockedOutEarlier(host: HostGuard): RateLimitError {
  return new RateLimitError(`not requested: ${host.why}`, { hint: LOCKED_OUT_HINT });
}
