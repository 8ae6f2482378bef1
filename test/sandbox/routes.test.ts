// docs/api-reference.md section 4 rules 4 and 5: any method but GET, and any path not listed, gets 403
// even with a key holding every scope.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/core/endpoints.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FORBIDDEN, KEY, call, expectProblem, rawGet } from './http.js';

const sandbox = useSandbox();

const METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

describe('methods', () => {
  it.each(ENDPOINTS.flatMap((e) => METHODS.map((m) => [m, e.path] as const)))('%s %s: 403', async (method, path) => {
    const answer = await call(sandbox.current, path, {
      method,
      key: KEY.all,
      body: method === 'OPTIONS' ? undefined : '{}',
    });
    expectProblem(
      answer,
      403,
      FORBIDDEN,
      `Method ${method} is not allowed: the API is read-only and accepts GET only.`,
    );
  });

  it.each(ENDPOINTS.map((e) => e.path))('HEAD %s: 403 with the problem headers and no body', async (path) => {
    const answer = await call(sandbox.current, path, { method: 'HEAD', key: KEY.all });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.text).toBe('');
  });

  it('still answers GET after a refused POST with a large body (the body is drained, not read)', async () => {
    const body = 'x'.repeat(256 * 1024);
    expect((await call(sandbox.current, '/api/v1/tenders', { method: 'POST', key: KEY.all, body })).status).toBe(403);
    expect((await call(sandbox.current, '/api/v1/tenders', { key: KEY.all })).status).toBe(200);
  });
});

describe('requests Node cannot parse', () => {
  it('headers over 16 KiB: 431 as problem+json with a correlation id, like every other error', async () => {
    const answer = await rawGet(sandbox.current, '/api/v1/tenders', {
      headers: { 'X-API-Key': KEY.all, 'X-Padding': 'x'.repeat(20 * 1024) },
    });
    expectProblem(
      answer,
      431,
      'Request Header Fields Too Large',
      'The request headers are larger than the server accepts (16 KiB).',
    );
    expect(answer.headers.get('x-correlation-id')).toBe(JSON.parse(answer.text).correlationId);
  });
});

/** What the sandbox answers to `request`, written as it is on a socket of its own. */
function rawExchange(port: number, request: string): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', text = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers();
      for (const line of lines) headers.set(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text });
    });
  });
}

describe('CONNECT, which Node hands to no request handler', () => {
  it('gets 403 as any method but GET does, not a closed connection', async () => {
    const answer = await rawExchange(
      sandbox.current.port,
      `CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\nX-API-Key: ${KEY.all}\r\n\r\n`,
    );
    expectProblem(answer, 403, FORBIDDEN, 'Method CONNECT is not allowed: the API is read-only and accepts GET only.');
    expect(sandbox.current.requests.at(-1)).toMatchObject({ method: 'CONNECT', status: 403 });
  });

  it('with no key, 401 first, as for any method', async () => {
    const answer = await rawExchange(
      sandbox.current.port,
      'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n',
    );
    expect(answer.status).toBe(401);
  });
});

describe('paths not listed', () => {
  it.each([
    '/',
    '/api',
    '/api/v1',
    '/api/v1/',
    '/api/v1/tenders/',
    '/api/v1/me/',
    '/api/v2/tenders',
    '/api/v0/me',
    '/API/V1/TENDERS',
    '/api/v1/graph',
    '/api/v1/graph/companies/d10e897e-3fad-44fe-9cce-6ea6c6b804e9',
    '/api/v1/graph/people',
    '/api/v1/tenders.json',
    '/api/v1/webhooks',
    '/api/v1/keys',
    '/api/v1/agents/tender-scout/invoke',
    '/api/v1/documents/content',
    '/v3/api-docs',
  ])('GET %s: 403', async (path) => {
    expectProblem(
      await call(sandbox.current, path, { key: KEY.all }),
      403,
      FORBIDDEN,
      `${path} is not open to API keys.`,
    );
  });

  // fetch normalises these; node:http sends them as written, as other clients may.
  it.each([
    '//sandbox.example/api/v1/tenders',
    '/api/v1/graph/../tenders',
    '/api/v1/./me',
    'http://sandbox.example/api/v1/me',
  ])('GET %s: 403, never the listed endpoint it resembles', async (path) => {
    const answer = await rawGet(sandbox.current, path, { headers: { 'X-API-Key': KEY.all } });
    expectProblem(answer, 403, FORBIDDEN, `${path} is not open to API keys.`);
  });

  it('a query string does not change the route', async () => {
    expect((await call(sandbox.current, '/api/v1/me?', { key: KEY.all })).status).toBe(200);
    expectProblem(
      await call(sandbox.current, '/api/v1/me/?a=b', { key: KEY.all }),
      403,
      FORBIDDEN,
      '/api/v1/me/ is not open to API keys.',
    );
  });
});
