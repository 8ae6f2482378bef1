// A tiny HTTP server on 127.0.0.1, port 0, for answers no faithful sandbox would give: echoes
// of the key, bodies built to be slow to parse, more rows than asked for. Each is closed after
// its test. And the hostile bodies themselves.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Hostile {
  url: string;
  /** Requests received so far. */
  requests: IncomingMessage[];
}

/** Starts servers inside a test; every one is closed after it. */
export function useHostileServers(): (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
) => Promise<Hostile> {
  const open: Server[] = [];
  afterEach(async () => {
    await Promise.all(
      open.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });
  return async (handler) => {
    const requests: IncomingMessage[] = [];
    const server = createServer((req, res) => {
      requests.push(req);
      req.resume();
      handler(req, res);
    });
    open.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
  };
}

/** An answer of `status` with `body` (a string or bytes) and JSON's content type. */
export function answer(status: number, body: string | Buffer, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, {
      'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    });
    res.end(body);
  };
}

/** `"` then `pairs` escaped quotes, never closed: what made the old number scan quadratic. */
export const unterminatedEscapes = (pairs: number) => `"${'\\"'.repeat(pairs)}`;

/** An array nested `depth` levels deep, inside one row. */
export const deepRow = (depth: number) => `[{"a":${'['.repeat(depth)}${']'.repeat(depth)}}]`;

/** A list of `rows` empty objects. */
export const emptyRows = (rows: number) => `[${Array.from({ length: rows }, () => '{}').join(',')}]`;
