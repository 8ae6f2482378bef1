// The one problem+json body the sandbox sends (docs/api-reference.md section 3): every field, always.
import { STATUS_CODES } from 'node:http';
import type { JsonObject } from '../core/json-value.js';

export function problemBody(status: number, detail: string, correlationId: string, now: number): JsonObject {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    correlationId,
    timestamp: new Date(now).toISOString(),
  };
}
