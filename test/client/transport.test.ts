// The undici transport's own contract (src/client/transport.ts), below the client's retries: a
// request whose signal has already aborted is never sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createTransport } from '../../src/client/transport.js';

it('a signal aborted before the send: rejected with its reason, nothing sent', async () => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const transport = createTransport({});
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
