// A tiny recording HTTP proxy on loopback: forwards absolute-URI requests and tunnels CONNECT
// (undici tunnels even http:// targets by default), and remembers what it was asked for.
import { createServer, request, STATUS_CODES } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RecordingProxy {
  url: string;
  /** `GET http://host:port/path` or `CONNECT host:port`, in arrival order. */
  seen: string[];
  /** Everything the proxy could read of each request: its line and headers. */
  raw: string[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Drop each tunnel it cannot open, without an answer (as broken proxies do). */
  dropTunnels?: boolean;
  /** Answer every CONNECT with this status instead of opening the tunnel (407, 403). */
  refuseTunnels?: number;
  /** Open every tunnel to this port on 127.0.0.1, whatever host it asks for (as if the name resolved there). */
  tunnelTo?: number;
}

export async function startProxy(options: ProxyOptions = {}): Promise<RecordingProxy> {
  const seen: string[] = [];
  const raw: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    raw.push(`${req.method} ${req.url}\n${req.rawHeaders.join('\n')}`);
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => sockets.add(socket).size);
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    raw.push(`CONNECT ${req.url}\n${req.rawHeaders.join('\n')}`);
    if (options.refuseTunnels !== undefined) {
      const challenge = options.refuseTunnels === 407 ? 'Proxy-Authenticate: Basic realm="proxy"\r\n' : '';
      client.end(
        `HTTP/1.1 ${options.refuseTunnels} ${STATUS_CODES[options.refuseTunnels]}\r\n${challenge}Content-Length: 0\r\n\r\n`,
      );
      return;
    }
    const { hostname, port } = new URL(`http://${req.url}`);
    const [toPort, toHost] =
      options.tunnelTo === undefined
        ? [Number(port), hostname.replace(/^\[|\]$/g, '')]
        : [options.tunnelTo, '127.0.0.1'];
    const upstream = connect(toPort, toHost, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    // As real proxies do when they cannot reach the target (or, with dropTunnels, as broken ones do).
    upstream.on('error', () =>
      options.dropTunnels ? client.destroy() : client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'),
    );
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    raw,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
