// Faults a hostile or broken server might send, built on the sandbox's fault hook: they echo the
// key they were sent, or put terminal escape sequences in their answers.
import type { IncomingMessage } from 'node:http';
import type { Fault } from '../../src/sandbox/faults.js';

/** Escape sequences and control characters of every kind cdata must not pass to a terminal. */
export const NASTY =
  'A\u001b[31mred\u001b[0m \u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007 \u009b2J \u007f \u0085 \u202eevil\u202c \u0008 end';

const keyOf = (req: IncomingMessage) => String(req.headers['x-api-key'] ?? '');

/**
 * An error answer whose detail, title, correlation id and Location are made by `text` from the
 * key the request carried (so a test can echo the key, or send NASTY everywhere).
 */
export function problemWith(status: number, text: (key: string) => string): Fault {
  return (req, res, { now }) => {
    const said = text(keyOf(req));
    res.writeHead(status, {
      'Content-Type': 'application/problem+json',
      'X-Correlation-Id': encodeURIComponent(said),
      Location: `https://elsewhere.example/${encodeURIComponent(said)}`,
    });
    res.end(
      JSON.stringify({
        type: 'about:blank',
        title: `Title ${said}`,
        status,
        detail: `Detail ${said}`,
        correlationId: said,
        timestamp: new Date(now).toISOString(),
      }),
    );
    return status;
  };
}

/** A redirect whose Location carries `text(key)` raw (header-safe characters only). */
export function redirectWith(text: (key: string) => string): Fault {
  return (req, res) => {
    res.writeHead(302, { Location: `https://elsewhere.example/?k=${text(keyOf(req))}`, 'Content-Length': '0' });
    res.end();
    return 302;
  };
}

/** A 200 of HTML that shows `text(key)`. */
export function htmlWith(text: (key: string) => string): Fault {
  return (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<p>${text(keyOf(req))}</p>`);
    return 200;
  };
}
