import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/core/json.js';
import { run } from '../helpers/run.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('cdata against the sandbox, in-process', () => {
  it('prints tenders as JSON exactly as the API returned them', async () => {
    const result = await run(['tenders', '--tier', 'recommended', '--limit', '5', '--json'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const printed = parseJson(result.stdout) as unknown[];
    expect(printed).toHaveLength(5);
    const direct = await fetch(`${sandbox.current.url}/api/v1/tenders?tier=RECOMMENDED&limit=5`, {
      headers: { 'X-API-Key': sandboxEnv(sandbox.current).CDATA_API_KEY! },
    });
    expect(stringifyJson(printed)).toBe(stringifyJson(parseJson(await direct.text())));
  });

  it('sends limit explicitly and exits 2 without a request on a bad tier', async () => {
    const before = sandbox.current.requests.length;
    const result = await run(['tenders', '--tier', 'bogus'], { env: sandboxEnv(sandbox.current) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: --tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got 'bogus')\n");
    expect(sandbox.current.requests.length).toBe(before);
  });
});
