// Sending a delivery as the platform does: POST, Content-Type application/json, User-Agent
// Service-Webhooks/1.0, the signature header, a 5-second limit, and redirects not followed (a
// 301 or 302 is the result, as the platform records it). Only to https://, or http:// on
// loopback for a receiver under development on this machine.
import { STATUS_CODES } from 'node:http';
import { isLoopback } from '../core/base-url.js';
import type { HttpAnswer } from '../client/problem.js';
import { describeFailure, rootCause, speaksPlainHttp, type SystemCause, certificateProblem } from '../client/cause.js';
import type { Transport } from '../client/transport.js';
import type { Env } from '../config/env.js';
import type { WaitObserver } from '../client/waits.js';
import { errorMessage, UsageError } from '../core/errors.js';
import type { Io } from '../io/index.js';
import { SIGNATURE_HEADER, sign, WEBHOOK_USER_AGENT } from './signature.js';

export const DELIVERY_TIMEOUT_MS = 5_000;

export interface DeliveryResult {
  /** Undefined when no answer came (refused, reset, or the time limit). */
  status: number | undefined;
  statusText: string;
  location: string | undefined;
  ms: number;
  /** Why there was no answer. */
  failure: string | undefined;
  /** No answer within the 5 seconds (as opposed to none possible: refused, reset, DNS). */
  timedOut: boolean;
  /** What to do about it, where the cause tells (a certificate this machine does not trust). */
  hint?: string | undefined;
}

export function receiverUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`'${raw}' is not a URL`);
  }
  if (url.username || url.password) throw new UsageError('the receiver URL must not contain a user name or password');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new UsageError(
    `deliveries go to https:// URLs, or http:// on this machine (loopback) only; not ${url.protocol}//${url.host}`,
  );
}

/** The body of a delivery of `type` at `at` (ms), as the platform writes it. */
export function eventBody(type: string, at: number): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString() });
}

/**
 * POSTs `body` with `signature`, through a transport `transport` makes (the command's: a test may
 * answer it). `waits` is told while the answer is awaited (a spinner at a terminal).
 */
export async function deliver(
  io: Io,
  transport: Transport,
  url: URL,
  body: string,
  signature: string,
  waits?: WaitObserver,
): Promise<DeliveryResult> {
  const started = io.now();
  waits?.({ kind: 'request', name: 'an answer', host: url.host, attempt: 1, attempts: 1 });
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)),
    DELIVERY_TIMEOUT_MS,
  );
  try {
    const answer = await transport.send({
      method: 'POST',
      url: url.href,
      headers: { 'Content-Type': 'application/json', 'User-Agent': WEBHOOK_USER_AGENT, [SIGNATURE_HEADER]: signature },
      body,
      signal: controller.signal,
      // The platform records the status, whatever the body does after it (trickles, runs to 20 MiB).
      statusOnly: true,
    });
    return answered(answer, io.now() - started);
  } catch (error) {
    const timedOut = controller.signal.aborted;
    const { failure, hint } = timedOut
      ? { failure: errorMessage(controller.signal.reason), hint: undefined }
      : unreachable(error, io.env);
    return { status: undefined, statusText: '', location: undefined, ms: io.now() - started, failure, timedOut, hint };
  } finally {
    clearTimeout(timer);
    waits?.({ kind: 'done', name: 'an answer' });
  }
}

/**
 * Why a receiver could not be reached, said as the API's own failures are (not the system's text),
 * and a hint where the cause calls for one.
 */
function unreachable(error: unknown, env: Env): { failure: string; hint: string | undefined } {
  const cause = rootCause(error);
  if (speaksPlainHttp(cause))
    return {
      failure: 'it speaks plain HTTP, not the TLS that https:// needs (a receiver without TLS is reached as http://)',
      hint: undefined,
    };
  const certificate = certificateProblem(cause, env);
  if (certificate) return { failure: certificate.why, hint: certificate.hint };
  return { failure: systemFailure(cause, error), hint: undefined };
}

/** A failure the system named, in a few words. */
function systemFailure(cause: SystemCause, error: unknown): string {
  switch (cause.code) {
    case 'ECONNREFUSED':
      return 'connection refused: nothing is listening on that port';
    case 'ENOTFOUND':
      return 'no such host (DNS)';
    case 'EAI_AGAIN':
      return 'the DNS lookup failed just now (EAI_AGAIN)';
    default:
      return describeFailure(error);
  }
}

/** A body and its signature with `secret`. */
export function signed(secret: string, body: string): { body: string; signature: string } {
  return { body, signature: sign(secret, body) };
}

function answered(answer: HttpAnswer, ms: number): DeliveryResult {
  const location = answer.headers.location;
  return {
    status: answer.status,
    statusText: STATUS_CODES[answer.status] ?? '',
    location: Array.isArray(location) ? location[0] : location,
    ms,
    failure: undefined,
    timedOut: false,
  };
}
