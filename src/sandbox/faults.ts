// Ways a server, a proxy or a network misbehaves, for tests and for integrators trying their own
// clients: each takes over one answer. The sandbox applies `faults(n)` to its n-th request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultName } from './fault-names.js';
import { problemBody } from './problem.js';

export type Fault = (
  req: IncomingMessage,
  res: ServerResponse,
  context: { correlationId: string; now: number },
) => number;

function problem(status: number, detail: string, headers: Record<string, string> = {}): Fault {
  return (_req, res, { correlationId, now }) => {
    const body = JSON.stringify(problemBody(status, detail, correlationId, now));
    res.writeHead(status, {
      'Content-Type': 'application/problem+json',
      'X-Correlation-Id': correlationId,
      ...headers,
    });
    res.end(body);
    return status;
  };
}

export const FAULTS = {
  /** 503 problem+json, as --fail-rate sends. */
  unavailable: problem(503, 'The service is temporarily unavailable; retry with increasing delay.'),
  /** 500 problem+json. */
  internal: problem(500, 'Unexpected server error.'),
  /** 429 with the given Retry-After value (seconds, an HTTP-date, or garbage). */
  tooManyRequests: (retryAfter: string | undefined): Fault =>
    problem(
      429,
      'Too many failed authentication attempts from this address.',
      retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
    ),
  /** 400 problem+json, as for a bad parameter. */
  badRequest: problem(400, "tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'x'."),
  /** Headers and half a JSON body, then the connection is reset. */
  resetMidBody: ((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
    res.write('[{"ocid":"ocds-9t57fa-1","title":"Half');
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
    return 200;
  }) as Fault,
  /** Headers, then nothing, ever (until the client gives up). */
  stallAfterHeaders: ((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    return 200;
  }) as Fault,
  /** A valid answer sent one byte per `intervalMs`. */
  trickle:
    (body: string, intervalMs = 1000): Fault =>
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed || i >= body.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(body[i++]);
      }, intervalMs);
      res.on('close', () => clearInterval(timer));
      return 200;
    },
  /** Content-Length promises more than is sent, then the connection closes. */
  shortContentLength: ((_req, res) => {
    const socket = res.socket; // detached from the response once it ends
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
    res.end('[]');
    setTimeout(() => socket?.destroy(), 10);
    return 200;
  }) as Fault,
  /** A captive portal or misconfigured proxy: HTML with 200. */
  html200: ((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>Sign in to the Wi-Fi</h1></body></html>');
    return 200;
  }) as Fault,
  /** JSON, but an object where the reference promises an array. */
  objectForArray: ((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"items":[]}');
    return 200;
  }) as Fault,
  /** A 200 whose body is not JSON at all, though labelled so. */
  brokenJson: ((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('[{"ocid": "ocds-9t57fa-1",');
    return 200;
  }) as Fault,
  /** An empty list. */
  emptyList: ((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('[]');
    return 200;
  }) as Fault,
  /** A redirect to `location` (another origin, say), which must never be followed. */
  redirect:
    (location: string, status = 302): Fault =>
    (_req, res) => {
      res.writeHead(status, { Location: location, 'Content-Length': '0' });
      res.end();
      return status;
    },
} as const;

/** The faults `cdata sandbox --fault NAME` offers integrators testing their own clients. */
export const NAMED_FAULTS: Record<FaultName, Fault> = {
  unavailable: FAULTS.unavailable,
  internal: FAULTS.internal,
  'too-many-requests': FAULTS.tooManyRequests('30'),
  'bad-request': FAULTS.badRequest,
  'reset-mid-body': FAULTS.resetMidBody,
  'stall-after-headers': FAULTS.stallAfterHeaders,
  'short-content-length': FAULTS.shortContentLength,
  'html-200': FAULTS.html200,
  'object-for-array': FAULTS.objectForArray,
  'broken-json': FAULTS.brokenJson,
  'empty-list': FAULTS.emptyList,
};
