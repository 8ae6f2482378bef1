// Data is redacted of the key in use only when the key is long enough to be a real one: a short
// test key (as a local server that ignores keys would take) must not rewrite the data it names.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { run } from '../helpers/run.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))),
  );
});

it('a key of a few characters leaves `name` and `svc_ab` in the data as they are', async () => {
  const body =
    '[{"id":"1","name":"svc_ab and svc_abc","registrationNumber":null,"kind":"CLIENT","notes":"name","createdAt":"2026-11-22T06:00:00.000Z"}]';
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const key of ['svc_ab', 'me']) {
    const result = await run(['companies', '-o', 'ndjson'], { env: { CDATA_BASE_URL: url, CDATA_API_KEY: key } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${body.slice(1, -1)}\n`);
  }
});
