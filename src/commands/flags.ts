// Parsing and checking the endpoint flags before any request: a bad value is a usage error
// naming the valid values, and nothing is sent.
import { fieldNames, LIMIT_MAX, LIMIT_MIN, TIERS, type Endpoint, type Tier } from '../endpoints.js';
import { UsageError } from '../errors.js';
import { sanitize } from '../output/sanitize.js';

export interface Limit {
  value: number;
  /** Set when the value was clamped into range, for a note on stderr. */
  clampedFrom?: string;
}

export function parseLimit(raw: string, flag = '--limit'): Limit {
  const text = raw.trim();
  if (!/^[+-]?\d+$/.test(text)) throw new UsageError(`${flag} must be a whole number from ${LIMIT_MIN} to ${LIMIT_MAX} (got '${raw}')`);
  const n = BigInt(text);
  if (n < BigInt(LIMIT_MIN)) return { value: LIMIT_MIN, clampedFrom: text };
  if (n > BigInt(LIMIT_MAX)) return { value: LIMIT_MAX, clampedFrom: text };
  return { value: Number(n) };
}

export function parseTier(raw: string): Tier {
  // ASCII case only: toUpperCase() also turns `ſtretch` (long s) and `ﬆretch` (ligature) into STRETCH.
  const tier = raw.trim().replace(/[a-z]/g, (c) => c.toUpperCase()).replace(/-/g, '_');
  if (!(TIERS as readonly string[]).includes(tier)) {
    throw new UsageError(`--tier must be one of ${TIERS.join(', ')} (got '${raw}')`);
  }
  return tier as Tier;
}

export function parseDecided(decided: boolean | undefined, undecided: boolean | undefined): 'true' | 'false' | undefined {
  if (decided && undecided) throw new UsageError('--decided and --undecided cannot be used together');
  return decided ? 'true' : undecided ? 'false' : undefined;
}

export function parseFields(endpoint: Endpoint, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const valid = fieldNames(endpoint);
  const fields = raw.split(',').map((field) => field.trim());
  for (const field of fields) {
    if (!valid.includes(field)) {
      throw new UsageError(`${field === '' ? 'empty field name' : `unknown field '${field}'`} in --fields for ${endpoint.name}; valid fields: ${valid.join(', ')}`);
    }
  }
  const repeated = fields.find((field, i) => fields.indexOf(field) !== i);
  if (repeated) throw new UsageError(`field '${repeated}' appears twice in --fields`);
  return fields;
}

/** A whole number from `min` to `max` (ports, milliseconds, seconds). */
export function parseInteger(flag: string, raw: unknown, min: number, max: number): number {
  const text = String(raw).trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got '${sanitize(String(raw))}')`);
  return n;
}
