// How a --query result prints (docs/output.md): one query in each format, exactly; the
// shapes a result takes (records, rows, values, one value, an empty list); --fields after the
// query; and the rules of each format (formula guarding, escaping, exact numbers) on results.
import { describe, expect, it } from 'vitest';
import { NOW, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
const go = (argv: string[], options: { terminal?: boolean } = {}) =>
  cdata(argv, { env: sandboxEnv(sandbox.current), ...(options.terminal ? { stdoutTTY: true, columns: 100 } : {}) });

/** The projection's order is not the API's (ocid comes first there) nor alphabetical. */
const WESTERN_CAPE = "[?province == 'Western Cape'].{score: score, ocid: ocid, decision: decision, closesOn: closesOn}";

describe('one query in every format', () => {
  it.each([
    [
      'json',
      [
        '[',
        '  {',
        '    "score": 63,',
        '    "ocid": "ocds-9t57fa-141624",',
        '    "decision": null,',
        '    "closesOn": "2026-12-11"',
        '  },',
        '  {',
        '    "score": 23,',
        '    "ocid": "ocds-9t57fa-140238",',
        '    "decision": null,',
        '    "closesOn": "2027-01-04"',
        '  }',
        ']',
        '',
      ].join('\n'),
    ],
    [
      'ndjson',
      '{"score":63,"ocid":"ocds-9t57fa-141624","decision":null,"closesOn":"2026-12-11"}\n{"score":23,"ocid":"ocds-9t57fa-140238","decision":null,"closesOn":"2027-01-04"}\n',
    ],
    [
      'csv',
      'score,ocid,decision,closesOn\r\n63,ocds-9t57fa-141624,,2026-12-11\r\n23,ocds-9t57fa-140238,,2027-01-04\r\n',
    ],
    [
      'tsv',
      'score\tocid\tdecision\tclosesOn\n63\tocds-9t57fa-141624\t\t2026-12-11\n23\tocds-9t57fa-140238\t\t2027-01-04\n',
    ],
    [
      'table',
      [
        'score  ocid                decision  closesOn',
        '   63  ocds-9t57fa-141624            2026-12-11',
        '   23  ocds-9t57fa-140238            2027-01-04',
        '',
      ].join('\n'),
    ],
  ])('-o %s: the projection, its columns in the projection order', async (format, expected) => {
    const result = await go(['tenders', '--query', WESTERN_CAPE, '-o', format, '--color', 'never'], {
      terminal: format === 'table',
    });
    expect(result).toMatchObject({ code: 0, stdout: expected, stderr: '' });
  });
});

describe('the shapes of a result', () => {
  it('a list of values is one column named value; in JSON the list as it is', async () => {
    const query = "[?province == 'Western Cape'].score";
    expect((await go(['tenders', '--query', query, '-o', 'csv'])).stdout).toBe('value\r\n63\r\n23\r\n');
    expect((await go(['tenders', '--query', query, '-o', 'tsv'])).stdout).toBe('value\n63\n23\n');
    expect(
      (await go(['tenders', '--query', query, '-o', 'table', '--color', 'never'], { terminal: true })).stdout,
    ).toBe('value\n   63\n   23\n');
    expect((await go(['tenders', '--query', query, '-o', 'json'])).stdout).toBe('[\n  63,\n  23\n]\n');
    expect((await go(['tenders', '--query', query, '-o', 'ndjson'])).stdout).toBe('63\n23\n');
  });

  it('one value prints as itself: alone on its line, JSON in json', async () => {
    const query = "[?province == 'Western Cape'] | [0].ocid";
    for (const format of ['table', 'tsv'])
      expect((await go(['tenders', '--query', query, '-o', format])).stdout).toBe('ocds-9t57fa-141624\n');
    expect((await go(['tenders', '--query', query, '-o', 'csv'])).stdout).toBe('ocds-9t57fa-141624\r\n');
    for (const format of ['json', 'ndjson'])
      expect((await go(['tenders', '--query', query, '-o', format])).stdout).toBe('"ocds-9t57fa-141624"\n');
    expect((await go(['tenders', '--query', 'length(@)', '-o', 'tsv'])).stdout).toBe('64\n');
    expect((await go(['tenders', '--query', '[0].decision', '-o', 'tsv'])).stdout).toBe('\n');
    expect((await go(['tenders', '--query', '[0].decision', '-o', 'json'])).stdout).toBe('null\n');
  });

  it('one object is one row', async () => {
    const result = await go([
      'tenders',
      '--query',
      "{total: length(@), bid: length([?decision == 'BID'])}",
      '-o',
      'csv',
    ]);
    expect(result.stdout).toBe('total,bid\r\n64,3\r\n');
  });

  it("the answer's own records keep the command's view: its default columns in a table, every field in CSV", async () => {
    const filtered = await go(['tenders', '--query', '[?score > `95`]', '--color', 'never'], { terminal: true });
    const plain = await go(['tenders', '--limit', '3', '--color', 'never'], { terminal: true });
    expect(filtered.stdout).toBe(plain.stdout);
    // The default columns, headed by their field names, less those 100 columns cannot hold.
    expect(filtered.stdout.split('\n')[0]!.split(/ {2,}/)).toEqual([
      'ocid',
      'tier',
      'title',
      'closesOn',
      'runwayDays',
      'decision',
    ]);
    const csv = await go(['tenders', '--query', '[0]', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'ocid,title,buyer,province,closesOn,runwayDays,score,tier,reasons,briefingNote,decision,analysisRunId,docCount',
    );
    expect(csv.stdout.split('\r\n')[1]).toMatch(
      /^ocds-9t57fa-140905,"Installation of high-mast lighting, Mbombela CBD",/,
    );
    // me is one object: @ keeps its field/value pairs.
    const me = await go(['me', '--query', '@', '--color', 'never'], { terminal: true });
    expect(me.stdout).toBe((await go(['me', '--color', 'never'], { terminal: true })).stdout);
  });

  it('an empty list keeps the columns the expression names; a table says so on stderr', async () => {
    expect((await go(['tenders', '--query', '[?score > `100`].{a: ocid, b: score}', '-o', 'csv'])).stdout).toBe(
      'a,b\r\n',
    );
    expect((await go(['tenders', '--query', '[?score > `100`].ocid', '-o', 'csv'])).stdout).toBe('value\r\n');
    const records = await go(['tenders', '--query', 'sort_by([?score > `100`], &score)', '-o', 'csv']);
    expect(records.stdout).toBe(
      'ocid,title,buyer,province,closesOn,runwayDays,score,tier,reasons,briefingNote,decision,analysisRunId,docCount\r\n',
    );
    expect((await go(['tenders', '--query', '[?score > `100`]', '-o', 'json'])).stdout).toBe('[]\n');
    const table = await cdata(['tenders', '--query', '[?score > `100`]'], {
      env: sandboxEnv(sandbox.current),
      stdoutTTY: true,
    });
    expect(table).toMatchObject({ code: 0, stdout: '', stderr: "The query's result is an empty list.\n" });
  });
});

describe('a query table at a narrow terminal keeps what the list view keeps', () => {
  const narrow = (argv: string[]) =>
    cdata([...argv, '--color', 'never'], {
      env: sandboxEnv(sandbox.current),
      stdoutTTY: true,
      stderrTTY: true,
      columns: 80,
    });

  it('the key whole (it opens the record); what the list drops, dropped whole with a note, not cut', async () => {
    const tenders = await narrow([
      'tenders',
      '--limit',
      '200',
      '--query',
      '[:2].{ocid: ocid, tier: tier, closesOn: closesOn, province: province, buyer: buyer, score: score, decision: decision}',
    ]);
    expect(tenders.code).toBe(0);
    const [head, first] = tenders.stdout.split('\n');
    expect(head!.split(/ {2,}/)).toEqual(['ocid', 'tier', 'closesOn', 'province', 'score', 'decision']);
    expect(first).toMatch(/^ocds-9t57fa-\d+ {2}/);
    // The query named the columns: fewer of them, not more, is what brings one back.
    expect(tenders.stderr).toBe('Not shown at 80 columns: buyer (name fewer with --fields, or use -o tsv).\n');

    const people = await narrow([
      'people',
      '--limit',
      '200',
      '--query',
      '[:3].{id: id, fullName: fullName, email: email, phone: phone}',
    ]);
    const rows = people.stdout.trimEnd().split('\n');
    expect(rows[0]!.split(/ {2,}/)).toEqual(['id', 'fullName', 'email']);
    // A UUID as in the list: its shortest unique prefix, which `cdata people KEY` takes.
    for (const row of rows.slice(1)) expect(row).toMatch(/^[0-9a-f]{8} {2}\S.* {2}\S+@\S+$/);
    expect(people.stderr).toBe('Not shown at 80 columns: phone (name fewer with --fields, or use -o tsv).\n');
  });

  it('renamed columns are read by their values: an id, a date, a code, a number whole; only text with spaces cut', async () => {
    const renamed = await narrow([
      'obligations',
      '--limit',
      '200',
      '--query',
      "[?currency == 'EUR'] | [:2].{ref: id, due: dueOn, amt: amount, cur: currency, what: title}",
    ]);
    expect(renamed.code).toBe(0);
    const rows = renamed.stdout.trimEnd().split('\n');
    expect(rows[0]!.split(/ {2,}/)).toEqual(['ref', 'due', 'amt', 'cur', 'what']);
    // Each whole, as the API wrote it: the id opens the record, the date keeps its day.
    for (const row of rows.slice(1))
      expect(row).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} {2}\d{4}-\d\d-\d\d +\d+\.\d\d {2}EUR {2}\S/,
      );
    expect(rows[1]).toMatch(/…$/);
    expect(Math.max(...rows.map((row) => row.length))).toBe(80);
  });

  it("one of the answer's records alone reads as `cdata <list> KEY` shows it", async () => {
    const best = await narrow(['tenders', '--query', 'max_by(@, &score)']);
    const shown = await narrow(['tenders', 'ocds-9t57fa-140905']);
    expect(best).toMatchObject({ code: 0, stdout: shown.stdout });
    expect(best.stdout.split('\n')[0]).toBe('ocid           ocds-9t57fa-140905');
  });

  it('one object reads as a record: a name and its value a line, wrapped, never cut', async () => {
    const record = await narrow([
      'tenders',
      'ocds-9t57fa-141705',
      '--query',
      '{ocid: ocid, reasons: reasons, briefingNote: briefingNote}',
    ]);
    expect(record.code).toBe(0);
    const lines = record.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ocid          ocds-9t57fa-141705');
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    const note = JSON.parse(
      (await go(['tenders', 'ocds-9t57fa-141705', '--query', 'briefingNote', '-o', 'json'])).stdout,
    ) as string;
    // Every word of the note is on the screen, across its wrapped lines.
    const shown = lines.slice(lines.findIndex((line) => line.startsWith('briefingNote'))).join(' ');
    for (const word of note.split(/\s+/)) expect(shown).toContain(word);
  });
});

