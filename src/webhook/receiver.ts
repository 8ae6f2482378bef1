// A webhook receiver that follows the reference's rules, for `cdata webhook listen` and tests:
// the HMAC over the raw bytes before anything is parsed (401 when it fails), then JSON and the
// timestamp (400), then 204 for every valid event, unknown types included (acknowledged and
// ignored). It answers at once, and survives what the internet sends: bodies over 1 MiB get
// 413 without being kept, other methods 405, other paths 404, slow clients 408.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SIGNATURE_HEADER, verify, type Rejection, type WebhookEvent } from './signature.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Headers and body must arrive within this; a delivery is one small POST. */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Only this path accepts deliveries. */
  path: string;
  secret: string;
  toleranceSeconds: number;
  now: () => number;
  onEvent: (event: WebhookEvent) => void;
  /** Every refused request: a failed verification, or 404/405/408/413. */
  onReject: (status: number, message: string, from: string) => void;
  /** How long a client may take to send a whole request (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const server = createServer(
    // Node checks request timeouts on this interval; the default (30 s) would let a slow client
    // hold a connection far longer than REQUEST_TIMEOUT_MS.
    {
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      headersTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(500, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    },
    (req, res) => handle(req, res, options),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    options.onReject(status, status === 408 ? 'the client was too slow' : `malformed request (${error.code ?? error.message})`, (socket as Socket).remoteAddress ?? 'unknown');
    if (socket.writable) socket.end(`HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${options.path}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function handle(req: IncomingMessage, res: ServerResponse, options: ReceiverOptions): void {
  const from = req.socket.remoteAddress ?? 'unknown';
  const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
    options.onReject(status, message, from);
    const body = JSON.stringify({ error: message });
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };

  if ((req.url ?? '/').split('?')[0] !== options.path) return refuse(404, `nothing at ${req.url} (deliveries go to ${options.path})`);
  if (req.method !== 'POST') return refuse(405, `method ${req.method} (deliveries are POST)`, { Allow: 'POST' });
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
    refuse(413, `a body of ${req.headers['content-length']} bytes (more than 1 MiB)`, { Connection: 'close' });
    return void req.destroy();
  }

  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      if (!res.headersSent) refuse(413, 'a body of more than 1 MiB', { Connection: 'close' });
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
    const verdict = verify(options.secret, Buffer.concat(chunks), Array.isArray(header) ? header[0] : header, {
      now: options.now(),
      toleranceSeconds: options.toleranceSeconds,
    });
    if (!verdict.ok) return refuse(verdict.rejection.status, rejectionText(verdict.rejection));
    options.onEvent(verdict.event);
    res.writeHead(204);
    res.end();
  });
  req.on('error', () => undefined); // a client that goes away mid-body: nothing to answer
}

function rejectionText(rejection: Rejection): string {
  return `${rejection.reason}: ${rejection.message}`;
}
