// --query against the sandbox's data at a fixed date: filters, projections, functions, sort_by,
// group_by, let, pipes, slices, arithmetic, and literals in backticks and quotes. Each expected
// result was worked out by hand from the demo data (src/sandbox/data.ts at test/helpers/api.ts's
// NOW), not taken from cdata's own output.
import { describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });

const T = (n: number) => `ocds-9t57fa-${n}`;

/** [command and its flags, expression, the result as JSON]. `tenders` holds all 64 tenders at the default limit. */
const CASES: [string[], string, unknown][] = [
  // Counting, indexing, slicing
  [['tenders'], 'length(@)', 64],
  [['tenders'], '[0].ocid', T(140905)],
  [['tenders'], '[-1].score', 23],
  [['tenders'], '[::16].ocid', [T(140905), T(142020), T(140763), T(141017)]],
  [['tenders'], "[?tier == 'WORTH_A_LOOK'] | [:2].ocid", [T(140810), T(142340)]],
  // Filters: comparisons, and/or/not, null
  [['tenders'], '[?score > `90`].ocid', [T(140905), T(141705), T(142298), T(142213), T(141085)]],
  [['tenders'], '[?score >= `90` && decision == null].ocid', [T(140905), T(142213)]],
  [['tenders'], "[?decision == 'BID'].ocid", [T(141085), T(140396), T(140763)]],
  [['tenders'], '[?decision == `"BID"`] | length(@)', 3],
  [['tenders'], "[?decision == 'NO_BID' || decision == 'BID'] | length(@)", 15],
  [['tenders'], '[?!decision] | length(@)', 39],
  [['tenders'], '[?runwayDays == null].ocid', [T(141316), T(141036), T(142225), T(141922)]],
  [['tenders'], '[?runwayDays < `0`] | length(@)', 9],
  [['tenders', '--tier', 'STRETCH'], 'length(@)', 18],
  // Strings: functions, raw strings with quotes, quoted identifiers
  [['tenders'], "[?starts_with(title, 'Installation of high-mast')] | length(@)", 8],
  [['tenders'], "[?contains(title, 'Soweto')].ocid", [T(142298), T(142114), T(140625), T(140443), T(141695)]],
  [['tenders'], "[?ends_with(ocid, '05')].ocid", [T(140905), T(141705)]],
  [['tenders'], `[?contains(title, '"Old Fort"')].ocid`, [T(140220)]],
  [['tenders'], '[0]."ocid"', T(140905)],
  [['tenders'], "join(', ', [:3].province)", 'Mpumalanga, Limpopo, Gauteng'],
  // Projections and multi-select
  [
    ['tenders'],
    "[?province == 'Western Cape'].{ocid: ocid, score: score}",
    [
      { ocid: T(141624), score: 63 },
      { ocid: T(140238), score: 23 },
    ],
  ],
  [['tenders'], "{total: length(@), recommended: length([?tier == 'RECOMMENDED'])}", { total: 64, recommended: 20 }],
  [
    ['tenders'],
    'keys([0])',
    [
      'ocid',
      'title',
      'buyer',
      'province',
      'closesOn',
      'runwayDays',
      'score',
      'tier',
      'reasons',
      'briefingNote',
      'decision',
      'analysisRunId',
      'docCount',
    ],
  ],
  [['tenders'], '[0].reasons[0]', 'CIDB 6EP required; the company holds 6EP'],
  [['tenders'], "map(&(decision || 'undecided'), [:3])", ['undecided', 'NO_BID', 'NO_BID']],
  [['tenders'], 'not_null([0].analysisRunId, [0].buyer)', 'City of Mbombela Local Municipality'],
  // Aggregates, sorting, grouping
  [['tenders'], 'max([].score)', 96],
  [['tenders'], 'min([].score)', 23],
  [['tenders'], "sum([?tier == 'RECOMMENDED'].docCount)", 110],
  [['tenders'], "avg([?tier == 'STRETCH'].score)", 654 / 18],
  [['tenders'], 'max_by(@, &docCount).docCount', 14],
  [['tenders'], 'min_by([?runwayDays != null], &runwayDays).ocid', T(141518)],
  [
    ['tenders'],
    "sort([?tier == 'RECOMMENDED'].docCount)",
    [0, 0, 0, 0, 0, 2, 4, 4, 5, 5, 6, 6, 6, 7, 8, 8, 11, 12, 13, 13],
  ],
  [
    ['tenders'],
    'sort_by([?runwayDays >= `0` && runwayDays <= `14`], &runwayDays)[].[runwayDays, ocid]',
    [
      [0, T(140366)],
      [2, T(142042)],
      [7, T(140497)],
      [9, T(140738)],
      [10, T(140641)],
      [11, T(141991)],
      [11, T(140835)],
    ],
  ],
  [['tenders'], "reverse([?decision == 'BID'].ocid)", [T(140763), T(140396), T(141085)]],
  [
    ['tenders'],
    'group_by([?decision], &decision) | items(@) | [*].[[0], length([1])]',
    [
      ['NO_BID', 12],
      ['BID', 3],
      ['CLARIFY_FIRST', 10],
    ],
  ],
  // let, arithmetic, JSON literals
  [['tenders'], 'let $min = `80` in [?score >= $min] | length(@)', 13],
  [['tenders'], '[0].[runwayDays // `7`, runwayDays % `7`, score - `6`, docCount * `2`, -score]', [8, 4, 90, 0, -96]],
  [['tenders'], "to_number('12.5') + `1`", 13.5],
  [['tenders'], '`{"a": [1, 2]}`.a[1]', 2],
  // Other endpoints: an object (me), short lists
  [['me'], 'scopes', ['graph.read', 'tenders.read', 'workspaces.read']],
  [['me'], '{tenant: tenant, roles: length(roles)}', { tenant: 'Mthembu & Van Wyk Construction (Pty) Ltd', roles: 1 }],
  [['agents'], "[?authority == 'AUTONOMOUS'].name", ['obligation-tracker']],
  [
    ['agents'],
    "[?contains(tools, 'documents.read')].name",
    ['tender-pack-analyst', 'bid-preparer', 'compliance-watch'],
  ],
  [['agents'], 'sort_by(@, &name)[0].name', 'bid-preparer'],
  [['workspaces'], 'sort([].name)', ['Construction', 'Growth & tenders', 'Property portfolio']],
  [['obligations', '--limit', '200'], "length([?status == 'OPEN'])", 140],
];

describe('--query expressions against sandbox data', () => {
  it('covers at least 30 expressions', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(
    CASES.map(
      ([argv, expression, expected]) =>
        [`${argv.join(' ')} --query ${expression}`, argv, expression, expected] as const,
    ),
  )('%s', async (_name, argv, expression, expected) => {
    const result = await cdata([...argv, '--query', expression, '-o', 'json'], { env: sandboxEnv(sandbox.current) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });
});