describe('an empty result from a name no row has', () => {
  it('`[?tier == RECOMMENDED]` compares with a field named RECOMMENDED (null): said in every format, text shown as JMESPath writes it', async () => {
    const note =
      'The query\'s result is an empty list: no row has a field named RECOMMENDED, which compares as null. As text it is `"RECOMMENDED"`.\n';
    expect(await go(['tenders', '--query', '[?tier == RECOMMENDED].ocid', '-o', 'json'])).toMatchObject({
      code: 0,
      stdout: '[]\n',
      stderr: note,
    });
    expect(
      await go(['tenders', '--query', '[?score > `50` && (tier == RECOMMENDED || score > `100`)]'], { terminal: true }),
    ).toMatchObject({
      code: 0,
      stdout: '',
      stderr: note,
    });
    expect((await go(['tenders', '--query', '[?!(tier != RECOMMENDED)]', '-o', 'json'])).stderr).toBe(note);
    // A misspelt field: the name alone. -q keeps stderr for errors.
    expect((await go(['tenders', '--query', '[?scroe > `80`]', '-o', 'csv'])).stderr).toBe(
      "The query's result is an empty list: no row has a field named scroe, which compares as null.\n",
    );
    expect((await go(['tenders', '--query', '[?scroe > `80`]', '-o', 'csv', '-q'])).stderr).toBe('');
  });

  it('a date in double quotes (`[?closesOn < "2026-12-01"]`) is a field\'s name too: the note writes it as text', async () => {
    const result = await go(['tenders', '--query', '[?closesOn < "2026-12-01"].ocid', '-o', 'json']);
    expect(result).toMatchObject({
      code: 0,
      stdout: '[]\n',
      stderr:
        "The query's result is an empty list: no row has a field named 2026-12-01, which compares as null. In double quotes it is a field's name; as text it is '2026-12-01'.\n",
    });
    // Written as the note says, it compares the dates.
    const fixed = await go(['tenders', '--query', "[?closesOn < '2026-12-01'] | length(@)", '-o', 'json']);
    expect(fixed).toMatchObject({ code: 0, stderr: '' });
    expect(Number(fixed.stdout)).toBeGreaterThan(0);
  });

  it('a filter of the rows inside a count, a pipe, a sort or an object: said too, as the filter that kept no row', async () => {
    const note =
      "A filter in the query kept no row: no row has a field named 2026-12-01, which compares as null. In double quotes it is a field's name; as text it is '2026-12-01'.\n";
    for (const expression of [
      'length([?closesOn < "2026-12-01"])',
      '[?closesOn < "2026-12-01"] | length(@)',
      '{soon: length([?closesOn < "2026-12-01"]), all: length(@)}',
    ])
      expect(await go(['tenders', '--query', expression, '-o', 'json']), expression).toMatchObject({
        code: 0,
        stderr: note,
      });
    // Still a list: said as the result.
    expect((await go(['tenders', '--query', 'sort_by([?closesOn < "2026-12-01"], &score)', '-o', 'json'])).stderr).toBe(
      note.replace('A filter in the query kept no row', "The query's result is an empty list"),
    );
    // A filter that keeps rows although a name is missing (it compares as null, and null == null): nothing said.
    expect((await go(['tenders', '--query', '[?nope == null] | length(@)', '-o', 'json'])).stderr).toBe('');
  });

  it('a field the rows have, a result that is not emptied, or a filter not at the top: no such note', async () => {
    expect((await go(['tenders', '--query', '[?score > `100`]', '-o', 'json'])).stderr).toBe('');
    expect((await go(['tenders', '--query', '[?tier == `"RECOMMENDED"`] | [:1].ocid', '-o', 'json'])).stderr).toBe('');
    expect((await go(['tenders', '--query', '[].reasons[?@ == NOPE][]', '-o', 'json'])).stderr).toBe('');
  });
});

