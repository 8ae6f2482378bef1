// Tables that fit, judged as a user sees them: the built binary in pseudo-terminals 80 and 120
// wide (tenders, one record, profile list), and every list at 80, 120 and 60 columns through
// `main` in-process with a terminal's stdout and stderr: the same renderer, without a pseudo-
// terminal, a shell and a Node start-up for each of the 24 (~8 s of the suite's CPU).
// Every list leads with its key, which opens the record; headings are the field names;
// enum values, dates, numbers and headings are never cut: whole columns are dropped by each
// list's order (a note says which), columns kept together (an amount and its currency) go
// as one, and only the main text column is cut, keeping at least 30 characters. A column a
// flag made constant is left out, and one record shows every field, wrapped to the width.
import { stripVTControlCharacters } from 'node:util';
import cliTableUtils from 'cli-table3/src/utils.js';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, fieldNames, findEndpoint, type Endpoint } from '../../src/core/endpoints.js';
import { sanitize } from '../../src/core/sanitize.js';
import { cellText } from '../../src/output/cells.js';
import { dayOf } from '../../src/output/table.js';
import { memo } from '../helpers/once.js';
import { run, tempConfigDir } from '../helpers/run.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { runBin, runBinInTerminal } from '../helpers/spawn.js';

/**
 * One sandbox for the file, which every run reads, the built binary's and `main`'s in-process:
 * the same day's data to each. (A `--sandbox` of each run's own made that data anew, ~37 ms of
 * CPU in each of the binaries.)
 */
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const width = (line: string) => cliTableUtils.strlen(line);
/** The notes on stderr, which a pseudo-terminal shows among the lines. */
const NOTE = /^(These are|This is|Not shown)/;

/**
 * `shown` parted into the table's lines and the notes. The note of what was not shown, wider than
 * the terminal, goes on in lines indented two spaces, each line no wider than the terminal: here
 * joined to it by one space again. (Other notes are one line, which the terminal wraps.)
 */
function parted(shown: string[], columns: number): { lines: string[]; notes: string[] } {
  const lines: string[] = [];
  const notes: string[] = [];
  let inDropped = false;
  for (const line of shown) {
    const goesOn: boolean = inDropped && line.startsWith('  ');
    inDropped = line.startsWith('Not shown') || goesOn;
    if (inDropped) expect(width(line), line).toBeLessThanOrEqual(columns);
    if (goesOn) notes.push(`${notes.pop()} ${line.slice(2)}`);
    else (NOTE.test(line) ? notes : lines).push(line);
  }
  return { lines, notes };
}

/**
 * The answers of one run, by what was asked: every run reads the same data, so a list at a width
 * (or as JSON) that two tests read is run once (the suite's time).
 */
const once = memo();

/** What a terminal `columns` wide shows for `argv`: the table's lines without colour, and the notes. */
function terminal(argv: string[], columns: number): Promise<{ lines: string[]; notes: string[] }> {
  return once(['terminal', argv, columns], () => inTerminal(argv, columns));
}

async function inTerminal(argv: string[], columns: number): Promise<{ lines: string[]; notes: string[] }> {
  const result = await runBinInTerminal(['--no-pager', ...argv], { columns, env: env() });
  expect(result.code, result.stdout).toBe(0);
  const all = stripVTControlCharacters(result.stdout)
    .split('\r\n')
    .filter((line) => line !== '');
  return parted(all, columns);
}

async function shown(argv: string[], columns: number): Promise<string[]> {
  return (await terminal(argv, columns)).lines;
}

