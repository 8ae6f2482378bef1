// The endpoint flags: checked before anything is sent, and sent explicitly.
import { describe, expect, it } from 'vitest';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { NOW } from '../helpers/api.js';

const sandbox = useSandbox({ now: () => NOW });
const env = () => sandboxEnv(sandbox.current);

/** Runs cdata and returns the query string of each request it sent. */
async function sent(argv: string[], options: { stderrTTY?: boolean } = {}) {
  const before = sandbox.current.requests.length;
  const result = await cdata(argv, { env: env(), ...options });
  const queries = sandbox.current.requests.slice(before).map((request) => request.query.toString());
  return { ...result, queries };
}

describe('--limit', () => {
  it('is always sent: 100 by default, for every list', async () => {
    for (const name of ['companies', 'documents', 'obligations', 'persons', 'sites', 'tenders']) {
      expect((await sent([name])).queries).toEqual(['limit=100']);
    }
    expect((await sent(['tenders', '-l', '7'])).queries).toEqual(['limit=7']);
  });

  it('is not sent by endpoints without it', async () => {
    for (const name of ['me', 'workspaces', 'agents']) expect((await sent([name])).queries).toEqual(['']);
  });

  it('out of 1..200 is clamped with a note on stderr', async () => {
    const low = await sent(['obligations', '--limit', '0', '-o', 'csv']);
    expect(low).toMatchObject({
      code: 0,
      queries: ['limit=1'],
      stderr: '--limit 0 is less than 1, so cdata asks for 1.\n',
    });
    const high = await sent(['obligations', '--limit', '500', '-o', 'csv']);
    expect(high).toMatchObject({
      code: 0,
      queries: ['limit=200'],
      stderr: '--limit 500 is more than the API returns, so cdata asks for 200, the most.\n',
    });
    expect(high.stdout.trimEnd().split('\r\n')).toHaveLength(201);
  });

  it('-q silences the clamp note', async () => {
    const result = await sent(['obligations', '--limit', '500', '-q', '-o', 'csv']);
    expect(result).toMatchObject({ code: 0, queries: ['limit=200'], stderr: '' });
  });

  it.each(['1.5', 'ten', '', '1e2', '0x10'])('%j is a usage error and nothing is sent', async (value) => {
    const result = await sent(['tenders', '--limit', value]);
    expect(result).toMatchObject({ code: 2, stdout: '', queries: [] });
    expect(result.stderr).toBe(`error: --limit must be a whole number from 1 to 200 (got '${value}')\n`);
  });
});

describe('--tier', () => {
  it.each([
    ['RECOMMENDED', 'RECOMMENDED'],
    ['recommended', 'RECOMMENDED'],
    ['Stretch', 'STRETCH'],
    ['worth-a-look', 'WORTH_A_LOOK'],
    ['Worth_A_Look', 'WORTH_A_LOOK'],
  ])('%s is sent as %s', async (given, tier) => {
    const result = await sent(['tenders', '--tier', given, '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.queries).toEqual([`tier=${tier}&limit=100`]);
    expect((JSON.parse(result.stdout) as { tier: string }[]).every((row) => row.tier === tier)).toBe(true);
  });

  it('anything else is a usage error naming the valid values, nothing sent', async () => {
    const result = await sent(['tenders', '--tier', 'best']);
    expect(result).toMatchObject({ code: 2, stdout: '', queries: [] });
    expect(result.stderr).toBe("error: --tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got 'best')\n");
  });
});

describe('--decided and --undecided', () => {
  it('send decided=true and decided=false', async () => {
    const decided = await sent(['tenders', '--decided', '-o', 'json']);
    expect(decided.queries).toEqual(['decided=true&limit=100']);
    expect((JSON.parse(decided.stdout) as { decision: unknown }[]).every((row) => row.decision !== null)).toBe(true);
    const undecided = await sent(['tenders', '--undecided', '-o', 'json']);
    expect(undecided.queries).toEqual(['decided=false&limit=100']);
    expect((JSON.parse(undecided.stdout) as { decision: unknown }[]).every((row) => row.decision === null)).toBe(true);
  });

  it('together are a usage error, nothing sent', async () => {
    const result = await sent(['tenders', '--decided', '--undecided']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      queries: [],
      stderr: 'error: --decided and --undecided cannot be used together\n',
    });
  });
});
