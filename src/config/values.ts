// How a setting's value is checked, wherever it comes from: a flag, `cdata config set`, or a
// config file edited by hand. One rule each, so a value the one refuses the other refuses too
// (a file holding `"timeout": 1e308` once gave a request no deadline that `config set` refuses).
import { UsageError } from '../errors.js';

/** Longest timeout or wait: a day. Longer is a typo, and past ~24.8 days a Node timer fires at once. */
export const MAX_SECONDS = 86_400;

export function parseFormat<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const format = value.toLowerCase() as T;
  if (!allowed.includes(format)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
  return format;
}

/** Seconds as a user writes them (`30`, `2.5`); no exponents, signs or words. */
export function parseSeconds(flag: string, value: string, zeroAllowed: boolean): number {
  const n = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n) || (!zeroAllowed && n === 0) || n > MAX_SECONDS) {
    throw new UsageError(`${flag} must be a number of seconds ${zeroAllowed ? 'from 0' : 'above 0'} up to ${MAX_SECONDS} (got '${value}')`);
  }
  return n;
}
