// The values of export's --concurrency (parsed where the command is declared, before any request).
import { parseInteger } from '../../core/parse.js';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export function parseConcurrency(raw: string): number {
  return parseInteger('--concurrency', raw, 1, MAX_CONCURRENCY);
}
