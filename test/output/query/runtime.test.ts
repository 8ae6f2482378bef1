// Where cdata's --query departs from JMESPath Community Edition 1.3.0 to evaluate as
// python-jmespath does (src/output/query/runtime.ts, docs/query.md#dates-and-names-where-cdata-differs):
// each case states the library's own answer beside cdata's.
import { TreeInterpreter } from '@jmespath-community/jmespath';
import { describe, expect, it } from 'vitest';
import { NOW } from '../../helpers/api.js';
import { cdata } from '../../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { compareCodePoints, QueryFunctionError } from '../../../src/output/query/runtime.js';

const sandbox = useSandbox({ now: () => NOW });

/** The expression's result (over `me`, the expressions bring their own data), as JSON. */
async function query(expression: string): Promise<unknown> {
  const result = await cdata(['me', '--query', expression, '-o', 'json'], { env: sandboxEnv(sandbox.current) });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

async function failure(expression: string): Promise<string> {
  const result = await cdata(['me', '--query', expression, '-o', 'json'], { env: sandboxEnv(sandbox.current) });
  expect(result).toMatchObject({ code: 2, stdout: '' });
  return result.stderr.split('\n')[0]!;
}

/** What adjustRuntime() replaces in the library: the interpreter's visit and the runtime's callFunction. */
function adjustedParts(): unknown[] {
  const runtime = (TreeInterpreter as unknown as { runtime: object }).runtime;
  return [
    (Object.getPrototypeOf(TreeInterpreter) as { visit: unknown }).visit,
    (Object.getPrototypeOf(runtime) as { callFunction: unknown }).callFunction,
  ];
}

const ROWS = '`[{"k":"b","i":1},{"k":"a","i":2},{"k":"b","i":3},{"k":"a","i":4}]`';

// First in the file on purpose: the adjustments are made once, in the test that runs the first
// query, and `npm run mutate` (per-test coverage) credits that code to that test alone. So this
// test reaches every adjustment, and each argument check of the library's that cdata keeps.
describe('the adjustments, made as the first query runs', () => {
  it('every function replaced and the comparison at once; the arguments checked; made once only', async () => {
    expect(
      await query(
        `[sort(\`[10, 9, 100]\`), min(\`["b","B","a"]\`), max(\`["B","a"]\`), min_by(${ROWS}, &k).i, max_by(${ROWS}, &k).i, sort_by(${ROWS}, &k)[].i, '2026-11-30' < '2027-01-01']`,
      ),
    ).toEqual([[9, 10, 100], 'B', 'a', 2, 1, [2, 4, 1, 3], true]);
    const adjusted = adjustedParts();
    expect(await failure('min(`[true]`)')).toBe(
      'error: --query failed in min(): expected argument 1 to be type (Array<number> | Array<string>) but received type array instead.',
    );
    expect(await failure("sort_by('a', &k)")).toBe(
      'error: --query failed in sort_by(): expected argument 1 to be type (array) but received type string instead.',
    );
    expect(await failure("max_by(`[1]`, 'k')")).toBe(
      'error: --query failed in max_by(): expected argument 2 to be type (expression) but received type string instead.',
    );
    // The second query wrapped nothing again: each layer would cost every node of every later query a call.
    const again = adjustedParts();
    expect([again[0] === adjusted[0], again[1] === adjusted[1]]).toEqual([true, true]);
  });
});

describe('ordering comparisons', () => {
  it.each([
    ["'2026-11-30' < '2027-01-01'", true], // library: null
    ["'2027-01-01' <= '2027-01-01'", true],
    ["'b' > 'a'", true],
    ["'a' >= 'b'", false],
    ["'Z' < 'a'", true], // code points, not the locale's order
    ['`2` < `10`', true], // numbers as before
    ["'1' < `2`", null], // a string and a number: null, as the specification says (Python: a TypeError)
    ["`2` > '1'", null], // the same with the number first
    ['`true` < `false`', null],
    ["`null` < 'a'", null],
    ['`[1]` < `[2]`', null],
  ])('%s is %j', async (expression, expected) => {
    expect(await query(expression)).toBe(expected);
  });

  it('a filter on dates keeps the earlier ones', async () => {
    expect(await query('`[{"d":"2026-12-31"},{"d":"2027-01-01"},{"d":null}]`[?d < \'2027-01-01\'].d')).toEqual([
      '2026-12-31',
    ]);
  });

  it("code-point order: a character beyond U+FFFF sorts after U+FFFD, as in Python (JavaScript's < says before)", async () => {
    expect('😀' < '\ufffd').toBe(true); // UTF-16 units
    expect(await query("'😀' > '\ufffd'")).toBe(true);
    expect(compareCodePoints('a😀', 'a\ufffd')).toBeGreaterThan(0);
    expect(compareCodePoints('\ud83d', '\ue000')).toBeLessThan(0); // a lone surrogate is its own code point
    expect(compareCodePoints('😀a', '😀b')).toBe(-1);
    // A lone high surrogate followed by U+E000 against a whole pair with the same first half:
    // Python compares U+D83D with U+1F600 (the pair's second half, U+DE00 against U+E000, would say before).
    expect(compareCodePoints('😀', '\ud83d\ue000')).toBe(0x1f600 - 0xd83d);
    // The first and the last high surrogate.
    expect(compareCodePoints('\ud800\udc00', '\ud800\ue000')).toBe(0x10000 - 0xd800);
    expect(compareCodePoints('\udbff\udc00', '\udbff\ue000')).toBe(0x10fc00 - 0xdbff);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('王', '王')).toBe(0);
  });
});

