// --query's errors: a syntax error or an unknown function is exit 2 before any request (the
// sandbox sees none), with the expression and a caret under the column; what goes wrong while the
// query runs (a function given the wrong type, arithmetic on text) is exit 2 naming the function.
import { describe, expect, it } from 'vitest';
import { NOW, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv } from '../helpers/sandbox.js';

const makeSandbox = useSandboxes();
const SHELL_HINT =
  'hint: Put the expression in single quotes: in double quotes a shell runs what is between backticks. JMESPath: docs/query.md.\n';
/** An expression that holds backticks was quoted so as to keep them: no word on quoting. */
const KEPT_BACKTICKS = 'hint: JMESPath: docs/query.md.\n';

async function query(expression: string, ...more: string[]) {
  const sandbox = await makeSandbox({ now: () => NOW });
  const result = await cdata(['tenders', '--query', expression, ...more], { env: sandboxEnv(sandbox) });
  return { ...result, requests: sandbox.requests.length };
}

describe('before any request', () => {
  it.each([
    ['[?score > `80`', 15, "expected ']' before the end", '  [?score > `80`\n                ^\n'],
    ['[?score > `80`]].title', 16, "unexpected ']'", '  [?score > `80`]].title\n                 ^\n'],
    ['[?tier == RECOMMENDED ~]', 23, 'unknown character: ~', '  [?tier == RECOMMENDED ~]\n                        ^\n'],
    [
      '[?tier == `RECOMMENDED`]',
      11,
      'not valid JSON between the quotes or backticks (text goes in \'single quotes\' or `"double"`)',
      '  [?tier == `RECOMMENDED`]\n            ^\n',
    ],
    ['title title', 7, "unexpected 'title'", '  title title\n        ^\n'],
    ['sort_by(@, &score', 18, 'the expression ends too soon', '  sort_by(@, &score\n                   ^\n'],
    // A quote never closed: the library would read the rest as a string (python-jmespath refuses it).
    ["[].title || 'n/a", 13, "the ' opened here is never closed", "  [].title || 'n/a\n              ^\n"],
    ["[?title == 'it\\'s]", 12, "the ' opened here is never closed", "  [?title == 'it\\'s]\n             ^\n"],
    ['"title', 1, 'the " opened here is never closed', '  "title\n  ^\n'],
  ])('%s: exit 2 at column %i, the caret under it, and no request', async (expression, column, what, excerpt) => {
    const result = await query(expression);
    expect(result).toMatchObject({ code: 2, stdout: '', requests: 0 });
    expect(result.stderr).toBe(
      `error: --query is not a valid JMESPath expression at column ${column}: ${what}\n${excerpt}${expression.includes('`') ? KEPT_BACKTICKS : SHELL_HINT}`,
    );
  });

  it('a bare number where a value goes (`[?score > 80]`): the hint writes it as JMESPath does, `80`', async () => {
    const result = await query('[?score > 80]');
    expect(result).toMatchObject({ code: 2, stdout: '', requests: 0 });
    expect(result.stderr).toBe(
      "error: --query is not a valid JMESPath expression at column 11: unexpected '80'\n" +
        '  [?score > 80]\n            ^\n' +
        `hint: A number is a JSON literal in JMESPath, between backticks: \`80\`. ${SHELL_HINT.slice('hint: '.length)}`,
    );
    // After a dot, a number is a field's name gone wrong, not a value: the usual hint.
    expect((await query('a.80')).stderr).toBe(
      `error: --query is not a valid JMESPath expression at column 3: unexpected '80'\n  a.80\n    ^\n${SHELL_HINT}`,
    );
  });

  it('a bare date where a value goes: the hint writes it as the API writes dates, not `2026` as a number', async () => {
    const hintOf = async (expression: string) => {
      const result = await query(expression);
      expect(result).toMatchObject({ code: 2, stdout: '', requests: 0 });
      return result.stderr.split('\n').at(-2);
    };
    const dateHint = (date: string) =>
      `hint: A date is text in JMESPath, written as the API writes dates: \`"${date}"\`. ${SHELL_HINT.slice('hint: '.length, -1)}`;
    expect(await hintOf('[?dueOn < 2026-12-01]')).toBe(dateHint('2026-12-01'));
    expect(await hintOf('length([?dueOn >= 2026-12-1 && dueOn < `"2027-01-01"`])')).toBe(dateHint('2026-12-01'));
    expect(await hintOf('[?dueOn < 2026/12/01]')).toBe(dateHint('2026-12-01'));
    // Day and month told apart where one of them is past 12; else the form alone.
    expect(await hintOf('[?dueOn < 27/11/2026]')).toBe(dateHint('2026-11-27'));
    expect(await hintOf('[?dueOn < 11/27/2026]')).toBe(dateHint('2026-11-27'));
    expect(await hintOf('[?dueOn < 01.12.2026]')).toBe(dateHint('YYYY-MM-DD'));
    // A time written is kept (the day alone would widen the filter to all of it); no date that cannot be.
    expect(await hintOf('[?createdAt > 2026-12-01T10:00:00Z]')).toBe(dateHint('2026-12-01T10:00:00Z'));
    expect(await hintOf('[?createdAt > 2026-12-01T10:00:00.523+02:00]')).toBe(
      dateHint('2026-12-01T10:00:00.523+02:00'),
    );
    expect(await hintOf('[?dueOn < 2026-13-45]')).toBe(dateHint('YYYY-MM-DD'));
    expect(await hintOf('[?dueOn < 31/13/2026]')).toBe(dateHint('YYYY-MM-DD'));
    expect(await hintOf('[?dueOn < 32/11/2026]')).toBe(dateHint('YYYY-MM-DD'));
    // Not a date: the number's hint, as before.
    expect(await hintOf('[?score > 2026-12]')).toBe(
      `hint: A number is a JSON literal in JMESPath, between backticks: \`2026\`. ${SHELL_HINT.slice('hint: '.length, -1)}`,
    );
  });

  it('a single = where == was meant: exit 2 at the =, not a binding that keeps every row', async () => {
    const EQUALS_HINT =
      'hint: To compare, write == (a single = names a variable: let $name = … in …). JMESPath: docs/query.md.\n';
    for (const [expression, column] of [
      ["[?tier = 'NOPE'] | length(@)", 8],
      ['tier = `"X"`', 6],
      ['let $min = `80` in [?score = $min]', 28],
      ['let $a = `1`, $b = `2` in [?score = $a]', 35],
      ["[?$x = 'a']", 6],
      // Before a mistake the parser meets first (a bare number): the = is said, where it is.
      ['[?score = 80]', 9],
      ['[?tier = RECOMMENDED || score = 80]', 8],
    ] as const) {
      const result = await query(expression);
      expect(result).toMatchObject({ code: 2, stdout: '', requests: 0 });
      expect(result.stderr).toBe(
        `error: --query is not a valid JMESPath expression at column ${column}: a single = is not a comparison\n` +
          `  ${expression}\n  ${' '.repeat(column - 1)}^\n${EQUALS_HINT}`,
      );
    }
    // The = of let binds, as JMESPath has it.
    expect(await query('let $min = `80` in [?score >= $min] | length(@)')).toMatchObject({ code: 0, stdout: '13\n' });
  });

  it('the excerpt escapes control characters and measures wide ones, so the caret stays under the place', async () => {
    const result = await query("[?title == '\u001b[31m名前'] ~");
    expect(result).toMatchObject({ code: 2, requests: 0 });
    // ESC is one character of the expression (column 23 counts it once) but four columns once
    // escaped, and each of 名前 takes two: 12 + 4 + 4 + 4 + 3 columns precede the ~.
    expect(result.stderr.split('\n').slice(0, 3)).toEqual([
      'error: --query is not a valid JMESPath expression at column 23: unknown character: ~',
      "  [?title == '\\x1b[31m名前'] ~",
      `  ${' '.repeat(27)}^`,
    ]);
  });

  it('a long expression is cut around the place', async () => {
    const expression = `[?${Array.from({ length: 20 }, (_, i) => `score != \`${i}\``).join(' && ')} &&]`;
    const result = await query(expression);
    const [, line, caret] = result.stderr.split('\n');
    // The 35 columns before the place, after an ellipsis; the caret under the ].
    expect(line).toBe('  …& score != `18` && score != `19` &&]');
    expect(caret).toBe(`  ${' '.repeat(36)}^`);
    expect(result.requests).toBe(0);
  });

  it('under -o json the error is also one JSON line, with the column in its detail', async () => {
    const result = await query('[?score > `80`', '-o', 'json');
    expect(result.stderr.split('\n').at(-2)).toBe(
      '{"error":{"status":null,"title":"Usage error","detail":"--query is not a valid JMESPath expression at column 15: expected \']\' before the end","correlationId":null,"exitCode":2}}',
    );
  });

  it("a result holding an expression reference (&expr, outside a function's arguments): exit 2, the library's own object never printed as data", async () => {
    for (const expression of ['&ocid', '[].{a: &ocid}', 'let $f = &title in $f'])
      expect(await query(expression)).toMatchObject({
        code: 2,
        stdout: '',
        stderr:
          "error: --query: the result holds an expression reference (&...), which is no data: & makes an expression a function's argument (sort_by(@, &score))\nhint: Without the &, the expression itself: --query score. JMESPath: docs/query.md.\n",
      });
    for (const expression of [
      'sort_by(@, &score)[0].ocid',
      'let $s = &score in sort_by(@, $s)[0].ocid',
      'sort_by(@, `true` && &score)[0].ocid',
      'max_by(@, &length(title)).ocid',
    ])
      expect(await query(expression)).toMatchObject({ code: 0, stderr: '', requests: 1 });
  });

  it('an unknown function, or no expression at all', async () => {
    expect(await query('[?score > `80`] | avgerage([].score)')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --query: unknown function avgerage()\nhint: The functions are listed in docs/query.md.\n',
      requests: 0,
    });
    expect(await query('  ')).toMatchObject({
      code: 2,
      stderr: 'error: --query needs an expression, e.g. --query \'[?tier == `"RECOMMENDED"`].title\'\n',
      requests: 0,
    });
  });
});

describe('while the query runs: exit 2, after the one request', () => {
  it.each([
    [
      'sort_by(@, &runwayDays)',
      'error: --query failed in sort_by(): expected (number), received null\nhint: Some records hold null there: leave them out first ([?field != null]) or give a default (field || `0`).\n',
    ],
    // A date or a name (closesOn is null for some tenders): the default is text, as the function wants.
    [
      'max_by(@, &closesOn)',
      "error: --query failed in max_by(): expected (string), received null\nhint: Some records hold null there: leave them out first ([?field != null]) or give a default (field || '').\n",
    ],
    // The & left out: the field's value came where the key's expression goes.
    [
      'sort_by(@, closesOn)',
      'error: --query failed in sort_by(): expected argument 2 to be type (expression) but received type null instead.\nhint: The key is an expression: write & before the field, sort_by(@, &field).\n',
    ],
    // map takes the expression first.
    [
      'map(title, @)',
      'error: --query failed in map(): expected argument 1 to be type (expression) but received type null instead.\nhint: The key is an expression: write & before the field, map(&field, @).\n',
    ],
    [
      'max_by(@, title)',
      'error: --query failed in max_by(): expected argument 2 to be type (expression) but received type null instead.\nhint: The key is an expression: write & before the field, max_by(@, &field).\n',
    ],
    [
      '[?abs(title)]',
      'error: --query failed in abs(): expected argument 1 to be type (number) but received type string instead.\n',
    ],
    ['length(@, @)', 'error: --query failed in length(): takes 1 argument but received 2\n'],
    [
      'sort_by(@, &abs(title))',
      'error: --query failed in abs(): expected argument 1 to be type (number) but received type string instead.\n',
    ],
    ['[0].title + `1`', 'error: --query failed: arithmetic (+ - * / % //) needs numbers on both sides\n'],
    ['[0].score / `0`', 'error: --query failed: division by zero\n'],
    ['[?score > $cut]', 'error: --query failed: no variable $cut is defined (let $cut = … in …)\n'],
  ])('%s', async (expression, stderr) => {
    expect(await query(expression)).toMatchObject({ code: 2, stdout: '', stderr, requests: 1 });
  });

  it('the defaults the null hints give work: `0` for numbers, an empty text for dates and names', async () => {
    for (const expression of ['sort_by(@, &runwayDays || `0`)[0].ocid', "max_by(@, &closesOn || '').ocid"])
      expect(await query(expression)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ocds-9t57fa-\d+\n$/) });
  });
});
