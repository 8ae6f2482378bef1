// Hostile problem details (the API's text reaches stderr): the error line never carries a raw
// control character, and under -o json the JSON error line parses and holds the detail exactly.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { hostileText, RAW_UNSAFE } from './arbitraries.js';

let detail = '';
const server = createServer((_req, res) => {
  const body = JSON.stringify({
    type: 'about:blank',
    title: 'Forbidden',
    status: 403,
    detail,
    correlationId: 'c0ffee00-0000-4000-8000-000000000001',
    timestamp: '2026-11-22T06:00:00.000Z',
  });
  res.writeHead(403, {
    'Content-Type': 'application/problem+json',
    'X-Correlation-Id': 'c0ffee00-0000-4000-8000-000000000001',
  });
  res.end(body);
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('any detail: a clean error line, and an exact JSON error line', async () => {
  await fc.assert(
    fc.asyncProperty(
      hostileText.filter((t) => t.trim() !== ''),
      async (text) => {
        detail = text;
        const result = await run(['tenders', '-o', 'json'], {
          env: { CDATA_BASE_URL: baseUrl, CDATA_API_KEY: 'svc_propertytestkey0123456789' },
        });
        expect(result.code).toBe(4);
        const lines = result.stderr.trimEnd().split('\n');
        for (const line of lines) expect(line).not.toMatch(RAW_UNSAFE);
        expect(lines[0]).toMatch(/ \(HTTP 403, correlation id c0ffee00-0000-4000-8000-000000000001\)$/);
        const json = JSON.parse(lines[lines.length - 1]!) as {
          error: { detail: string; status: number; exitCode: number };
        };
        // Exactly, lone surrogates included: the server's JSON escapes them, and so does cdata's.
        expect(json.error).toMatchObject({ status: 403, exitCode: 4, detail: text });
        expect(result.stdout).toBe('');
      },
    ),
    { numRuns: 60 },
  );
});
