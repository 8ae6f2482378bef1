// --query over the API's dates and names agrees with python-jmespath (the engine of the AWS CLI's
// --query) on the sandbox's data: ordering comparisons of strings, min/max/min_by/max_by and
// sort/sort_by over strings, a stable sort_by (docs/query.md, "Dates and names"). Each expression
// runs through cdata (`-o json`) and through Python's jmespath.search over the same rows (cdata's
// own `-o json` of the list). Where no Python here imports jmespath the cases are skipped, and the
// run says so; under CI they are required (.ci/run installs Debian's python3-jmespath).
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { pythonWithJmespath, skipWithout } from '../helpers/tools.js';

const sandbox = useSandbox({ now: () => NOW });

/** Each list's expressions; every one orders or compares strings (dates, names, enums). */
const CASES: Record<string, string[]> = {
  documents: [
    "[?expiresOn < '2027-01-01'].{id: id, expiresOn: expiresOn}",
    "[?expiresOn <= '2026-12-31' && expiresOn >= '2026-11-22'].id",
    "length([?expiresOn > '2026-11-22'])",
    'sort_by([?expiresOn != null], &expiresOn)[].{expiresOn: expiresOn, id: id}',
    'min_by([?expiresOn != null], &expiresOn).id',
    'max([?expiresOn != null].expiresOn)',
    'sort_by(@, &kind)[].id',
    "[?createdAt >= '2026-11-01T00:00:00Z'].createdAt",
  ],
  obligations: [
    "[?dueOn >= '2026-11-01' && dueOn < '2026-12-01'].{dueOn: dueOn, title: title}",
    'min_by([?dueOn != null], &dueOn)',
    'max_by([?dueOn != null], &dueOn).id',
    'min([?dueOn != null].dueOn)',
    'sort([?dueOn != null].dueOn)',
    "sort_by([?status == 'OPEN' && dueOn != null], &dueOn)[:10].id",
    'sort_by(@, &status)[].id',
    '[?dueOn > createdAt].id',
  ],
  tenders: [
    "[?closesOn > '2026-12-31'].ocid",
    'sort_by(@, &tier)[].ocid',
    'sort_by([?closesOn != null], &closesOn)[].[closesOn, ocid]',
    'max_by([?closesOn != null], &closesOn).ocid',
    "[?buyer < 'M'].buyer",
    'min_by(@, &ocid).ocid',
  ],
  people: [
    "[?fullName < 'N'].fullName",
    'sort_by(@, &fullName)[].fullName',
    'max(@[].fullName)',
    'min_by(@, &fullName).id',
    "[?fullName > 'Z'].fullName",
  ],
  companies: ['sort_by(@, &kind)[].name', 'sort_by(@, &createdAt)[].id', 'max_by(@, &name).name'],
};

const python = pythonWithJmespath();

/** Python's answers, all at once: one process for every case. */
function pythonSearch(cases: readonly { expression: string; data: unknown }[]): unknown[] {
  const script = [
    'import json, sys, jmespath',
    'out = []',
    'for case in json.load(sys.stdin):',
    '    out.append(jmespath.search(case["expression"], case["data"]))',
    'json.dump(out, sys.stdout)',
  ].join('\n');
  const result = spawnSync(python!, ['-c', script], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as unknown[];
}

describe.skipIf(skipWithout('python3-jmespath'))('--query agrees with python-jmespath over strings', () => {
  const expected = new Map<string, unknown>();
  const lists = new Map<string, unknown>();

  beforeAll(async () => {
    const env = sandboxEnv(sandbox.current);
    const cases: { expression: string; data: unknown; key: string }[] = [];
    for (const [list, expressions] of Object.entries(CASES)) {
      const rows = await cdata([list, '--limit', '200', '-o', 'json'], { env });
      expect(rows.code).toBe(0);
      const data = JSON.parse(rows.stdout) as unknown;
      lists.set(list, data);
      for (const expression of expressions) cases.push({ expression, data, key: `${list} ${expression}` });
    }
    // The issue's own case: ties keep their order.
    const ties = [
      { a: '1', n: 'x' },
      { a: '1', n: 'y' },
      { a: '0', n: 'z' },
      { a: '1', n: 'w' },
    ];
    cases.push({ expression: 'sort_by(@, &a)[].n', data: ties, key: 'ties' });
    const answers = pythonSearch(cases);
    cases.forEach((item, i) => expected.set(item.key, answers[i]));
  });

  it('the data holds what the cases are about: dates this month, names past Z (王伟), equal keys', () => {
    expect(JSON.stringify(lists.get('obligations'))).toContain('"dueOn":"2026-11-');
    expect(JSON.stringify(lists.get('people'))).toContain('王伟');
    expect(expected.get('ties')).toEqual(['z', 'x', 'y', 'w']);
  });

  it('sort_by is stable: the issue\'s [{a:"1",n:"x"},{a:"1",n:"y"},{a:"0",n:"z"},{a:"1",n:"w"}] by a is z, x, y, w', async () => {
    const result = await cdata(
      [
        'me',
        '--query',
        'sort_by(`[{"a":"1","n":"x"},{"a":"1","n":"y"},{"a":"0","n":"z"},{"a":"1","n":"w"}]`, &a)[].n',
        '-o',
        'json',
      ],
      {
        env: sandboxEnv(sandbox.current),
      },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(expected.get('ties'));
  });

  for (const [list, expressions] of Object.entries(CASES)) {
    it.each(expressions)(`${list} --query %s`, async (expression) => {
      const result = await cdata([list, '--limit', '200', '--query', expression, '-o', 'json'], {
        env: sandboxEnv(sandbox.current),
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const answer = expected.get(`${list} ${expression}`);
      // Not a case that says nothing: every one finds something in the sandbox's data.
      expect(answer).not.toEqual([]);
      expect(answer).not.toBeNull();
      expect(JSON.parse(result.stdout)).toEqual(answer);
    });
  }
});
