// Values as users type them (flags, `config set`, a hand-edited config file), each checked by one
// rule wherever it comes from: a bad one is a usage error naming what was expected, and the value
// is shown escaped (it came from argv or a file).
import { UsageError, hintOf } from './errors.js';
import { sanitize } from './sanitize.js';
import { didYouMean } from './similar.js';

/** A whole number from `min` to `max` (ports, milliseconds, retries, seconds). */
export function parseInteger(flag: string, raw: string, min: number, max: number): number {
  const text = raw.trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got '${sanitize(raw)}')`);
  return n;
}

/** A share from 0 to 1 (`0.1`, `.5`, `1`). */
export function parseShare(flag: string, raw: string): number {
  const n = /^\d*\.?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`${flag} must be a number from 0 to 1 (got '${sanitize(raw)}')`);
  return n;
}

/** One of `allowed`, in any case (formats, colour modes). */
export function parseChoice<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  return parseName(value.toLowerCase(), allowed, flag, value);
}

/** Exactly one of `allowed` (names such as a fault's). */
export function parseName<T extends string>(value: string, allowed: readonly T[], flag: string, typed = value): T {
  const found = allowed.find((name) => name === value);
  if (found === undefined)
    throw new UsageError(
      `${flag} must be one of ${allowed.join(', ')} (got '${sanitize(typed)}')`,
      hintOf(didYouMean(value, allowed)),
    );
  return found;
}

/** Longest timeout or wait: a day. Longer is a typo, and past ~24.8 days a Node timer fires at once. */
export const MAX_SECONDS = 86_400;

/** Seconds as a user writes them (`30`, `2.5`; no exponents, signs or words), above 0 (or from 0) up to a day. */
export function parseSeconds(flag: string, value: string, zeroAllowed: boolean): number {
  const n = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n) || (!zeroAllowed && n === 0) || n > MAX_SECONDS) {
    throw new UsageError(
      `${flag} must be a number of seconds ${zeroAllowed ? 'from 0' : 'above 0'} up to ${MAX_SECONDS} (got '${value}')`,
    );
  }
  return n;
}