describe('--fields after --query', () => {
  it("chooses and orders the result's columns", async () => {
    const result = await go(['tenders', '--query', WESTERN_CAPE, '--fields', 'ocid,score', '-o', 'csv']);
    expect(result.stdout).toBe('ocid,score\r\nocds-9t57fa-141624,63\r\nocds-9t57fa-140238,23\r\n');
    expect((await go(['tenders', '--query', '[:2].ocid', '--fields', 'value', '-o', 'json'])).stdout).toBe(
      '[\n  "ocds-9t57fa-140905",\n  "ocds-9t57fa-141705"\n]\n',
    );
  });

  it('a name the result lacks is exit 2, known only after the request', async () => {
    const makeSandbox = useSandboxes();
    const own = await makeSandbox();
    const result = await cdata(['tenders', '--query', WESTERN_CAPE, '--fields', 'title'], { env: sandboxEnv(own) });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      "error: unknown field 'title' in --fields for the query's result; valid fields: score, ocid, decision, closesOn\n",
    );
    expect(own.requests).toHaveLength(1);
  });
});

describe("each format's rules hold on query results", () => {
  const FORMULA = "[?starts_with(id, '33571033')]";

  it('CSV neutralises formula cells in rows, values and a single value', async () => {
    expect((await go(['obligations', '--query', `${FORMULA}.{title: title, notes: notes}`, '-o', 'csv'])).stdout).toBe(
      "title,notes\r\nRenew B-BBEE certificate,'=SUM(A1:A9)\r\n",
    );
    expect((await go(['obligations', '--query', `${FORMULA}.notes`, '-o', 'csv'])).stdout).toBe(
      "value\r\n'=SUM(A1:A9)\r\n",
    );
    expect((await go(['obligations', '--query', `${FORMULA} | [0].notes`, '-o', 'csv'])).stdout).toBe(
      "'=SUM(A1:A9)\r\n",
    );
  });

  it('tables and TSV escape control characters in API text; JSON stays JSON', async () => {
    const escaped =
      'Supply of \\x1b[31mURGENT\\x1b[0m road-marking paint \\x1b]8;;https://evil.example/\\x07(click)\\x1b]8;;\\x07\\x1b]52;c;ZWNobyBwd25lZA==\\x07';
    const query = "[?ocid == 'ocds-9t57fa-140087']";
    expect((await go(['tenders', '--query', `${query} | [0].title`, '-o', 'table'], { terminal: true })).stdout).toBe(
      `${escaped}\n`,
    );
    expect((await go(['tenders', '--query', `${query}.title`, '-o', 'tsv'])).stdout).toBe(`value\n${escaped}\n`);
    expect((await go(['tenders', '--query', `${query}.{t: title}`, '-o', 'table'])).stdout).toBe(`t\n${escaped}\n`);
    const json = await go(['tenders', '--query', `${query} | [0].title`, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toBe(
      'Supply of \u001b[31mURGENT\u001b[0m road-marking paint \u001b]8;;https://evil.example/\u0007(click)\u001b]8;;\u0007\u001b]52;c;ZWNobyBwd25lZA==\u0007',
    );
  });

  it('one text value at a terminal keeps its own line breaks, as the record view does; TSV escapes them', async () => {
    const note = ['tenders', 'ocds-9t57fa-140905', '--query', 'briefingNote'];
    expect((await go(note, { terminal: true })).stdout).toBe(
      'Compulsory site inspection:\n2026-12-06 09:00\nMeet at the Mbombela depot gate\n',
    );
    expect((await go(note)).stdout).toBe(
      'Compulsory site inspection:\\n2026-12-06 09:00\\nMeet at the Mbombela depot gate\n',
    );
  });

  it('numbers print exactly as the API wrote them where the query passes them through', async () => {
    const match = '[?amount > `2067828.3` && amount < `2067828.5`]';
    // The record itself, a projection, a list of values, one value: 2067828.40, not 2067828.4.
    expect((await go(['obligations', '--limit', '200', '--query', match, '-o', 'json'])).stdout).toContain(
      '"amount": 2067828.40,',
    );
    expect(
      (await go(['obligations', '--limit', '200', '--query', `${match}.{a: amount}`, '-o', 'ndjson'])).stdout,
    ).toBe('{"a":2067828.40}\n');
    expect((await go(['obligations', '--limit', '200', '--query', `${match}.amount`, '-o', 'csv'])).stdout).toBe(
      'value\r\n2067828.40\r\n',
    );
    expect((await go(['obligations', '--limit', '200', '--query', `${match} | [0].amount`, '-o', 'tsv'])).stdout).toBe(
      '2067828.40\n',
    );
    expect((await go(['obligations', '--limit', '200', '--query', `max(${match}.amount)`, '-o', 'json'])).stdout).toBe(
      '2067828.40\n',
    );
    // What the query computes prints as a JavaScript number does.
    expect(
      (await go(['obligations', '--limit', '200', '--query', `${match} | [0].amount + \`0.01\``, '-o', 'json'])).stdout,
    ).toBe('2067828.41\n');
  });

  it('sort() orders numbers as numbers (the library sorts them as text)', async () => {
    expect((await go(['tenders', '--query', 'sort(`[10, 9, 100, -1]`)', '-o', 'ndjson'])).stdout).toBe(
      '-1\n9\n10\n100\n',
    );
  });

  it("a JavaScript property name is a missing field, as in JSON, not the object's method", async () => {
    const result = await go([
      'tenders',
      '--query',
      '[0].[constructor, toString, __proto__, hasOwnProperty]',
      '-o',
      'json',
    ]);
    expect(JSON.parse(result.stdout)).toEqual([null, null, null, null]);
  });
});

describe('--query with --out', () => {
  it('writes the result to the file in the format of its extension', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'cdata-query-'));
    try {
      const result = await go(['tenders', '--query', WESTERN_CAPE, '--out', join(dir, 'wc.csv')]);
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(readFileSync(join(dir, 'wc.csv'), 'utf8')).toBe(
        'score,ocid,decision,closesOn\r\n63,ocds-9t57fa-141624,,2026-12-11\r\n23,ocds-9t57fa-140238,,2027-01-04\r\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
