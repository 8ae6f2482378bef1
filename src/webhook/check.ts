// `cdata webhook check`: what a careful receiver must do, tried on one: accept a valid ping,
// refuse a forged signature and a tampered body (401), refuse a correctly signed but stale
// delivery (400), and acknowledge an event type it does not know; each within 5 seconds.
import { redactKeys } from '../config/key.js';
import type { Io } from '../io/index.js';
import type { Transport } from '../client/transport.js';
import { deliver, eventBody, signed, type DeliveryResult } from './deliver.js';
import type { WaitObserver } from '../client/waits.js';
import { sign } from './signature.js';

const STALE_BY_MS = 10 * 60 * 1000;

export interface CheckCase {
  name: string;
  /** 'success' for any 2xx, else the exact status. */
  expect: 'success' | 401 | 400;
  build(secret: string, now: number): { body: string; signature: string };
}

export const CHECK_CASES: readonly CheckCase[] = [
  { name: 'valid ping', expect: 'success', build: (secret, now) => signed(secret, eventBody('ping', now)) },
  {
    name: 'wrong signature',
    expect: 401,
    build: (secret, now) => ({
      body: eventBody('ping', now),
      signature: sign(`${secret}-not-the-secret`, eventBody('ping', now)),
    }),
  },
  {
    name: 'tampered body',
    expect: 401,
    build: (secret, now) => {
      const body = eventBody('ping', now);
      // Still valid JSON with a fresh timestamp: only the signature can tell.
      return { body: body.replace('{', '{"amount":1000000,'), signature: sign(secret, body) };
    },
  },
  {
    name: 'stale timestamp',
    expect: 400,
    build: (secret, now) => signed(secret, eventBody('ping', now - STALE_BY_MS)),
  },
  {
    name: 'unknown event type',
    expect: 'success',
    build: (secret, now) => signed(secret, eventBody('cdata.check.unknown', now)),
  },
];

export interface CheckResult {
  case: string;
  expected: string;
  got: string;
  ms: number;
  pass: boolean;
  /** No connection possible (refused, reset, DNS); a receiver that is only too slow is reachable. */
  unreachable: boolean;
  /** The delivery's hint, when one helps (deliver.ts). */
  hint?: string | undefined;
}

/**
 * The cases one after another, as the platform sends deliveries, each with its own 5-second
 * limit from when it is sent: a receiver that answers one request at a time is not failed for
 * the time a case would wait behind the others.
 */
export async function runChecks(
  io: Io,
  transport: Transport,
  url: URL,
  secret: string,
  waits?: WaitObserver,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of CHECK_CASES) {
    const { body, signature } = check.build(secret, io.now());
    results.push(judge(check, await deliver(io, transport, url, body, signature, waits), secret));
  }
  return results;
}

/** `secret` is redacted from what the receiver said (a Location it chose could echo it). */
function judge(check: CheckCase, answer: DeliveryResult, secret: string): CheckResult {
  const expected = check.expect === 'success' ? '2xx' : String(check.expect);
  // Fields in the order of the table's columns (docs/webhooks.md): JSON lines read alike.
  const result = (got: string, pass: boolean, unreachable: boolean): CheckResult => ({
    case: check.name,
    expected,
    got,
    ms: answer.ms,
    pass,
    unreachable,
  });
  if (answer.status === undefined)
    return { ...result(answer.failure ?? 'no answer', false, !answer.timedOut), hint: answer.hint };
  const pass =
    check.expect === 'success' ? answer.status >= 200 && answer.status < 300 : answer.status === check.expect;
  const got = `${answer.status}${answer.location ? ` -> ${redactKeys(answer.location, [secret])}` : ''}`;
  return result(got, pass, false);
}
