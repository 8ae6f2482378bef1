// Base URLs: `https://host` and `https://host/api/v1` are the same API. Plain http is refused
// unless the host is loopback, so a key never crosses a network in clear.
import { isIP } from 'node:net';
import { UsageError } from './errors.js';

const API_PREFIX = '/api/v1';

/** How to set a base URL; `profileFlag` (` --profile NAME` or nothing) makes each command act on the profile in use. */
export function noBaseUrlHint(profileFlag: string): string {
  return `Set one with --base-url URL, CDATA_BASE_URL, \`cdata auth login${profileFlag} --base-url URL\` or \`cdata config set base-url URL${profileFlag}\`; or try \`cdata --sandbox ...\`.`;
}

/** The API origin (plus any path prefix before /api/v1), without a trailing slash. */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`base URL '${raw}' is not a URL: use https://host or https://host/api/v1`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL '${raw}' must start with https://`);
  }
  if (url.username || url.password) {
    throw new UsageError('the base URL must not contain a user name or password: the key is sent in a header');
  }
  if (url.search || url.hash) throw new UsageError(`base URL '${raw}' must not have a query or fragment`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// to ${url.hostname}: the API key would cross the network in clear; use https://`,
      {
        hint: 'http:// is accepted only for loopback hosts (127.0.0.0/8, ::1, localhost), such as a local sandbox.',
      },
    );
  }
  // Runs of slashes are one (`//api/v1` is /api/v1): else the requests would go to //api/v1/...,
  // which the API refuses as not open to keys (exit 4, blaming the key).
  let path = withoutTrailingSlashes(url.pathname.replace(/\/{2,}/g, '/'));
  if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  // Another version (/api/v2), the bare /api, or an endpoint's own URL pasted whole
  // (/api/v1/tenders): not where the API starts, and each request would go astray (a misleading
  // 403 "not open to API keys"). Said now, naming the base URL. A proxy's own prefix (/data) stays.
  if (/(^|\/)api(\/|$)/i.test(path)) {
    throw new UsageError(`base URL '${raw}' is not the API root: cdata adds /api/v1 and each endpoint's path itself`, {
      hint: `Use the API's origin, ${url.origin}, or ${url.origin}${path.replace(/\/api(\/.*)?$/i, '')}/api/v1.`,
    });
  }
  return `${url.origin}${path}`;
}

/**
 * The path without its trailing slashes, in linear time: `/\/+$/` tries every slash of a long
 * run as a start (a base URL of 40,000 slashes and a letter took 2.5 s; config files hold more).
 */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(0, end);
}

/**
 * Loopback by address, never by a name that merely looks like it: `localhost.evil.com` and
 * `127.0.0.1.nip.io` resolve wherever their owner likes. `hostname` is as URL parses it
 * (IPv6 in brackets, IPv4 already canonical).
 */
export function isLoopback(hostname: string): boolean {
  // No trailing-dot leniency: `localhost.` is a fully qualified name that resolvers may send to
  // DNS (IPv4 literals lose the dot when the URL is parsed already).
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
