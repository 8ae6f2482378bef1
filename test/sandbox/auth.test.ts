// docs/api-reference.md section 5 (authentication) and part 7 (the problem body): 401 for a missing,
// unknown or revoked key through either header; keys kept only as SHA-256 digests.
// Fewer than 25 failures happen in this file, so the lock-out (lockout.test.ts) never engages.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoKey, digest, keyTable } from '../../src/sandbox/keys.js';
import { useSandbox } from '../helpers/sandbox.js';
import { KEY, NO_KEY, REVOKED, TIMESTAMP, UNAUTHORIZED, UNKNOWN, UNKNOWN_KEY, call, expectProblem } from './http.js';

const NOW = Date.parse('2026-11-22T06:00:00.000Z');
const sandbox = useSandbox({ now: () => NOW });

describe('authentication', () => {
  it.each(['x-api-key', 'bearer'] as const)('accepts a valid key through %s', async (via) => {
    const answer = await call(sandbox.current, '/api/v1/me', { key: KEY.all, via });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(answer.text)).toEqual({
      displayName: 'Sandbox: all scopes',
      tenant: 'Mthembu & Van Wyk Construction (Pty) Ltd',
      roles: ['API'],
      scopes: ['graph.read', 'tenders.read', 'workspaces.read'],
    });
  });

  it('accepts the Bearer scheme in any case, as HTTP auth schemes are', async () => {
    const answer = await call(sandbox.current, '/api/v1/me', { headers: { Authorization: `bearer ${KEY.all}` } });
    expect(answer.status).toBe(200);
  });

  it('answers 401 problem+json with no key at all', async () => {
    expectProblem(await call(sandbox.current, '/api/v1/tenders'), 401, UNAUTHORIZED, NO_KEY);
  });

  it('treats an empty X-API-Key as no key', async () => {
    expectProblem(
      await call(sandbox.current, '/api/v1/tenders', { headers: { 'X-API-Key': '' } }),
      401,
      UNAUTHORIZED,
      NO_KEY,
    );
  });

  it.each(['x-api-key', 'bearer'] as const)('answers 401 for an unknown key through %s', async (via) => {
    expectProblem(
      await call(sandbox.current, '/api/v1/tenders', { key: UNKNOWN_KEY, via }),
      401,
      UNAUTHORIZED,
      UNKNOWN,
    );
  });

  it.each(['x-api-key', 'bearer'] as const)('answers 401 for the revoked key through %s', async (via) => {
    expectProblem(
      await call(sandbox.current, '/api/v1/tenders', { key: KEY.revoked, via }),
      401,
      UNAUTHORIZED,
      REVOKED,
    );
  });

  it.each([['Basic c3ZjX3VzZXI6cGFzcw=='], ['Bearer'], [`Token ${KEY.all}`], [`Bearer ${KEY.all} extra`], [KEY.all]])(
    'answers 401 for a malformed Authorization header (%s), even around a valid key',
    async (authorization) => {
      const answer = await call(sandbox.current, '/api/v1/me', { headers: { Authorization: authorization } });
      expectProblem(answer, 401, UNAUTHORIZED, NO_KEY);
    },
  );

  it('answers 401 for a valid key with different case or a missing prefix (keys are exact)', async () => {
    expectProblem(
      await call(sandbox.current, '/api/v1/me', { key: KEY.all.toUpperCase() }),
      401,
      UNAUTHORIZED,
      UNKNOWN,
    );
    expectProblem(await call(sandbox.current, '/api/v1/me', { key: KEY.all.slice(4) }), 401, UNAUTHORIZED, UNKNOWN);
  });

  it('authenticates before routing: an unlisted path or a POST without a key is a 401', async () => {
    expectProblem(await call(sandbox.current, '/api/v2/tenders'), 401, UNAUTHORIZED, NO_KEY);
    expectProblem(await call(sandbox.current, '/api/v1/tenders', { method: 'POST' }), 401, UNAUTHORIZED, NO_KEY);
  });
});

describe('the problem body', () => {
  it('gives every answer its own correlation id, also on success', async () => {
    const first = await call(sandbox.current, '/api/v1/tenders');
    const second = await call(sandbox.current, '/api/v1/tenders');
    const ok = await call(sandbox.current, '/api/v1/me', { key: KEY.all });
    const ids = [first, second, ok].map((a) => a.headers.get('x-correlation-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("stamps the problem with the sandbox's clock, in UTC with fractional seconds", async () => {
    const body = expectProblem(await call(sandbox.current, '/api/v1/me'), 401, UNAUTHORIZED, NO_KEY);
    expect(body.timestamp).toBe('2026-11-22T06:00:00.000Z');
    expect(body.timestamp).toMatch(TIMESTAMP);
  });

  it('records each request for tests, with the header the key came in', async () => {
    await call(sandbox.current, '/api/v1/agents?x=1', { key: KEY.all, via: 'bearer' });
    const last = sandbox.current.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'GET', path: '/api/v1/agents', status: 200, credential: 'bearer' });
    expect(last.query.get('x')).toBe('1');
  });
});

describe('keys', () => {
  it('are deterministic: svc_ and 32 base62 characters, one per demo key, all different', () => {
    const keys = DEMO_KEYS.map((k) => demoKey(k.id));
    for (const key of keys) expect(key).toMatch(/^svc_[0-9A-Za-z]{32}$/);
    expect(new Set(keys).size).toBe(DEMO_KEYS.length);
    // Pinned: docs and integrators' scripts may name them, so they must not change by accident.
    expect(keys).toEqual([
      'svc_yye8NHLbQcl8kneUo7Umonu30pZSjfpY',
      'svc_iip3o4go3JuuPHeBoiz2dQchABQ2zR2F',
      'svc_99XAJYgZtxAh7iNMFlqS6HwigHWulNAM',
      'svc_2nRLSQ2phV5jTkUe0rTbLeTRXn3m28QT',
      'svc_HoaSj76BVHy769RcRmKVEPmK7nDej1z7',
      'svc_T9ZCYjxMcTj4IJW61FMCKmKyYNPBZMnp',
      'svc_94AqWJoqb6HRjVJkuu46jCvQ6NX0UR1t',
      'svc_QNXGw1byP1jYgqHhcvYiVxfihBVpeoq2',
    ]);
  });

  it('are held only as SHA-256 digests: the key table has no key string anywhere', () => {
    const table = keyTable();
    expect(table.size).toBe(DEMO_KEYS.length);
    for (const [hash, record] of table) {
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).toBe(createHash('sha256').update(demoKey(record.id)).digest('hex'));
    }
    const serialised = JSON.stringify([...table]);
    for (const k of DEMO_KEYS) expect(serialised).not.toContain(demoKey(k.id).slice(4));
    expect(digest(KEY.all)).toBe(createHash('sha256').update(KEY.all, 'utf8').digest('hex'));
  });

  it('one key per combination of scopes (all three, each pair, each one), one revoked', () => {
    expect(DEMO_KEYS.map((k) => [k.id, [...k.scopes], k.revoked])).toEqual([
      ['all', ['graph.read', 'tenders.read', 'workspaces.read'], false],
      ['graph', ['graph.read'], false],
      ['tenders', ['tenders.read'], false],
      ['workspaces', ['workspaces.read'], false],
      ['graph+tenders', ['graph.read', 'tenders.read'], false],
      ['graph+workspaces', ['graph.read', 'workspaces.read'], false],
      ['tenders+workspaces', ['tenders.read', 'workspaces.read'], false],
      ['revoked', ['graph.read', 'tenders.read', 'workspaces.read'], true],
    ]);
  });
});