/** As `terminal`, from `main` in-process: stdout and stderr are a terminal `columns` wide. */
function screen(argv: string[], columns: number): Promise<{ lines: string[]; notes: string[] }> {
  return once(['screen', argv, columns], async () => {
    const result = await run(['--no-pager', ...argv], {
      env: { ...env(), TERM: 'xterm-256color' },
      stdoutTTY: true,
      stderrTTY: true,
      columns,
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = (text: string) =>
      stripVTControlCharacters(text)
        .split('\n')
        .filter((line) => line !== '');
    // What a terminal would show among the table's lines: notes alone.
    const { lines: strays, notes } = parted(lines(result.stderr), columns);
    expect(strays).toEqual([]);
    return { lines: lines(result.stdout), notes };
  });
}

/** The rows as the API sends them (`main` in-process, from the file's sandbox as the binary's runs). */
function json(argv: string[]): Promise<Record<string, unknown>[]> {
  return once(['json', argv], async () => {
    const result = await run([...argv, '-o', 'json'], { env: env() });
    return JSON.parse(result.stdout) as Record<string, unknown>[];
  });
}

/** A cell as the table shows it: the whole text, or at least `least` characters of it and `…`. */
function expectShown(cell: string, text: string, least: number): void {
  const full = sanitize(text);
  if (cell === full) return;
  expect(cell.endsWith('…'), `${cell} is cut with …`).toBe(true);
  expect(full.startsWith(cell.slice(0, -1)), `${cell} is the start of ${full}`).toBe(true);
  expect([...cell.slice(0, -1)].length, `${cell} shows at least ${least} characters`).toBeGreaterThanOrEqual(least);
}

/**
 * A table's lines as cells, by the columns its headings start at (in display columns: a wide
 * character takes two), so empty and right-aligned cells are read where they are.
 */
function cellsOf(lines: readonly string[]): { headings: string[]; rows: string[][] } {
  const columnsOf = (line: string) => [...line].flatMap((char) => (width(char) === 2 ? [char, ''] : [char]));
  const head = columnsOf(lines[0]!);
  const starts = head.flatMap((char, i) => (char !== ' ' && (i === 0 || head[i - 1] === ' ') ? [i] : []));
  const cut = (line: string) => {
    const chars = columnsOf(line);
    return starts.map((start, i) =>
      chars
        .slice(start, starts[i + 1] ?? chars.length)
        .join('')
        .trim(),
    );
  };
  return { headings: cut(lines[0]!), rows: lines.slice(1).map(cut) };
}

describe('cdata tenders --tier RECOMMENDED', () => {
  it('at 80 columns: no tier column; the key, at least 30 characters of every title, the closing date and the decision', async () => {
    const { lines, notes } = await terminal(['tenders', '--tier', 'RECOMMENDED'], 80);
    const tenders = await json(['tenders', '--tier', 'RECOMMENDED']);
    expect(lines[0]).toMatch(/^ocid {16}title {2,}closesOn {4}decision$/);
    expect(lines).toHaveLength(tenders.length + 1);
    expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(80);
    const { rows } = cellsOf(lines);
    rows.forEach(([ocid, title, closesOn, decision], i) => {
      expect(ocid).toBe(tenders[i]!.ocid);
      expectShown(title!, String(tenders[i]!.title), 30);
      expect(closesOn).toBe(tenders[i]!.closesOn ?? '');
      expect(decision).toBe(tenders[i]!.decision ?? '');
    });
    expect(rows.some(([, title]) => title!.endsWith('…'))).toBe(true);
    expect(notes).toContain('Not shown at 80 columns: score, buyer, runwayDays (--fields brings them back).');
  });

  it('at 120 columns: every column but the buyer, and at least 50 characters of each title', async () => {
    const { lines, notes } = await terminal(['tenders', '--tier', 'RECOMMENDED'], 120);
    const tenders = await json(['tenders', '--tier', 'RECOMMENDED']);
    expect(lines[0]).toMatch(/^ocid {16}score {2}title {2,}closesOn {4}runwayDays {2}decision$/);
    expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(120);
    cellsOf(lines).rows.forEach(([, , title], i) => expectShown(title!, String(tenders[i]!.title), 50));
    expect(notes).toContain('Not shown at 120 columns: buyer (--fields brings it back).');
  });

  it('--decided keeps the decision column longest: at 80 columns the closing date goes before it', async () => {
    const { lines, notes } = await screen(['tenders', '--decided', '--limit', '5'], 80);
    expect(lines[0]).toMatch(/^ocid {16}tier {2,}title {2,}decision$/);
    const decided = await json(['tenders', '--decided', '--limit', '5']);
    expect(lines.slice(1).map((line) => line.split(/ {2,}/).at(-1))).toEqual(decided.map((t) => t.decision));
    expect(notes).toContain('Not shown at 80 columns: score, buyer, closesOn, runwayDays (--fields brings them back).');
    // Without --decided the decision goes first, as before.
    expect((await screen(['tenders', '--limit', '5'], 80)).lines[0]).toMatch(/^ocid {16}tier {2,}title {2,}closesOn$/);
  });

  it('--undecided leaves out the decision column too; --fields brings back whatever it names', async () => {
    const undecided = (await shown(['tenders', '--tier', 'RECOMMENDED', '--undecided', '--limit', '3'], 120))[0];
    expect(undecided).toMatch(/^ocid {16}score {2}title {2,}(buyer {2,})?closesOn {4}runwayDays$/);
    expect(
      (await shown(['tenders', '--tier', 'RECOMMENDED', '--fields', 'tier,title', '--limit', '3'], 120))[0],
    ).toMatch(/^tier {9}title$/);
    // Named columns are dropped too when they cannot fit, and the note says what to do instead.
    const { lines, notes } = await terminal(
      ['tenders', '--fields', 'ocid,buyer,title,tier,decision,closesOn,runwayDays', '--limit', '3'],
      80,
    );
    expect(lines[0]).toMatch(/^ocid {16}title {2,}tier {2,}closesOn$/);
    expect(notes).toContain(
      'Not shown at 80 columns: buyer, decision, runwayDays (name fewer with --fields, or use -o tsv).',
    );
  });
});

/** A list's argv: 30 rows where it takes --limit. */
const listArgv = (endpoint: Endpoint) => [
  endpoint.name,
  ...(endpoint.params.some((p) => p.kind === 'limit') ? ['--limit', '30'] : []),
];

describe.each([80, 120, 60])('every list, at %i columns', (columns) => {
  const lists = ENDPOINTS.filter((e) => e.shape === 'list');
  it.each(lists.map((e) => e.name))(
    '%s: the key first, field names as headings, only the main column cut, the rest whole or left out',
    async (name) => {
      const endpoint = findEndpoint(name)!;
      const rows = await json(listArgv(endpoint));
      const { lines, notes } = await screen(listArgv(endpoint), columns);
      expect(lines).toHaveLength(rows.length + 1);
      expect(Math.max(...lines.map(width)), `${name} at ${columns}`).toBeLessThanOrEqual(columns);
      const { headings, rows: cells } = cellsOf(lines);
      expect(headings[0]).toBe(endpoint.key);
      // Every heading is a field name, whole, in the default columns' order; what is left out, the note names.
      for (const heading of headings) expect(fieldNames(endpoint)).toContain(heading);
      expect(headings).toEqual(endpoint.columns.filter((field) => headings.includes(field)));
      expect(headings).toContain(endpoint.main);
      // Columns kept together show together or not at all: an amount never without its currency.
      for (const group of endpoint.together ?? [])
        expect(
          group.filter((field) => headings.includes(field)),
          `${name} at ${columns}`,
        ).toEqual(group.some((field) => headings.includes(field)) ? group : []);
      const left = endpoint.columns.filter((field) => !headings.includes(field));
      expect(notes.filter((note) => note.startsWith('Not shown'))).toEqual(
        left.length === 0
          ? []
          : [
              `Not shown at ${columns} columns: ${left.join(', ')} (--fields brings ${left.length === 1 ? 'it' : 'them'} back).`,
            ],
      );
      cells.forEach((line, i) => {
        const row = rows[i]!;
        line.forEach((cell, c) => {
          const field = headings[c]!;
          const text = sanitize(cellText(row[field] as never, ', '));
          if (field === endpoint.main) return expectShown(cell, text, Math.min(30, text.length));
          if (field === 'id') {
            expect(cell.length).toBeGreaterThanOrEqual(8);
            return expect(text.startsWith(cell), `${cell} starts ${text}`).toBe(true);
          }
          // Whole: a date-time may show as its day.
          expect([text, dayOf(text)], `${name}.${field} at ${columns}`).toContain(cell);
        });
      });
    },
  );
});

describe('a word is never cut', () => {
  it('a hash --fields names, which no drop order covers: whole, or left out with a note, never `65531b44…`', async () => {
    const argv = ['documents', '--limit', '5', '--fields', 'id,sha256,title'];
    const rows = await json(argv);
    const wide = await screen(argv, 120);
    expect(cellsOf(wide.lines).headings).toEqual(['id', 'sha256', 'title']);
    expect(cellsOf(wide.lines).rows.map((cells) => cells[1])).toEqual(rows.map((row) => row.sha256 ?? ''));
    const narrow = await screen(argv, 80);
    expect(cellsOf(narrow.lines).headings).toEqual(['id', 'title']);
    expect(narrow.notes).toContain('Not shown at 80 columns: sha256 (name fewer with --fields, or use -o tsv).');
  });
});

describe('the first cell of a row opens that record', () => {
  const lists = ENDPOINTS.filter((e) => e.shape === 'list');
  it.each(lists.map((e) => e.name))('%s, at 80 columns: the first and the last row', async (name) => {
    const endpoint = findEndpoint(name)!;
    const rows = await json(listArgv(endpoint));
    const { rows: cells } = cellsOf((await screen(listArgv(endpoint), 80)).lines);
    for (const at of [0, cells.length - 1]) {
      const key = cells[at]![0]!;
      const result = await run([name, key, '-o', 'json'], { env: env() });
      expect(result.code, `cdata ${name} ${key}: ${result.stderr}`).toBe(0);
      expect((JSON.parse(result.stdout) as Record<string, unknown>)[endpoint.key!]).toBe(rows[at]![endpoint.key!]);
    }
  });
});

describe('profile list', () => {
  it('fits too', async () => {
    const configDir = tempConfigDir();
    for (const profile of ['prod', 'staging-eu-west-with-a-long-name']) {
      const url = `https://api.${profile}.example-company-with-a-long-domain-name.co.za/api/v1`;
      expect(
        (
          await runBin(['config', 'set', 'base-url', url, '--profile', profile], {
            env: { CDATA_CONFIG_DIR: configDir },
          })
        ).code,
      ).toBe(0);
    }
    for (const columns of [80, 120]) {
      const result = await runBinInTerminal(['profile', 'list', '--color', 'never'], {
        columns,
        env: { CDATA_CONFIG_DIR: configDir },
      });
      const lines = result.stdout.split('\r\n').filter((line) => line !== '');
      expect(lines[0]).toMatch(/^name {2,}default {2}baseUrl {2,}key$/);
      expect(lines.slice(1).map((line) => line.split(' ')[0])).toEqual(['prod', 'staging-eu-west-with-a-long-name']);
      expect(Math.max(...lines.map(width))).toBeLessThanOrEqual(columns);
    }
  });
});

describe('one record', () => {
  it.each([80, 120])(
    'at %i columns: every field once, values wrapped under themselves to the width',
    async (columns) => {
      const [tender] = (await json(['tenders', '--limit', '200'])).filter(
        (row) => String(row.briefingNote ?? '').length > 110 && String(row.title).length > 66,
      );
      const lines = await shown(['tenders', String(tender!.ocid)], columns);
      const tenders = findEndpoint('tenders')!;
      const indent = Math.max(...fieldNames(tenders).map((field) => field.length)) + 2;
      expect(lines.filter((line) => !line.startsWith(' ')).map((line) => line.split(' ')[0])).toEqual(
        fieldNames(tenders),
      );
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
    },
  );
});
