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
  const result = await run(['companies', '-o', 'ndjson'], { env: { CDATA_BASE_URL: url, CDATA_API_KEY: 'svc_ab' } });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${body.slice(1, -1)}\n`);
});

// Every API key starts with svc_: another would only come back 401, and count toward the API's
// lock-out of the address (25 failed attempts in 15 minutes). A server that ignores keys is no
// exception: cdata cannot tell it from the API.
it.each([
  ['a key without svc_', 'notsvc_abcdefghijklmnop', 'does not start with svc_, as every API key does'],
  ['svc_ alone', 'svc_', 'holds nothing after svc_'],
  // A start of the prefix is no secret: redacted, each svc_ of the message read svc_***_.
  ['a start of svc_', 'svc', 'does not start with svc_, as every API key does'],
])('%s is refused before any request, said as it is: exit 3', async (_what, key, why) => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(401).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const result = await run(['companies'], { env: { CDATA_BASE_URL: url, CDATA_API_KEY: key } });
  expect(result).toMatchObject({
    code: 3,
    stdout: '',
    stderr:
      `error: the API key in CDATA_API_KEY ${why}\n` +
      'hint: Set it again exactly as shown when it was created: svc_ followed by letters and digits, no spaces or line breaks.\n',
  });
  expect(requests).toBe(0);
});
