// Every endpoint command in every format, against what the sandbox returns for the same query.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, fieldNames, findEndpoint, type Endpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonValue } from '../../src/core/json.js';
import { unescapeTsv } from '../../src/core/sanitize.js';
import { fetchDirect, NOW } from '../helpers/api.js';
import { csvCell, parseStrictCsv, rowsOf, tableCell, tableLinePattern, tsvCell } from '../helpers/cells.js';
import { cdata, unsafeChars } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
const endpoints = ENDPOINTS as readonly Endpoint[];

/** The rows `cdata NAME` asks for: limit 100 (always sent) where the endpoint takes one. */
const expected = (endpoint: Endpoint): Promise<JsonValue> =>
  fetchDirect(sandbox.current, endpoint, endpoint.params.some((p) => p.name === 'limit') ? { limit: '100' } : {});

const lines = (text: string): string[] => {
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
};

describe.each(endpoints.map((endpoint) => [endpoint.name, endpoint] as const))('cdata %s', (name, endpoint) => {
  const go = (...argv: string[]) => cdata([name, ...argv], { env: sandboxEnv(sandbox.current) });

  it('-o json prints exactly what the API returned', async () => {
    const result = await go('-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(parseJson(result.stdout)).toEqual(await expected(endpoint));
  });

  it('-o ndjson prints one compact object per line, equal to the rows', async () => {
    const result = await go('-o', 'ndjson');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const rows = rowsOf(await expected(endpoint));
    expect(lines(result.stdout).map((line) => parseJson(line))).toEqual(rows);
  });

  it('-o csv parses back to the data (header of field names, CSV cell rules)', async () => {
    const result = await go('-o', 'csv');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const fields = fieldNames(endpoint);
    const records = parseStrictCsv(result.stdout) as string[][];
    expect(records).toEqual([
      fields,
      ...rowsOf(await expected(endpoint)).map((row) => fields.map((field) => csvCell(row[field]))),
    ]);
    expect(result.stdout.split('\r\n').length).toBeGreaterThan(1); // RFC 4180 line ends
  });

  it('-o tsv rows unescape back to the data', async () => {
    const result = await go('-o', 'tsv');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const fields = fieldNames(endpoint);
    expect(unsafeChars(result.stdout, { allowTab: true })).toEqual([]);
    const parsed = lines(result.stdout).map((line) => line.split('\t').map(unescapeTsv));
    expect(parsed).toEqual([
      fields,
      ...rowsOf(await expected(endpoint)).map((row) => fields.map((field) => tsvCell(row[field]))),
    ]);
  });

  it('-o table shows the default columns under a header row (a record: every field sent, one per line)', async () => {
    const result = await cdata([name, '--color', 'never'], { env: sandboxEnv(sandbox.current), stdoutTTY: true });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(unsafeChars(result.stdout)).toEqual([]);
    const rows = rowsOf(await expected(endpoint));
    const printed = lines(result.stdout);
    if (endpoint.shape === 'object') {
      // A field the API leaves out (me's email, for a key) is no line.
      const fields = fieldNames(endpoint).filter((field) => Object.hasOwn(rows[0]!, field));
      expect(fields.length).toBeLessThan(fieldNames(endpoint).length);
      const width = Math.max(...fields.map((field) => field.length));
      const values = (value: JsonValue | undefined) =>
        Array.isArray(value) ? value.map((item) => `- ${tableCell(item)}`) : [tableCell(value)];
      const expected = fields.flatMap((field) =>
        values(rows[0]![field]).map((text, n) =>
          `${n === 0 ? field.padEnd(width) : ' '.repeat(width)}  ${text}`.trimEnd(),
        ),
      );
      expect(printed).toEqual(expected);
      return;
    }
    expect(printed).toHaveLength(rows.length + 1);
    expect(printed[0]).toMatch(tableLinePattern(endpoint.columns));
    // The key first, an id as its shortest prefix of 8 or more that no other row shown shares.
    const ids = rows.map((row) => String(row.id));
    const shown = (column: string, value: JsonValue | undefined) =>
      column === 'id' && endpoint.key === 'id' ? shortestPrefix(String(value), ids) : tableCell(value);
    rows.forEach((row, i) =>
      expect(printed[i + 1]).toMatch(tableLinePattern(endpoint.columns.map((column) => shown(column, row[column])))),
    );
  });
});

describe('format details', () => {
  const env = () => sandboxEnv(sandbox.current);

  it('people is persons', async () => {
    const people = await cdata(['people', '-o', 'json'], { env: env() });
    const persons = await cdata(['persons', '-o', 'json'], { env: env() });
    expect(people.code).toBe(0);
    expect(people.stdout).toBe(persons.stdout);
    expect(sandbox.current.requests.at(-1)!.path).toBe('/api/v1/graph/persons');
  });

  it('csv keeps numbers as the API wrote them and neutralises formulas, never numbers', async () => {
    const obligations = parseStrictCsv(
      (await cdata(['obligations', '--limit', '200', '-o', 'csv', '-f', 'amount,notes'], { env: env() })).stdout,
    ) as string[][];
    const amounts = obligations.slice(1).map(([amount]) => amount!);
    expect(amounts.filter((amount) => amount !== '').every((amount) => /^\d+\.\d\d$/.test(amount))).toBe(true);
    expect(amounts.some((amount) => amount.endsWith('0'))).toBe(true); // trailing zeros kept: 1250000.00, 8812.40
    expect(obligations[1]).toEqual(['', "'=SUM(A1:A9)"]);
    expect(obligations.map(([, notes]) => notes)).toContain("'-R 15 000 retention withheld until snag list is closed");
    expect(obligations.map(([, notes]) => notes)).toContain("'+VAT (15%)");
    expect(obligations.map(([, notes]) => notes)).toContain("'@finance please confirm the bank details by phone");

    const tenders = parseStrictCsv(
      (await cdata(['tenders', '--limit', '200', '-o', 'csv', '-f', 'runwayDays'], { env: env() })).stdout,
    ) as string[][];
    const negative = tenders
      .slice(1)
      .map(([days]) => days!)
      .filter((days) => days.startsWith('-') || days.startsWith("'"));
    expect(negative.length).toBeGreaterThan(0);
    expect(negative.every((days) => /^-\d+$/.test(days))).toBe(true);
  });

  it('table right-aligns numbers under their header', async () => {
    const result = await cdata(['tenders', '--color', 'never'], { env: env(), stdoutTTY: true });
    const rows = rowsOf(await fetchDirect(sandbox.current, findEndpoint('tenders')!, { limit: '100' }));
    const [header, ...body] = lines(result.stdout);
    // A column ends two spaces before the next one's header starts.
    for (const [column, next] of [
      ['score', 'title'],
      ['runwayDays', 'decision'],
    ] as const) {
      const start = header!.indexOf(column);
      const end = header!.indexOf(next) - 2;
      const cells = body.map((line) => line.padEnd(end).slice(start, end));
      expect(cells).toEqual(rows.map((row) => tableCell(row[column]).padStart(end - start)));
    }
    expect(rows.some((row) => Number(row.runwayDays) < 0)).toBe(true);
  });
});

function shortestPrefix(id: string, all: readonly string[]): string {
  let length = 8;
  while (all.some((other) => other !== id && other.startsWith(id.slice(0, length)))) length++;
  return id.slice(0, length);
}
