// docs/api-reference.md section 4 (query parameters, ordering) and part 8 (rows per list): 400 for a
// value not allowed, limit clamped to 1..200, defaults, newest first, tenders best tier first,
// the filters, and unknown parameters ignored.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, LIST_ENDPOINTS, TIERS, findEndpoint, type Endpoint } from '../../src/core/endpoints.js';
import { selectRows } from '../../src/sandbox/query.js';
import { useSandbox } from '../helpers/sandbox.js';
import { BAD_REQUEST, KEY, call, expectProblem, getJson, type Row } from './http.js';

// A fixed clock: tenders carry runwayDays, so two answers are comparable only on the same day.
const sandbox = useSandbox({ now: () => Date.parse('2026-11-22T06:00:00.000Z') });

const GRAPH = ENDPOINTS.filter((e) => e.path.startsWith('/api/v1/graph/'));
const TENDERS = '/api/v1/tenders';

describe('400 for a value that is not allowed', () => {
  it.each<[path: string, detail: string]>([
    [`${TENDERS}?tier=bogus`, "tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'bogus'."],
    [`${TENDERS}?tier=recommended`, "tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'recommended'."],
    [`${TENDERS}?tier=WORTH-A-LOOK`, "tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got 'WORTH-A-LOOK'."],
    [`${TENDERS}?tier=`, "tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH; got ''."],
    [`${TENDERS}?decided=yes`, "decided must be true or false; got 'yes'."],
    [`${TENDERS}?decided=1`, "decided must be true or false; got '1'."],
    [`${TENDERS}?decided=TRUE`, "decided must be true or false; got 'TRUE'."],
    [`${TENDERS}?decided=`, "decided must be true or false; got ''."],
    [`${TENDERS}?limit=abc`, "limit must be an integer from 1 to 200; got 'abc'."],
    [`${TENDERS}?limit=1.5`, "limit must be an integer from 1 to 200; got '1.5'."],
    [`${TENDERS}?limit=`, "limit must be an integer from 1 to 200; got ''."],
    [`${TENDERS}?limit=1e2`, "limit must be an integer from 1 to 200; got '1e2'."],
    [`${TENDERS}?limit=0x10`, "limit must be an integer from 1 to 200; got '0x10'."],
    [`${TENDERS}?limit=%205`, "limit must be an integer from 1 to 200; got ' 5'."],
    ...GRAPH.flatMap((e) =>
      ['abc', '1.5', ''].map((v): [string, string] => [
        `${e.path}?limit=${v}`,
        `limit must be an integer from 1 to 200; got '${v}'.`,
      ]),
    ),
  ])('GET %s', async (path, detail) => {
    expectProblem(await call(sandbox.current, path, { key: KEY.all }), 400, BAD_REQUEST, detail);
  });
});

describe('limit', () => {
  it.each([
    ['0', 1],
    ['1', 1],
    ['2', 2],
    ['200', 200],
    ['201', 200],
    ['-5', 1],
    ['%2B5', 5], // +5: a plus sign, URL-encoded (a bare + is a space)
    ['007', 7],
    ['99999999999999999999', 200],
    ['-99999999999999999999', 1],
  ])('limit=%s on obligations (240 rows) gives %i rows', async (limit, rows) => {
    expect(await getJson(sandbox.current, `/api/v1/graph/obligations?limit=${limit}`)).toHaveLength(rows);
  });

  it.each([
    ['0', 1],
    ['201', 64],
    ['99999999999999999999', 64],
  ])('limit=%s on tenders (64 rows) gives %i rows', async (limit, rows) => {
    expect(await getJson(sandbox.current, `${TENDERS}?limit=${limit}`)).toHaveLength(rows);
  });

  it('a limit returns the newest rows, the first of the full list', async () => {
    const all = await getJson(sandbox.current, '/api/v1/graph/obligations?limit=200');
    expect(await getJson(sandbox.current, '/api/v1/graph/obligations?limit=7')).toEqual(all.slice(0, 7));
  });

  it('defaults to 100 on the graph lists and 50 on tenders (docs/sandbox.md says why)', async () => {
    expect(await getJson(sandbox.current, '/api/v1/graph/obligations')).toHaveLength(100);
    expect(await getJson(sandbox.current, TENDERS)).toHaveLength(50);
    for (const endpoint of GRAPH) {
      const rows = sandbox.current.data.rows[endpoint.name as keyof typeof sandbox.current.data.rows];
      expect(await getJson(sandbox.current, endpoint.path)).toHaveLength(Math.min(100, rows.length));
    }
  });

  it('lists without a limit parameter return everything up to 200 rows', async () => {
    for (const endpoint of LIST_ENDPOINTS.filter((e) => !e.params.some((p) => p.name === 'limit'))) {
      const rows = sandbox.current.data.rows[endpoint.name as keyof typeof sandbox.current.data.rows];
      expect(await getJson(sandbox.current, endpoint.path)).toHaveLength(rows.length);
    }
    // The demo lists without limit are short, so check the cap on a long one directly.
    const agents = findEndpoint('agents')!;
    const many = Array.from({ length: 300 }, (_, i) => ({ name: `agent-${i}` }));
    expect(selectRows(agents, many, new URLSearchParams())).toHaveLength(200);
    expect(selectRows(agents, many, new URLSearchParams('limit=5'))).toHaveLength(200);
  });

  it('limit on an endpoint that does not take it is ignored, even when not an integer', async () => {
    expect(await getJson(sandbox.current, '/api/v1/agents?limit=abc')).toEqual(
      await getJson(sandbox.current, '/api/v1/agents'),
    );
    expect(await getJson(sandbox.current, '/api/v1/me?limit=abc')).toMatchObject({ roles: ['API'] });
  });
});

