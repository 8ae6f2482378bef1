// What `webhook verify` and `webhook listen` both print: the exit code of a rejected delivery, and
// an accepted event's line.
import { redactSecretsIn } from '../../config/key.js';
import { stringifyJson } from '../../core/json.js';
import { sanitizeJson } from '../../core/sanitize.js';
import type { JsonObject } from '../../core/json-value.js';

/** A verdict about a delivery or a receiver, not a bug. */
export const REJECTED = 1;

/**
 * An event as one JSON line: numbers as the sender wrote them, no secret of ours in it, and what
 * a terminal would act on (C1 controls, bidi overrides, line separators) escaped, as in all JSON
 * cdata prints.
 */
export function eventLine(body: JsonObject, secret: string): string {
  return `${sanitizeJson(stringifyJson(redactSecretsIn(body, [secret])))}\n`;
}
