// A local implementation of the whole API reference on node:http, for demos, integrators'
// tests and this project's tests. Routes come from the endpoint table; the order of checks
// follows the reference: lock-out, authentication (401), method and path (403), scope (403),
// parameters (400), then the data.
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS } from '../core/endpoints.js';
import { sleep } from '../io/index.js';
import { stringifyJson } from '../core/json.js';
import type { JsonValue } from '../core/json-value.js';
import { ANSWERS } from './answers.js';
import type { DemoData } from './data.js';
import { sandboxData } from './days.js';
import { digest, keyTable } from './keys.js';
import { problemBody } from './problem.js';
import type { Fault } from './faults.js';
import { Lockout } from './lockout.js';
import { queryError } from './query.js';

export interface SandboxOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number;
  /** Share of requests (0..1) answered 503 before anything else is checked. */
  failRate?: number;
  /** The sandbox's clock in ms since the epoch: timestamps, runwayDays and the lock-out window. */
  now?: () => number;
  /**
   * The demo data's day: 0 (the default) as generated; each day after adds, changes and removes
   * some rows, the same way every time (./days.ts), for trying change detection. 0 to 365.
   */
  day?: number;
  random?: () => number;
  /**
   * A fault to apply to the n-th request (0-based), replacing its answer; undefined answers
   * normally. See ./faults.ts.
   */
  faults?: (index: number, request: IncomingMessage) => Fault | undefined;
  /** Called after each answer (cdata sandbox logs them on stderr). */
  onRequest?: (request: SandboxRequest) => void;
  /**
   * Whether `requests` keeps every request (the default, for tests). `cdata sandbox` keeps none:
   * it may serve for days, and a record kept forever is memory that only grows.
   */
  keepRequests?: boolean;
}

/** One request as the sandbox saw it: tests count attempts and check what was sent. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
  credential: 'x-api-key' | 'bearer' | 'none';
  correlationId: string;
}

export interface Sandbox {
  /** Origin, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  data: DemoData;
  /** Every request so far, in order (none with `keepRequests: false`). */
  requests: SandboxRequest[];
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: JsonValue;
  headers?: Record<string, string>;
}

