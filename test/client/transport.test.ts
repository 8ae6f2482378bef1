// The undici transport's own contract (src/client/transport.ts), below the client's retries: a
// request whose signal has already aborted is never sent; a connection is given the time it is
// told to be set up in, and closing the transport ends one still being set up.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { createTransport } from '../../src/client/transport.js';
import { startProxy } from '../helpers/proxy.js';

it('a signal aborted before the send: rejected with its reason, nothing sent', async () => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const transport = createTransport({}, { connectTimeoutMs: 10_000 });
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/me`;
    const reason = new Error('stopped before it began');
    await expect(transport.send({ method: 'GET', url, headers: {}, signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(requests).toBe(0);
    // The transport still sends what is not aborted.
    const answer = await transport.send({ method: 'GET', url, headers: {}, signal: new AbortController().signal });
    expect([answer.status, requests]).toEqual([200, 1]);
  } finally {
    await transport.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that accepts connections and says nothing: a TLS handshake with it never ends. */
async function silentServer(): Promise<{ server: Server; url: string; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  // Read, so that the client's end of a connection is seen (as its close).
  const server = createNetServer((socket) => void sockets.push(socket.on('error', () => undefined).resume()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/me`, sockets };
}

it("a connection not set up within connectTimeoutMs fails then, not at undici's 10 s", async () => {
  const { server, url } = await silentServer();
  const transport = createTransport({}, { connectTimeoutMs: 200 });
  try {
    // Far beyond 200 ms: were the option ignored, this would abort first (undici's own is 10 s).
    const signal = AbortSignal.timeout(8_000);
    await expect(transport.send({ method: 'GET', url, headers: {}, signal })).rejects.toMatchObject({
      code: 'UND_ERR_CONNECT_TIMEOUT',
    });
  } finally {
    await transport.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('through a proxy: the tunnel to the API given connectTimeoutMs too', async () => {
  const { server } = await silentServer();
  const proxy = await startProxy({ tunnelTo: (server.address() as AddressInfo).port });
  const transport = createTransport({ HTTPS_PROXY: proxy.url }, { connectTimeoutMs: 200 });
  try {
    const signal = AbortSignal.timeout(8_000);
    const sent = transport.send({ method: 'GET', url: 'https://api.example.test/api/v1/me', headers: {}, signal });
    await expect(sent).rejects.toMatchObject({ code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(proxy.seen).toEqual(['CONNECT api.example.test:443']);
  } finally {
    await transport.close();
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('close() ends a connection still being set up, which would otherwise outlive the command', async () => {
  const { server, url, sockets } = await silentServer();
  // Longer than the test may run: only close() can end the handshake in time.
  const transport = createTransport({}, { connectTimeoutMs: 600_000 });
  try {
    const attempt = new AbortController();
    const sent = transport.send({ method: 'GET', url, headers: {}, signal: attempt.signal });
    await once(server, 'connection');
    attempt.abort(new Error('given up'));
    await expect(sent).rejects.toThrow('given up');
    await transport.close();
    expect(sockets).toHaveLength(1);
    await (sockets[0]!.closed || once(sockets[0]!, 'close'));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

it("close() ends a tunnel whose TLS is still being set up: the proxy's connection is closed", async () => {
  const { server, sockets } = await silentServer();
  const proxy = await startProxy({ tunnelTo: (server.address() as AddressInfo).port });
  const transport = createTransport({ HTTPS_PROXY: proxy.url }, { connectTimeoutMs: 600_000 });
  try {
    const attempt = new AbortController();
    const sent = transport.send({
      method: 'GET',
      url: 'https://api.example.test/',
      headers: {},
      signal: attempt.signal,
    });
    // The TLS handshake's first message came through: the tunnel is TLS's now, not the proxy client's.
    const [far] = (await once(server, 'connection')) as [Socket];
    await once(far, 'data');
    attempt.abort(new Error('given up'));
    await expect(sent).rejects.toThrow('given up');
    await transport.close();
    // The proxy closes the tunnel's far end once cdata closes its own.
    await (sockets[0]!.closed || once(sockets[0]!, 'close'));
  } finally {
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
