// Signing and verifying webhook deliveries (docs/api-reference.md section 6), in the one module that
// `webhook verify`, `listen`, `ping`, `check` and the tests all use, as stripe-node keeps its
// Webhooks. The signature is lowercase hex HMAC-SHA256 of the raw body, keyed with the signing
// secret exactly as shown (UTF-8, `whsec_` included). Verification goes in the receiver's order:
// the signature over the raw bytes first (constant time), then the JSON, then the timestamp.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isJsonObject, JsonLimitError, parseJson } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-value.js';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1.0';
/** The largest delivery body: past it a receiver answers 413, and `webhook verify` rejects it. */
export const MAX_BODY_BYTES = 1024 * 1024;
import { DEFAULT_TOLERANCE_SECONDS } from './tolerance.js';

/** Receivers should reject a timestamp further than this from their clock, either way. */
export { DEFAULT_TOLERANCE_SECONDS };

const SIGNATURE = /^[0-9a-f]{64}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

export type RejectionReason =
  | 'malformed-signature'
  | 'bad-signature'
  | 'bad-json'
  | 'missing-timestamp'
  | 'stale-timestamp';

export interface Rejection {
  reason: RejectionReason;
  /** What a receiver answers, as the reference's samples do: 401 for the signature, else 400. */
  status: 400 | 401;
  message: string;
}

export interface WebhookEvent {
  type: string;
  timestamp: string;
  /** The whole body, parsed (numbers as written: stringifyJson gives the same JSON back). */
  body: JsonObject;
}

export type Verdict = { ok: true; event: WebhookEvent } | { ok: false; rejection: Rejection };

export function sign(secret: string, rawBody: string | Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex');
}

export interface VerifyOptions {
  /** Milliseconds since the epoch. */
  now: number;
  toleranceSeconds?: number;
}

export function verify(
  secret: string,
  rawBody: string | Buffer,
  signature: string | undefined,
  options: VerifyOptions,
): Verdict {
  const reject = (reason: RejectionReason, message: string): Verdict => ({
    ok: false,
    rejection: { reason, status: reason === 'malformed-signature' || reason === 'bad-signature' ? 401 : 400, message },
  });

  // The signature's shape is checked first, so timingSafeEqual only ever sees two 32-byte buffers.
  if (signature === undefined || signature === '')
    return reject('malformed-signature', `no ${SIGNATURE_HEADER} signature`);
  if (!SIGNATURE.test(signature)) {
    return reject(
      'malformed-signature',
      'the signature is not 64 lowercase hexadecimal characters (HMAC-SHA256, hex, no prefix)',
    );
  }
  const expected = Buffer.from(sign(secret, rawBody), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return reject('bad-signature', 'the signature does not match the body (wrong secret, or the body was changed)');
  }

  // parseJson: linear in the body, and refusing nesting that printing the event would choke on.
  let body: JsonValue;
  try {
    body = parseJson(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody);
  } catch (error) {
    return reject(
      'bad-json',
      error instanceof JsonLimitError ? `the body ${error.message}` : 'the body is not valid JSON',
    );
  }
  if (!isJsonObject(body)) return reject('bad-json', 'the body is not a JSON object');
  const { type, timestamp } = body;
  if (typeof type !== 'string' || type === '') return reject('bad-json', 'the body has no event type');

  if (typeof timestamp !== 'string' || !ISO_TIMESTAMP.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    return reject('missing-timestamp', 'the body has no valid ISO 8601 timestamp');
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const skewSeconds = Math.abs(options.now - Date.parse(timestamp)) / 1000;
  if (skewSeconds > tolerance) {
    return reject(
      'stale-timestamp',
      // Rounded up: past the tolerance by a fraction still reads as more than it.
      `the timestamp is ${Math.ceil(skewSeconds)} s from now, more than the ${tolerance} s allowed (a replay?)`,
    );
  }
  return { ok: true, event: { type, timestamp, body } };
}