const ROUTES = new Map(ENDPOINTS.map((e) => [e.path as string, e]));

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const keys = keyTable();
  const lockout = new Lockout();
  const data = sandboxData(now(), options.day ?? 0);
  const requests: SandboxRequest[] = [];
  let served = 0;

  const decide = (req: IncomingMessage, record: SandboxRequest): Answer => {
    const problem = (status: number, detail: string, headers?: Record<string, string>): Answer => ({
      status,
      headers,
      body: problemBody(status, detail, record.correlationId, now()),
    });

    if ((options.failRate ?? 0) > 0 && random() < options.failRate!) {
      return problem(503, 'The service is temporarily unavailable; retry with increasing delay.');
    }

    const presented = credential(req);
    record.credential = presented.via;
    const address = req.socket.remoteAddress ?? 'unknown';
    if (presented.via !== 'none') {
      const wait = lockout.retryAfterSeconds(address, now());
      if (wait > 0) {
        return problem(429, `Too many failed authentication attempts from this address; retry after ${wait} seconds.`, {
          'Retry-After': String(wait),
        });
      }
    }
    if (presented.key === undefined) {
      return problem(401, 'No API key: send it in the X-API-Key header or as Authorization: Bearer.');
    }
    const key = keys.get(digest(presented.key));
    if (!key || key.revoked) {
      lockout.recordFailure(address, now());
      return problem(401, key ? 'This API key has been revoked.' : 'Unknown API key.');
    }
    if (req.method !== 'GET') {
      return problem(403, `Method ${req.method} is not allowed: the API is read-only and accepts GET only.`);
    }
    const endpoint = ROUTES.get(record.path);
    if (!endpoint) return problem(403, `${record.path} is not open to API keys.`);
    if (!key.scopes.includes(endpoint.scope)) {
      return problem(
        403,
        `This key lacks the scope ${endpoint.scope}, which ${endpoint.path} requires. Scopes are fixed when a key is created.`,
      );
    }
    const invalid = queryError(endpoint, record.query);
    if (invalid) return problem(400, invalid);
    return { status: 200, body: ANSWERS[endpoint.name]({ endpoint, query: record.query, key, data, now: now() }) };
  };

  /** The request, as kept in `requests`, its status set once answered. */
  const recorded = (req: IncomingMessage): SandboxRequest => {
    const { path, query } = requestTarget(req.url ?? '/');
    const record: SandboxRequest = {
      method: req.method ?? 'GET',
      path,
      query,
      status: 0,
      credential: 'none',
      correlationId: randomUUID(),
    };
    if (options.keepRequests !== false) requests.push(record);
    return record;
  };

  const server = createServer((req, res) => {
    const fault = options.faults?.(served++, req);
    const record = recorded(req);
    // The body is never read (every endpoint is a GET), but it must be drained.
    req.resume();
    void (async () => {
      if (options.latencyMs) await sleep(options.latencyMs);
      if (fault) {
        record.status = fault(req, res, { correlationId: record.correlationId, now: now() });
        options.onRequest?.(record);
        return;
      }
      const result = decide(req, record);
      record.status = result.status;
      send(res, result, record.correlationId);
      options.onRequest?.(record);
    })();
  });

  // A request Node cannot parse (headers over 16 KiB, a malformed request line, a method Node
  // does not know) gets a problem+json answer with a correlation id like every other error, not
  // Node's bare one.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const correlationId = randomUUID();
    const detail =
      status === 431
        ? 'The request headers are larger than the server accepts (16 KiB).'
        : 'The request could not be parsed as HTTP/1.1.';
    socket.end(rawAnswer({ status, body: problemBody(status, detail, correlationId, now()) }, correlationId));
  });

  // CONNECT (a tunnel, as a proxy is asked for): Node hands it here rather than to the request
  // handler, and would close it unanswered. A method other than GET, it is answered as one is.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const record = recorded(req);
    const result = decide(req, record);
    record.status = result.status;
    socket.end(rawAnswer(result, record.correlationId));
    options.onRequest?.(record);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address, family } = server.address() as AddressInfo;
  // Listening on every interface (0.0.0.0, ::), it is reached here over loopback: the URL a
  // client on this machine can use (cdata sends plain http:// to loopback only).
  const host =
    address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '[::1]' : family === 'IPv6' ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}`,
    port,
    data,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The path exactly as sent, and the query. Not `new URL(target, base)`: that resolves `..` and
 * reads `//host/api/v1/me` as a host and a path, so unlisted paths would reach listed endpoints.
 */
function requestTarget(target: string): { path: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  if (mark === -1) return { path: target, query: new URLSearchParams() };
  return { path: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}

function credential(req: IncomingMessage): { via: SandboxRequest['credential']; key?: string } {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return { via: 'x-api-key', key: header };
  const authorization = req.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match ? { via: 'bearer', key: match[1]! } : { via: 'bearer' };
  }
  return { via: 'none' };
}

/** An answer written straight to a socket, which then closes: for what never reaches a ServerResponse. */
function rawAnswer(result: Answer, correlationId: string): string {
  const { body, headers } = answerParts(result, correlationId);
  const lines = Object.entries({ ...headers, Connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${result.status} ${STATUS_CODES[result.status]}\r\n${lines.join('')}\r\n${body}`;
}

function send(res: ServerResponse, result: Answer, correlationId: string): void {
  const { body, headers } = answerParts(result, correlationId);
  res.writeHead(result.status, headers);
  res.end(body);
}

/** An answer's body and the headers every answer carries, its own after them. */
function answerParts(result: Answer, correlationId: string): { body: string; headers: Record<string, string> } {
  const body = stringifyJson(result.body);
  const headers = {
    'Content-Type': result.status === 200 ? 'application/json' : 'application/problem+json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Correlation-Id': correlationId,
    ...result.headers,
  };
  return { body, headers };
}
