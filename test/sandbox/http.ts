// Real HTTP to a sandbox, and the checks every conformance test shares: the problem+json body
// and header of part 7, and the timestamp shape of part 2.
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { demoKey, type DemoKey } from '../../src/sandbox/keys.js';
import type { Sandbox } from '../../src/sandbox/server.js';

/** UTC with fractional seconds and a trailing Z (docs/api-reference.md section 2). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/;

export const KEY = {
  all: demoKey('all'),
  graph: demoKey('graph'),
  tenders: demoKey('tenders'),
  workspaces: demoKey('workspaces'),
  'graph+tenders': demoKey('graph+tenders'),
  'graph+workspaces': demoKey('graph+workspaces'),
  'tenders+workspaces': demoKey('tenders+workspaces'),
  revoked: demoKey('revoked'),
} satisfies Record<DemoKey['id'], string>;

/** A key in the right shape that the sandbox has never issued. */
export const UNKNOWN_KEY = 'svc_00000000000000000000000000000000';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  /** Sent as `X-API-Key` (default) or `Authorization: Bearer`. */
  key?: string;
  via?: 'x-api-key' | 'bearer';
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export async function call(sandbox: Sandbox, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    if (options.via === 'bearer') headers.Authorization = `Bearer ${options.key}`;
    else headers['X-API-Key'] = options.key;
  }
  const response = await fetch(`${sandbox.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** GET with a key, expecting 200: the parsed body. */
export async function getJson<T = Row[]>(sandbox: Sandbox, path: string, key: string = KEY.all): Promise<T> {
  const answer = await call(sandbox, path, { key });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/json');
  return JSON.parse(answer.text) as T;
}

export type Row = Record<string, unknown>;

/**
 * GET over node:http, for what fetch cannot do: a request target fetch would normalise
 * (`//x/...`, `..`) or a chosen source address (the lock-out is per address).
 */
export function rawGet(
  sandbox: Sandbox,
  path: string,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: sandbox.port, path, headers: options.headers, localAddress: options.localAddress },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers, text });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Checks a problem+json answer: the status, the content type, exactly the six fields, the title
 * as the reason phrase, the correlation id header equal to the body's, and the timestamp shape.
 * `detail` is matched exactly (string) or by pattern. Returns the body.
 */
export function expectProblem(
  answer: Answer,
  status: number,
  title: string,
  detail: string | RegExp,
): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['correlationId', 'detail', 'status', 'timestamp', 'title', 'type']);
  expect(body).toMatchObject({ type: 'about:blank', title, status });
  if (typeof detail === 'string') expect(body.detail).toBe(detail);
  else expect(body.detail).toMatch(detail);
  expect(body.correlationId).toEqual(expect.any(String));
  expect(answer.headers.get('x-correlation-id')).toBe(body.correlationId);
  expect(body.timestamp).toMatch(TIMESTAMP);
  return body;
}

export const UNAUTHORIZED = 'Unauthorized';
export const FORBIDDEN = 'Forbidden';
export const BAD_REQUEST = 'Bad Request';
export const NO_KEY = 'No API key: send it in the X-API-Key header or as Authorization: Bearer.';
export const UNKNOWN = 'Unknown API key.';
export const REVOKED = 'This API key has been revoked.';
