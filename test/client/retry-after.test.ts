// Retry-After as a user meets it (exit 5 and 6 say how long cdata waited): the seconds form with
// the padding a proxy may add, and every HTTP-date a server may send, month by month, with the
// times that do not exist refused rather than waited for. test/client/retry.test.ts runs the
// waits themselves against the sandbox.
import { describe, expect, it } from 'vitest';
import { parseHttpDate, parseRetryAfter } from '../../src/client/retry-after.js';

const NOW = Date.UTC(2026, 10, 22, 6);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('parseRetryAfter', () => {
  it('seconds, padding around them ignored', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter(' 120\t', NOW)).toBe(120);
    expect(parseRetryAfter('0', NOW)).toBe(0);
  });

  it('missing, negative, fractional or followed by anything: unusable', () => {
    for (const value of [undefined, '', '-5', '1.5', '3 s', '3s', '10, 20', 'soon'])
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('an HTTP-date: seconds from now, rounded up; one in the past is no wait', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 06:00:20 GMT', NOW + 500)).toBe(20);
    expect(parseRetryAfter('Sun, 22 Nov 2026 05:59:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 06:00:61 GMT', NOW)).toBeUndefined();
  });
});

describe('parseHttpDate', () => {
  it.each(MONTHS.map((month, index) => [month, index]))('%s, in each of the three forms', (month, index) => {
    const at = Date.UTC(2026, index as number, 9, 7, 8, 9);
    expect(parseHttpDate(`Fri, 09 ${month} 2026 07:08:09 GMT`, NOW)).toBe(at);
    expect(parseHttpDate(`Friday, 09-${month}-26 07:08:09 GMT`, NOW)).toBe(at);
    expect(parseHttpDate(`Fri ${month}  9 07:08:09 2026`, NOW)).toBe(at);
  });

  it.each([
    ['a day the month does not have', 'Tue, 31 Nov 2026 06:00:00 GMT'],
    ['hour 24', 'Mon, 23 Nov 2026 24:00:00 GMT'],
    ['minute 60, though the day stays the same', 'Sun, 22 Nov 2026 12:60:00 GMT'],
    ['second 61, even at the end of a day', 'Sun, 22 Nov 2026 23:59:61 GMT'],
    ['second 60 in the last hour but not its last minute', 'Sun, 22 Nov 2026 23:00:60 GMT'],
    ['second 60 in a last minute but not of the last hour', 'Sun, 22 Nov 2026 12:59:60 GMT'],
    ['a month name in another case', 'Sun, 22 NOV 2026 06:00:00 GMT'],
    ['a zone other than GMT', 'Sun, 22 Nov 2026 06:00:00 UTC'],
    ['text after the date', 'Sun, 22 Nov 2026 06:00:00 GMT, later'],
  ])('refused: %s', (_what, text) => {
    expect(parseHttpDate(text, NOW)).toBeUndefined();
  });

  it('a leap second at the end of a day is the next second', () => {
    expect(parseHttpDate('Thu, 31 Dec 2026 23:59:60 GMT', NOW)).toBe(Date.UTC(2027, 0, 1));
  });
});
