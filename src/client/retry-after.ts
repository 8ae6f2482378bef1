// Retry-After is seconds or an HTTP-date (RFC 9110 10.2.3). An HTTP-date comes in the preferred
// IMF-fixdate form or, from older servers, the obsolete RFC 850 and asctime forms, which a
// recipient must still accept (RFC 9110 5.6.7). Anything else is unusable, and so is a negative
// number: the caller then does not wait blindly.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})';
/** The three forms, each with its fields in its own order as named groups. */
const HTTP_DATES = [
  new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (?<day>\\d{2}) (?<month>${MONTH}) (?<year>\\d{4}) ${TIME} GMT$`),
  new RegExp(
    `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (?<day>\\d{2})-(?<month>${MONTH})-(?<year>\\d{2}) ${TIME} GMT$`,
  ),
  new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?<month>${MONTH}) (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`),
];

/** Seconds to wait, or undefined when the header is missing or unusable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = parseHttpDate(text, now);
  return at === undefined ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Whether a 429 asking for `wait` seconds is waited out (once, within --max-wait) rather than
 * failed: the client's rule, and export --profiles' for telling a lock-out of the address.
 */
export function waitsOut(wait: number | undefined, maxWaitSeconds: number): wait is number {
  return wait !== undefined && wait <= maxWaitSeconds;
}

/** An HTTP-date in any of its three forms as milliseconds since the epoch (always GMT). */
export function parseHttpDate(text: string, now: number): number | undefined {
  for (const form of HTTP_DATES) {
    const match = form.exec(text);
    if (!match?.groups) continue;
    // Every form has these groups, and each takes part in any match.
    const { day, month, year } = match.groups as Record<'day' | 'month' | 'year', string>;
    const [hour, minute, second] = [match.groups.hour, match.groups.minute, match.groups.second].map(Number) as [
      number,
      number,
      number,
    ];
    // Date.UTC rolls 31 Feb over into March: a date that does not exist is not a date. A leap
    // second (23:59:60) is checked as :59 and counted as the next second.
    const at = Date.UTC(
      fullYear(Number(year), year.length, now),
      MONTHS.indexOf(month),
      Number(day),
      hour,
      minute,
      Math.min(second, 59),
    );
    const real =
      new Date(at).getUTCDate() === Number(day) &&
      hour < 24 &&
      minute < 60 &&
      second < 61 &&
      (second < 60 || (hour === 23 && minute === 59));
    return real ? at + (second - Math.min(second, 59)) * 1000 : undefined;
  }
  return undefined;
}

/**
 * RFC 850's two-digit year, in the hundred years around now (RFC 9110 5.6.7): one that would be
 * more than 50 years ahead is the latest past year ending in those digits, and one 50 or more
 * years back is the next century's.
 */
function fullYear(year: number, digits: number, now: number): number {
  if (digits === 4) return year;
  const current = new Date(now).getUTCFullYear();
  const full = current - (current % 100) + year;
  if (full > current + 50) return full - 100;
  if (full <= current - 50) return full + 100;
  return full;
}
