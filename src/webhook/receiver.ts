// A webhook receiver that follows the reference's rules, for `cdata webhook listen` and tests:
// the HMAC over the raw bytes before anything is parsed (401 when it fails), then JSON and the
// timestamp (400), then 204 for every valid event, unknown types included (acknowledged and
// ignored), once onEvent has recorded it: 500 when it could not, 503 with Retry-After when it
// cannot now or has not within ANSWER_WITHIN_MS (an output nobody reads). It answers within
// that, and survives what the internet sends: bodies over 1 MiB get 413 without being kept,
// other methods 405, other paths 404, slow clients 408. Its memory is bounded whatever the
// number of senders: at most MAX_HELD_BYTES of bodies held at once (past it 503 with
// Retry-After), at most MAX_CONNECTIONS open (past it a connection is closed at once).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MAX_BODY_BYTES, SIGNATURE_HEADER, verify, type Rejection, type WebhookEvent } from './signature.js';
/** Headers and body must arrive within this; a delivery is one small POST. */
export const REQUEST_TIMEOUT_MS = 5_000;
/**
 * Bodies held at once, across every request in flight: 32 deliveries of the largest size, and
 * thousands of real ones (a few KB). A request that would go past it gets 503 and is not read;
 * a declared Content-Length counts from the headers on, so a slow sender holds only its share.
 */
export const MAX_HELD_BYTES = 32 * 1024 * 1024;
/** Connections open at once; past it Node closes a new one as soon as it is accepted. */
export const MAX_CONNECTIONS = 256;
/** What a 503 asks the sender to wait: by then every request held now has ended or timed out. */
export const RETRY_AFTER_SECONDS = REQUEST_TIMEOUT_MS / 1000;
/**
 * An event not recorded by then is answered 503 with Retry-After, well within the 5 s the
 * platform waits. Its line may still be printed later (it waits for the reader): an event the
 * platform sends again can then be printed twice, never lost unsaid.
 */
export const ANSWER_WITHIN_MS = 3_000;

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Only this path accepts deliveries. */
  path: string;
  secret: string;
  toleranceSeconds: number;
  now: () => number;
  /**
   * Records the event, then calls `recorded`: only then is it acknowledged (204), and with an
   * error it is a 500. Called back, not a promise: a failed write to stdout is also an 'error'
   * on it, on which the process exits, and only a callback runs before that (bin/cdata.js).
   */
  onEvent: (event: WebhookEvent, recorded: (error?: Error | null) => void) => void;
  /**
   * Whether an event can be recorded now; false (stdout's reader is behind) is a 503 with
   * Retry-After, the event not taken, so what waits to be written stays bounded.
   */
  canRecord?: () => boolean;
  /** Every refused request: a failed verification, or 404/405/408/413/503. */
  onReject: (status: number, message: string, from: string) => void;
  /** A connection closed unanswered: MAX_CONNECTIONS were open already, or it failed to be accepted. */
  onDrop?: (from: string | undefined, why: string) => void;
  /** How long a client may take to send a whole request (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Tests lower these; the product uses ANSWER_WITHIN_MS, MAX_HELD_BYTES and MAX_CONNECTIONS. */
  answerWithinMs?: number;
  maxHeldBytes?: number;
  maxConnections?: number;
}

/** The bytes of bodies held across all requests in flight, against the cap. */
interface Budget {
  held: number;
  readonly max: number;
}