describe('min, max, min_by, max_by, sort, sort_by', () => {
  it('min_by and max_by over strings: the first of the least and of the greatest (library: null)', async () => {
    expect(await query(`min_by(${ROWS}, &k).i`)).toBe(2);
    expect(await query(`max_by(${ROWS}, &k).i`)).toBe(1);
  });

  it('min_by and max_by over numbers, a zero key included', async () => {
    expect(await query('min_by(`[{"n":3},{"n":0},{"n":0}]`, &n)')).toEqual({ n: 0 });
    expect(await query('max_by(`[{"n":-1},{"n":-2}]`, &n)')).toEqual({ n: -1 });
    expect(await query('max_by(`[]`, &n)')).toBeNull();
    // Of none, null itself, as == null and type() see it (undefined would print as null, and fail both).
    expect(await query('[min(`[]`) == null, type(max_by(`[]`, &n))]')).toEqual([true, 'null']);
  });

  it('min and max over strings in code-point order (library: the locale\'s, max(["B","a"]) was "B")', async () => {
    expect(await query('max(`["B","a"]`)')).toBe('a');
    expect(await query('min(`["b","B","a"]`)')).toBe('B');
    expect(await query('min(`[]`)')).toBeNull();
  });

  it('sort_by is stable (library: ties reversed) and sort orders numbers as numbers (library: as text)', async () => {
    expect(await query(`sort_by(${ROWS}, &k)[].i`)).toEqual([2, 4, 1, 3]);
    expect(await query('sort(`[10, 9, 100]`)')).toEqual([9, 10, 100]);
    expect(await query('sort(`["b", "B", "a"]`)')).toEqual(['B', 'a', 'b']);
  });

  it('keys of two types, or null: exit 2, naming the function', async () => {
    expect(await failure('sort_by(`[{"k":"a"},{"k":1}]`, &k)')).toBe(
      'error: --query failed in sort_by(): expected (string), received number',
    );
    expect(await failure('min_by(`[{"k":1},{"k":"a"}]`, &k)')).toBe(
      'error: --query failed in min_by(): expected (number), received string',
    );
    expect(await failure('max_by(`[{"k":null}]`, &k)')).toBe(
      'error: --query failed in max_by(): expected (number | string), received null',
    );
    expect(await failure('sort_by(`[{"k":[1]}]`, &k)')).toBe(
      'error: --query failed in sort_by(): expected (number | string), received array',
    );
    expect(await failure('max_by(`[{"k":{}}]`, &k)')).toBe(
      'error: --query failed in max_by(): expected (number | string), received object',
    );
    expect(await failure('max(`[1, "a"]`)')).toMatch(
      /^error: --query failed in max\(\): expected argument 1 to be type \(Array<number> \| Array<string>\)/,
    );
  });

  it("a function's error keeps the library's as its cause, and its message", () => {
    const cause = new TypeError('Invalid type: expected (number), received null');
    const error = new QueryFunctionError('sort_by', cause);
    expect([error.functionName, error.message, error.cause === cause]).toEqual([
      'sort_by',
      'Invalid type: expected (number), received null',
      true,
    ]);
    expect(new QueryFunctionError('max', 'not an Error').message).toBe('not an Error');
  });

  it('a key no record has (a typo) is said as such, not as nulls that a default would hide', async () => {
    const fields =
      'ocid, title, buyer, province, closesOn, runwayDays, score, tier, reasons, briefingNote, decision, analysisRunId, docCount';
    for (const expression of ['max_by(@, &scroe)', "sort_by([?tier == 'STRETCH'], &scroe)"]) {
      const result = await cdata(['tenders', '--query', expression], { env: sandboxEnv(sandbox.current) });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(
        new RegExp(`\\nhint: No record has a field named scroe: check its spelling\\. Their fields: ${fields}\\.\\n$`),
      );
    }
    // Over what a projection made (its @ after the pipe), or a list inside the records, what
    // those hold is not the records' fields: the usual hint.
    const projected = await cdata(
      ['tenders', '--limit', '200', '--query', '[].{ocid: ocid, runway: runwayDays} | min_by(@, &runway)'],
      { env: sandboxEnv(sandbox.current) },
    );
    expect(projected.stderr).toMatch(/\nhint: Some records hold null there/);
    const nested = await cdata(['me', '--query', 'max_by(`[{"k":1},{"j":2}]`, &k)'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(nested.stderr).toMatch(/\nhint: Some records hold null there/);
  });

  it("a text function meeting null: the default offered is text, '' (`0` would fail again)", async () => {
    for (const expression of ['starts_with(`null`, `"a"`)', 'contains(`null`, `"a"`)', 'length(`null`)']) {
      const result = await cdata(['me', '--query', expression], { env: sandboxEnv(sandbox.current) });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /\nhint: Some records hold null there: leave them out first \(\[\?field != null\]\) or give a default \(field \|\| ''\)\.\n$/,
      );
    }
  });

  it('inside a let, an &expression sees its variables', async () => {
    expect(
      await query('let $first = \'a\' in sort_by(`[{"k":"b"},{"k":"a"}]`, &k == $first && \'0\' || k)[].k'),
    ).toEqual(['a', 'b']);
  });
});
