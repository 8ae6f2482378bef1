// The budget of an export --profiles run, without a server: slots in arrival order, a host that
// admits profiles only while a refusal more stays within its limit, and a profile whose requests
// go one at a time until its key is known good and not at all once it is refused.
import { describe, expect, it } from 'vitest';
import { AuthError, RateLimitError } from '../../src/core/errors.js';
import { HostGuard, MAX_REFUSED_PER_HOST, ProfileGate, refusalBudget, Slots } from '../../src/export/profiles/gate.js';
import { skippedHint } from '../../src/export/profiles/say.js';

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** A profile admitted to host `h` (`limit` refusals in the run), and its gate, with slots to spare. */
async function admitted(limit?: number): Promise<{ host: HostGuard; gate: ProfileGate }> {
  const host = new HostGuard('h', limit);
  await host.admit();
  return { host, gate: new ProfileGate(new Slots(8), host) };
}

/** Two profiles admitted to host `h`, sharing one slot. */
async function twoOnOneSlot(): Promise<{ host: HostGuard; one: ProfileGate; two: ProfileGate }> {
  const slots = new Slots(1);
  const host = new HostGuard('h');
  await host.admit();
  await host.admit();
  return { host, one: new ProfileGate(slots, host), two: new ProfileGate(slots, host) };
}

describe('Slots', () => {
  it('holds at most its size; the others get theirs first come, first served', async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    await slots.acquire();
    await slots.acquire();
    const waiting = [3, 4, 5].map((n) => slots.acquire().then(() => order.push(n)));
    expect(await settled(waiting[0]!)).toBe(false);
    slots.release();
    slots.release();
    await Promise.all(waiting.slice(0, 2));
    expect(order).toEqual([3, 4]);
    slots.release();
    await waiting[2];
    expect(order).toEqual([3, 4, 5]);
  });
});