export interface Receiver {
  url: string;
  /** Bytes of bodies held now, across the requests in flight (what MAX_HELD_BYTES caps). */
  held(): number;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const budget: Budget = { held: 0, max: options.maxHeldBytes ?? MAX_HELD_BYTES };
  const server = createServer(
    // Node checks request timeouts on this interval; the default (30 s) would let a slow client
    // hold a connection far longer than REQUEST_TIMEOUT_MS.
    {
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      headersTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(500, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    },
    (req, res) => handle(req, res, options, budget),
  );
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  server.on('drop', (data?: { remoteAddress?: string }) =>
    options.onDrop?.(data?.remoteAddress, `${server.maxConnections} open already, the most it keeps`),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A 503 or an earlier refusal already said it all: nothing more to answer, nor to tell.
    const answered = socket as Socket & { [ANSWERED]?: boolean };
    if (answered[ANSWERED]) return void socket.destroy();
    // The refused request's end as the client closes (HPE_INVALID_EOF_STATE) is no second request.
    answered[ANSWERED] = true;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    options.onReject(
      status,
      status === 408 ? 'the client was too slow' : `malformed request (${error.code ?? error.message})`,
      (socket as Socket).remoteAddress ?? 'unknown',
    );
    if (socket.writable)
      socket.end(
        `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Listening, the server's only error is one accept failing (out of file descriptors): the
  // connection is lost, the receiver goes on.
  server.on('error', (error: NodeJS.ErrnoException) =>
    options.onDrop?.(undefined, `it could not be accepted (${error.code ?? error.message})`),
  );
  const { address, port, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${options.path}`,
    held: () => budget.held,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Marks a socket whose request got its answer before its body was read (a 503), or was refused (clientError). */
const ANSWERED = Symbol('answered early');

function handle(req: IncomingMessage, res: ServerResponse, options: ReceiverOptions, budget: Budget): void {
  const from = req.socket.remoteAddress ?? 'unknown';
  const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
    options.onReject(status, message, from);
    const body = JSON.stringify({ error: message });
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  };

  if ((req.url ?? '/').split('?')[0] !== options.path)
    return refuse(404, `nothing at ${req.url} (deliveries go to ${options.path})`);
  if (req.method !== 'POST') return refuse(405, `method ${req.method} (deliveries are POST)`, { Allow: 'POST' });
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
    refuse(413, `a body of ${req.headers['content-length']} bytes (more than 1 MiB)`, { Connection: 'close' });
    return void req.destroy();
  }

  // What this request holds of the budget: its declared length from the start, or (chunked)
  // what has come so far. Given back however it ends: answered, cut off, timed out.
  let held = 0;
  const hold = (bytes: number) => {
    if (budget.held + bytes > budget.max) return false;
    budget.held += bytes;
    held += bytes;
    return true;
  };
  const release = () => {
    budget.held -= held;
    held = 0;
  };
  req.on('close', release);
  // Answered 503 and not kept: the sender sees the answer, and what it still sends is read and
  // dropped (closing at once would reset the connection and could lose the answer).
  const busy = () => {
    // What is held, this request's own chunks so far included, before they are given back.
    const text = `busy: ${sizeText(budget.held)} of bodies held, and this one would go past ${sizeText(budget.max)}; retry after ${RETRY_AFTER_SECONDS} s`;
    release();
    const socket = req.socket as Socket & { [ANSWERED]?: boolean };
    socket[ANSWERED] = true;
    req.once('end', () => (socket[ANSWERED] = false)); // the connection may carry another request
    refuse(503, text, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  };
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && !hold(declared)) return busy();

  let chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (res.headersSent) return; // refused already: read and dropped
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refuse(413, 'a body of more than 1 MiB', { Connection: 'close' });
      req.destroy();
      return;
    }
    if (declared === undefined && !hold(chunk.length)) {
      chunks = [];
      return busy();
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
    chunks = [];
    release();
    if (!verdict.ok) return refuse(verdict.rejection.status, rejectionText(verdict.rejection));
    const later = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
    if (options.canRecord?.() === false)
      return refuse(503, 'the event cannot be recorded now: its output is not being read', later);
    // Acknowledged once recorded: an event that could not be (stdout on a full disk, a reader
    // gone) gets a 500, so the platform shows the delivery as failed instead of lost.
    const waitMs = options.answerWithinMs ?? ANSWER_WITHIN_MS;
    const deadline = setTimeout(() => {
      if (!res.headersSent && !res.destroyed)
        refuse(503, `the event was not recorded within ${waitMs / 1000} s: its output is not being read`, later);
    }, waitMs).unref(); // a receiver stopped (Ctrl-C) does not wait for it
    options.onEvent(verdict.event, (error) => {
      clearTimeout(deadline);
      if (res.headersSent || res.destroyed) return;
      if (error) return refuse(500, `the event could not be recorded (${error.message})`);
      res.writeHead(204);
      res.end();
    });
  });
  req.on('error', () => undefined); // a client that goes away mid-body: nothing to answer
}

/** 33554432 -> "32 MiB", 2800 -> "2.7 KiB": to a tenth. */
function sizeText(bytes: number): string {
  const [amount, unit] =
    bytes >= 1024 * 1024 ? [bytes / 1024 / 1024, 'MiB'] : bytes >= 1024 ? [bytes / 1024, 'KiB'] : [bytes, 'bytes'];
  return `${Math.round(amount * 10) / 10} ${unit}`;
}

function rejectionText(rejection: Rejection): string {
  return `${rejection.reason}: ${rejection.message}`;
}
