// Retry-After is seconds or an HTTP-date (RFC 9110 10.2.3). Anything else is unusable, and so is
// a negative number: the caller then does not wait blindly.

const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Seconds to wait, or undefined when the header is missing or unusable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (IMF_FIXDATE.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  return undefined;
}