describe('order', () => {
  it.each(GRAPH.map((e) => [e.path, e] as const))(
    '%s: newest first by createdAt',
    async (_path, endpoint: Endpoint) => {
      const rows = await getJson(sandbox.current, `${endpoint.path}?limit=200`);
      expect(rows.length).toBeGreaterThan(1);
      const times = rows.map((r) => Date.parse(r.createdAt as string));
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]!);
    },
  );

  it('tenders: best tier first, then highest score', async () => {
    const rows = await getJson(sandbox.current, `${TENDERS}?limit=200`);
    const tierRank = rows.map((r) => TIERS.indexOf(r.tier as never));
    expect(tierRank.every((t) => t >= 0)).toBe(true);
    expect(new Set(tierRank)).toEqual(new Set([0, 1, 2]));
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(tierRank[i]).toBeGreaterThanOrEqual(tierRank[i - 1]!);
      if (a.tier === b.tier) expect(b.score as number).toBeLessThanOrEqual(a.score as number);
    }
  });
});

describe('filters', () => {
  const all = () => getJson(sandbox.current, `${TENDERS}?limit=200`);
  const matching = (rows: Row[], keep: (r: Row) => boolean) => rows.filter(keep);

  it.each(TIERS)('tier=%s gives exactly that tier, in order', async (tier) => {
    const rows = await getJson(sandbox.current, `${TENDERS}?tier=${tier}&limit=200`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(matching(await all(), (r) => r.tier === tier));
  });

  it.each([
    ['true', (r: Row) => r.decision !== null],
    ['false', (r: Row) => r.decision === null],
  ])('decided=%s gives exactly that subset', async (decided, keep) => {
    const rows = await getJson(sandbox.current, `${TENDERS}?decided=${decided}&limit=200`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(matching(await all(), keep));
  });

  it('tier, decided and limit combine: filter first, then the first rows', async () => {
    const expected = matching(await all(), (r) => r.tier === 'WORTH_A_LOOK' && r.decision === null);
    expect(expected.length).toBeGreaterThan(2);
    expect(await getJson(sandbox.current, `${TENDERS}?tier=WORTH_A_LOOK&decided=false&limit=2`)).toEqual(
      expected.slice(0, 2),
    );
  });

  it('the subsets by decision partition the list', async () => {
    const decided = await getJson(sandbox.current, `${TENDERS}?decided=true&limit=200`);
    const undecided = await getJson(sandbox.current, `${TENDERS}?decided=false&limit=200`);
    expect(decided.length + undecided.length).toBe((await all()).length);
  });
});

describe('repeated parameters', () => {
  it('every value is checked: one not allowed is a 400, wherever it comes', async () => {
    for (const query of [
      'tier=STRETCH&tier=bogus',
      'tier=bogus&tier=STRETCH',
      'decided=true&decided=maybe',
      'limit=5&limit=abc',
    ]) {
      const bad = /(tier|decided|limit)=(bogus|maybe|abc)/.exec(query)![2];
      expectProblem(
        await call(sandbox.current, `${TENDERS}?${query}`, { key: KEY.all }),
        400,
        BAD_REQUEST,
        new RegExp(`got '${bad}'`),
      );
    }
  });

  it('when every value is allowed, the first is used, as URLSearchParams.get does', async () => {
    expect(await getJson(sandbox.current, `${TENDERS}?tier=STRETCH&tier=RECOMMENDED&limit=3&limit=7`)).toEqual(
      await getJson(sandbox.current, `${TENDERS}?tier=STRETCH&limit=3`),
    );
  });
});

describe('unknown query parameters', () => {
  it.each([
    [`${TENDERS}?limit=10`, `${TENDERS}?limit=10&foo=bar&Tier=bogus&LIMIT=abc&page=2&cursor=x`],
    [`${TENDERS}`, `${TENDERS}?decided_=maybe`],
    ['/api/v1/graph/companies', '/api/v1/graph/companies?tier=bogus&decided=perhaps'],
    ['/api/v1/workspaces', '/api/v1/workspaces?limit=1&tier=STRETCH'],
    ['/api/v1/me', '/api/v1/me?fields=email'],
  ])('%s answers the same with %s', async (plain, noisy) => {
    const a = await call(sandbox.current, plain, { key: KEY.all });
    const b = await call(sandbox.current, noisy, { key: KEY.all });
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
  });
});
