// docs/api-reference.md sections 4.3 and 5.8: a valid key without the endpoint's scope gets 403 with a
// detail naming the missing scope. Every endpoint x every live demo key (each combination of scopes).
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../src/core/endpoints.js';
import { DEMO_KEYS } from '../../src/sandbox/keys.js';
import { useSandbox } from '../helpers/sandbox.js';
import { BAD_REQUEST, FORBIDDEN, KEY, call, expectProblem } from './http.js';

const sandbox = useSandbox();

const liveKeys = DEMO_KEYS.filter((k) => !k.revoked);
const matrix = (ENDPOINTS as readonly Endpoint[]).flatMap((endpoint) =>
  liveKeys.map((key) => ({ endpoint, key, allowed: key.scopes.includes(endpoint.scope) })),
);

describe('the scope matrix', () => {
  it('covers 9 endpoints x 7 keys (every combination of scopes), 36 of them allowed', () => {
    expect(matrix).toHaveLength(63);
    // Each endpoint needs one scope; of the 7 combinations, 4 hold any given scope.
    expect(matrix.filter((m) => m.allowed)).toHaveLength(36);
  });

  it.each(matrix.map((m) => [m.endpoint.path, m.key.id, m.allowed ? 200 : 403, m] as const))(
    '%s with the %s key: %i',
    async (_path, _id, _status, { endpoint, key, allowed }) => {
      const answer = await call(sandbox.current, endpoint.path, { key: KEY[key.id] });
      if (allowed) {
        expect(answer.status).toBe(200);
        return;
      }
      expectProblem(
        answer,
        403,
        FORBIDDEN,
        `This key lacks the scope ${endpoint.scope}, which ${endpoint.path} requires. Scopes are fixed when a key is created.`,
      );
    },
  );

  it('checks the scope before the parameters: a bad tier with the wrong key is still a 403', async () => {
    const answer = await call(sandbox.current, '/api/v1/tenders?tier=bogus', { key: KEY.graph });
    expectProblem(answer, 403, FORBIDDEN, /lacks the scope tenders\.read/);
    expectProblem(
      await call(sandbox.current, '/api/v1/tenders?tier=bogus', { key: KEY.tenders }),
      400,
      BAD_REQUEST,
      /tier/,
    );
  });

  it('me reports the scopes of the key asking, and needs workspaces.read itself', async () => {
    const answer = await call(sandbox.current, '/api/v1/me', { key: KEY.workspaces });
    expect(JSON.parse(answer.text)).toEqual({
      displayName: 'Sandbox: workspaces.read only',
      tenant: 'Mthembu & Van Wyk Construction (Pty) Ltd',
      roles: ['API'],
      scopes: ['workspaces.read'],
    });
  });
});
