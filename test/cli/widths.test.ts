// Tables that fit, judged as a user sees them: the built binary in pseudo-terminals 80 and 120
// wide. The main text column gets the room first (at 80, `tenders --tier RECOMMENDED` shows at
// least 30 characters of every title), a column a flag made constant is left out, narrow
// headings come before cut text, and one record shows every field, wrapped to the width.
import { stripVTControlCharacters } from 'node:util';
import cliTableUtils from 'cli-table3/src/utils.js';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, fieldNames, findEndpoint } from '../../src/core/endpoints.js';
import { sanitize } from '../../src/core/sanitize.js';
import { tempConfigDir } from '../helpers/run.js';
import { runBin, runBinInTerminal } from '../helpers/spawn.js';

const env = () => ({ CDATA_CONFIG_DIR: tempConfigDir() });
const width = (line: string) => cliTableUtils.strlen(line);

/** What a terminal `columns` wide shows for `argv`, as lines without colour. */
async function shown(argv: string[], columns: number): Promise<string[]> {
  const result = await runBinInTerminal(['--sandbox', '--no-pager', ...argv], { columns, env: env() });
  expect(result.code, result.stdout).toBe(0);
  return stripVTControlCharacters(result.stdout).split('\r\n').filter((line) => line !== '' && !line.startsWith('showing '));
}

/** The rows as the API sends them (the binary's own sandbox: the same day's data). */
async function json(argv: string[]): Promise<Record<string, unknown>[]> {
  const result = await runBin(['--sandbox', ...argv, '-o', 'json'], { env: env() });
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}

/** A cell as the table shows it: the whole text, or at least `least` characters of it and `…`. */
function expectShown(cell: string, text: string, least: number): void {
  const full = sanitize(text);
  if (cell === full) return;
  expect(cell.endsWith('…'), `${cell} is cut with …`).toBe(true);
  expect(full.startsWith(cell.slice(0, -1)), `${cell} is the start of ${full}`).toBe(true);
  expect([...cell.slice(0, -1)].length, `${cell} shows at least ${least} characters`).toBeGreaterThanOrEqual(least);
}

describe('cdata tenders --tier RECOMMENDED', () => {
  it('at 80 columns: no tier column, narrow headings, and at least 30 characters of every title', async () => {
    const lines = await shown(['tenders', '--tier', 'RECOMMENDED'], 80);
    const tenders = await json(['tenders', '--tier', 'RECOMMENDED']);
    expect(lines[0]).toMatch(/^score {2}title {2,}buyer {2,}closes {6}days {2}decision$/);
    expect(lines).toHaveLength(tenders.length + 1);
    expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(80);
    lines.slice(1).forEach((line, i) => {
      const [score, title] = line.trim().split(/ {2,}/);
      expect(score).toBe(String(tenders[i]!.score));
      expectShown(title!, String(tenders[i]!.title), 30);
    });
    expect(lines.slice(1).some((line) => line.includes('…'))).toBe(true);
  });

  it('at 120 columns: the title twice the buyer`s room, at least 50 characters, the buyer 25', async () => {
    const lines = await shown(['tenders', '--tier', 'RECOMMENDED'], 120);
    const tenders = await json(['tenders', '--tier', 'RECOMMENDED']);
    expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(120);
    lines.slice(1).forEach((line, i) => {
      const [, title, buyer] = line.trim().split(/ {2,}/);
      expectShown(title!, String(tenders[i]!.title), 50);
      expectShown(buyer!, String(tenders[i]!.buyer), 25);
    });
  });

  it('--undecided leaves out the decision column too; --fields brings back whatever it names', async () => {
    expect((await shown(['tenders', '--tier', 'RECOMMENDED', '--undecided', '--limit', '3'], 120))[0]).toMatch(/^score {2}title {2,}buyer {2,}closes {2,}days$/);
    expect((await shown(['tenders', '--tier', 'RECOMMENDED', '--fields', 'tier,title', '--limit', '3'], 120))[0]).toMatch(/^tier {9}title$/);
  });
});

describe('every list, at 80 and 120 columns', () => {
  const lists = ENDPOINTS.filter((e) => e.shape === 'list');
  it.each(lists.map((e) => e.name))('%s fits, and its main text column shows at least 30 characters of each value', async (name) => {
    const endpoint = findEndpoint(name)!;
    const argv = [name, ...(endpoint.params.some((p) => p.kind === 'limit') ? ['--limit', '30'] : [])];
    const rows = await json(argv);
    for (const columns of [80, 120]) {
      const lines = await shown(argv, columns);
      expect(lines).toHaveLength(rows.length + 1);
      expect(Math.max(...lines.map(width)), `${name} at ${columns}`).toBeLessThanOrEqual(columns);
      // The main column, by its heading; no cell before it is ever empty in the demo data.
      const main = lines[0]!.split(/ {2,}/).indexOf(endpoint.main!);
      expect(main).toBeGreaterThanOrEqual(0);
      lines.slice(1).forEach((line, i) => {
        const value = String(rows[i]![endpoint.main!]);
        expectShown(line.trim().split(/ {2,}/)[main]!, value, Math.min(30, value.length));
      });
    }
  });

  it('profile list fits too', async () => {
    const configDir = tempConfigDir();
    for (const profile of ['prod', 'staging-eu-west-with-a-long-name']) {
      const url = `https://api.${profile}.example-company-with-a-long-domain-name.co.za/api/v1`;
      expect((await runBin(['config', 'set', 'base-url', url, '--profile', profile], { env: { CDATA_CONFIG_DIR: configDir } })).code).toBe(0);
    }
    for (const columns of [80, 120]) {
      const result = await runBinInTerminal(['profile', 'list', '--color', 'never'], { columns, env: { CDATA_CONFIG_DIR: configDir } });
      const lines = result.stdout.split('\r\n').filter((line) => line !== '');
      expect(lines[0]).toMatch(/^name {2,}default {2}baseUrl {2,}key$/);
      expect(lines.slice(1).map((line) => line.split(' ')[0])).toEqual(['prod', 'staging-eu-west-with-a-long-name']);
      expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(columns);
    }
  });
});

describe('one record', () => {
  it.each([80, 120])('at %i columns: every field once, values wrapped under themselves to the width', async (columns) => {
    const [tender] = (await json(['tenders', '--limit', '200'])).filter((row) => String(row.briefingNote ?? '').length > 110 && String(row.title).length > 66);
    const lines = await shown(['tenders', String(tender!.ocid)], columns);
    const tenders = findEndpoint('tenders')!;
    const indent = Math.max(...fieldNames(tenders).map((field) => field.length)) + 2;
    expect(lines.filter((line) => !line.startsWith(' ')).map((line) => line.split(' ')[0])).toEqual(fieldNames(tenders));
    expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(columns);
    const value = (field: string) => {
      const at = lines.findIndex((line) => line.startsWith(`${field} `));
      const end = lines.findIndex((line, i) => i > at && !line.startsWith(' '));
      return lines.slice(at, end).map((line) => line.slice(indent));
    };
    // A title of 67+ characters takes two lines at 80 (65 for values), one at 120 (105).
    expect(value('title')).toHaveLength(columns === 80 ? 2 : 1);
    expect(value('title').join(' ')).toBe(tender!.title);
    expect(value('briefingNote').length).toBeGreaterThan(1);
    expect(value('briefingNote').join(' ')).toBe(String(tender!.briefingNote).replace(/\n/g, ' '));
  });
});