describe('HostGuard', () => {
  it('admits profiles while the refusals so far and the unproven leave room for one more; closes at the limit', async () => {
    const host = new HostGuard('https://api.example.com');
    for (let i = 0; i < MAX_REFUSED_PER_HOST; i++) expect(await host.admit()).toBe(true);
    const next = host.admit();
    expect(await settled(next)).toBe(false);
    host.settle(false); // one key found good: room for the next
    expect(await next).toBe(true);
    for (let i = 0; i < MAX_REFUSED_PER_HOST; i++) host.settle(true);
    expect(host.refused).toBe(MAX_REFUSED_PER_HOST);
    expect(host.closed).toBe(true);
    expect(await host.admit()).toBe(false);
  });

  it("a shard's limit is its share: N shards together at most 10 refusals, and each at least one", async () => {
    const shares = [1, 2, 3, 4, 5, 9, 10, 11, 64, 10_000].map((count) => [count, refusalBudget({ index: 1, count })]);
    expect(shares).toEqual([
      [1, 10],
      [2, 5],
      [3, 3],
      [4, 2],
      [5, 2],
      [9, 1],
      [10, 1],
      [11, 1],
      [64, 1],
      [10_000, 1],
    ]);
    expect(refusalBudget(undefined)).toBe(MAX_REFUSED_PER_HOST);
    // Past 24 shards on one address their shares could reach the lock-out: the hint says so.
    expect(skippedHint(1, 30)).toMatch(
      /^After 1 refused key \(HTTP 401\) \(a shard's share: the 30 shards send 30 at most together\) cdata sends nothing more to that API host in the run, which can reach the API's lock-out /,
    );
    expect(skippedHint(1, 24)).toContain(
      'send 24 at most together) cdata sends nothing more to that API host in the run, well short of',
    );
    const host = new HostGuard('h', 2);
    expect([await host.admit(), await host.admit()]).toEqual([true, true]);
    const third = host.admit();
    host.settle(true);
    host.settle(true);
    expect([await third, host.closed, host.refused]).toEqual([false, true, 2]);
  });

  it('admits in the order of the turns taken, whichever profile asks first; a turn given up lets the next go', async () => {
    const host = new HostGuard('h', 2);
    const [a, b, c, d] = [host.takeTurn(), host.takeTurn(), host.takeTurn(), host.takeTurn()];
    // c and b have their keys before a (a key command still running): they wait for a's turn.
    const [forC, forB] = [host.admit(c), host.admit(b)];
    expect([await settled(forC), await settled(forB)]).toEqual([false, false]);
    host.pass(a); // a's key command failed: it never asks
    host.pass(a); // again: nothing
    expect([await forB, await forC]).toEqual([true, true]);
    // d asks while b and c are unproven: no room; both refused, the limit is reached.
    const forD = host.admit(d);
    expect(await settled(forD)).toBe(false);
    host.settle(true);
    host.settle(true);
    expect([await forD, host.refused]).toEqual([false, 2]);
  });

  it('a later turn never goes first, even with room: the profiles skipped are the last in the order', async () => {
    const host = new HostGuard('h', 3);
    const turns = Array.from({ length: 5 }, () => host.takeTurn());
    const admitted: number[] = [];
    // Asked in reverse: only the first turn may go, then the next...
    const asks = turns.toReversed().map((turn) => host.admit(turn).then((ok) => ok && admitted.push(turn)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(admitted).toEqual([0, 1, 2]);
    for (let i = 0; i < 3; i++) host.settle(true);
    await Promise.all(asks);
    expect(admitted).toEqual([0, 1, 2]);
  });

  it('says why it closed: the refusals it took', async () => {
    const host = new HostGuard('https://api.example.com', 2);
    await host.admit();
    await host.admit();
    host.settle(true);
    host.settle(true);
    expect([host.closed, host.lockedOut]).toEqual([true, false]);
    expect(host.why).toBe('2 requests to https://api.example.com were refused (HTTP 401) in this run');
  });

  it('a waiting profile is skipped when the limit is reached meanwhile', async () => {
    const host = new HostGuard('https://api.example.com');
    for (let i = 0; i < MAX_REFUSED_PER_HOST; i++) await host.admit();
    const waiting = host.admit();
    for (let i = 0; i < MAX_REFUSED_PER_HOST; i++) host.settle(true);
    expect(await waiting).toBe(false);
  });
});

describe('ProfileGate', () => {
  it('one request at a time until the key is known good, then all at once', async () => {
    const { host, gate } = await admitted();
    const first = await gate.enter();
    const second = gate.enter();
    expect(await settled(second)).toBe(false);
    first(503); // no word on the key: still one at a time
    const leaveSecond = await second;
    const third = gate.enter();
    expect(await settled(third)).toBe(false);
    leaveSecond(200);
    await third;
    expect(await settled(gate.enter())).toBe(true);
    expect(await settled(gate.enter())).toBe(true);
    // Settled once: finishing gives nothing back twice.
    gate.finish();
    expect(await host.admit()).toBe(true);
  });

  it('after a refusal nothing more is sent, and the host counts it once', async () => {
    const { host, gate } = await admitted();
    const first = await gate.enter();
    const queued = gate.enter();
    first(401);
    await expect(queued).rejects.toThrow(AuthError);
    await expect(gate.enter()).rejects.toMatchObject({
      message: "not requested: the API refused this profile's key (HTTP 401) earlier in this run",
      hint: 'export --profiles sends nothing more with a key once the API has refused it: each refusal counts towards the lock-out of the address (25 failures in 15 minutes).',
    });
    gate.finish();
    expect(host.refused).toBe(1);
  });

  it('a key refused after it was found good (revoked during the run) counts too', async () => {
    const { host, gate } = await admitted();
    (await gate.enter())(200);
    const [a, b] = [await gate.enter(), await gate.enter()];
    a(401);
    b(401);
    expect(host.refused).toBe(2);
    await expect(gate.enter()).rejects.toThrow(AuthError);
  });

  it('a 429 whose wait outlasts --max-wait locks the host out: no request of any profile goes, no profile starts', async () => {
    const slots = new Slots(1);
    const host = new HostGuard('h');
    for (const _ of [1, 2, 3]) await host.admit();
    const [one, two] = [new ProfileGate(slots, host, 30), new ProfileGate(slots, host, 30)];
    // A wait the client waits out itself (30 s at most) locks nothing.
    (await one.enter())(429, 30);
    expect(host.lockedOut).toBe(false);
    const leave = await one.enter();
    const queued = two.enter(); // waiting for the one slot
    leave(429, 897);
    expect(host.lockedOut).toBe(true);
    await expect(queued).rejects.toThrow(RateLimitError);
    await expect(one.enter()).rejects.toMatchObject({
      message: 'not requested: h locked this address out (HTTP 429, asking to wait 897 s) earlier in this run',
      hint: 'Every request with a key gets the same answer until the lock-out ends (15 minutes at most): run the export again after it.',
    });
    expect(await settled(slots.acquire())).toBe(true); // the slot was given back
    expect(host.closed).toBe(true);
    expect(await host.admit()).toBe(false);
    expect(host.why).toBe('h locked this address out (HTTP 429, asking to wait 897 s) earlier in this run');
    // A 429 naming no wait is a lock-out too; the first one is what is said.
    const other = new HostGuard('o');
    other.lockOut(undefined);
    other.lockOut(5);
    expect(other.why).toBe('o locked this address out (HTTP 429) earlier in this run');
  });

  it('holds a slot from entering to leaving', async () => {
    const { one, two } = await twoOnOneSlot();
    const leave = await one.enter();
    const other = two.enter();
    expect(await settled(other)).toBe(false);
    leave(200);
    expect(await settled(other)).toBe(true);
  });

  // The API checks the key before it answers these: a 2xx, 400, 403 or 404 says the key is good.
  it.each([200, 204, 299, 400, 403, 404])(
    'a %i proves the key: its requests go at once, its admission is given back',
    async (status) => {
      const { host, gate } = await admitted(1);
      (await gate.enter())(status);
      expect([await settled(gate.enter()), await settled(gate.enter())]).toEqual([true, true]);
      expect(await settled(host.admit())).toBe(true);
    },
  );

  it.each([300, 302, 408, 500, 503])(
    'a %i says nothing of the key: still one request at a time, still unproven',
    async (status) => {
      const { host, gate } = await admitted(1);
      (await gate.enter())(status);
      await gate.enter();
      expect(await settled(gate.enter())).toBe(false);
      expect(await settled(host.admit())).toBe(false);
    },
  );

  it('a profile that ends before its key is known gives its admission back, once', async () => {
    const { host, gate } = await admitted(1);
    gate.finish();
    expect(await settled(host.admit())).toBe(true);
    gate.finish(); // again: nothing, the host has room for none
    expect(await settled(host.admit())).toBe(false);
  });

  it('a refusal settles the admission: the host has room at once, and the end gives nothing back after it', async () => {
    const { host, gate } = await admitted(2);
    (await gate.enter())(401);
    expect(await settled(host.admit())).toBe(true); // 1 refused, 1 unproven: the limit
    gate.finish();
    expect(await settled(host.admit())).toBe(false);
  });

  it('a key found good is settled once: further answers and the end give nothing back', async () => {
    const { host, gate } = await admitted(1);
    (await gate.enter())(200);
    (await gate.enter())(200);
    gate.finish();
    expect(await settled(host.admit())).toBe(true);
    expect(await settled(host.admit())).toBe(false);
  });

  it('a key revoked after it was found good: each refusal counts, and frees no admission', async () => {
    const { host, gate } = await admitted(3);
    (await gate.enter())(200);
    const [a, b] = [await gate.enter(), await gate.enter()];
    a(401);
    b(401);
    expect(await settled(host.admit())).toBe(true); // 2 refused, 1 unproven: the limit
    expect(await settled(host.admit())).toBe(false);
  });

  it('once the host is locked out a request fails at once, without waiting for a slot', async () => {
    const { host, one, two } = await twoOnOneSlot();
    const leave = await one.enter();
    host.lockOut(900);
    const refused = two.enter();
    expect(await settled(refused)).toBe(true);
    await expect(refused).rejects.toThrow(RateLimitError);
    leave(undefined);
  });

  it("a lock-out while a profile's first request waits for a slot fails the requests queued behind it too", async () => {
    const { one, two } = await twoOnOneSlot();
    const leave = await one.enter();
    const first = two.enter(); // alone, waiting for the slot
    const second = two.enter(); // waiting for the first to be over
    leave(429, 900);
    expect(await Promise.all([settled(first), settled(second)])).toEqual([true, true]);
    await expect(first).rejects.toThrow('not requested: h locked this address out (HTTP 429, asking to wait 900 s)');
    await expect(second).rejects.toThrow(RateLimitError);
  });
});
