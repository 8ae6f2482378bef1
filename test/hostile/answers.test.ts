// Answers built to hurt: bodies slow to parse, nested past any stack, longer than the API ever
// sends, larger than the caps; each must end in bounded time with the documented exit code and a
// message saying what came, never a hang or an internal error (exit 1). No test here times
// itself: a body that made cdata busy for minutes fails by the test's own time-out, and what
// these bodies cost belongs to `npm run bench`, where a slow machine is not a failure.
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_ERROR_BODY_BYTES } from '../../src/client/sizes.js';
import { MAX_DEPTH, MAX_VALUES } from '../../src/core/json.js';
import { cdata } from '../helpers/checked.js';
import { testIo } from '../helpers/io.js';
import { runWith } from '../helpers/run.js';
import { useFolders } from './folders.js';
import { answer, deepRow, emptyRows, unterminatedEscapes, useHostileServers } from './server.js';

const serve = useHostileServers();
const folder = useFolders();
const KEY = 'svc_HostileAnswersKey0123456789';

async function against(handler: Parameters<typeof serve>[0], argv: string[], options: { now?: () => number } = {}) {
  const server = await serve(handler);
  const result = await cdata(argv, {
    env: { CDATA_BASE_URL: server.url, CDATA_API_KEY: KEY, CDATA_CONFIG_DIR: folder() },
    ...options,
  });
  return { ...result, requests: server.requests.length };
}

describe('bodies that made the number scan quadratic', () => {
  it('a 500 of `"` and 500,000 escaped quotes (1 MB): unread past 64 KiB, exit 6 at once', async () => {
    const result = await against(answer(500, unterminatedEscapes(500_000)), [
      'tenders',
      '--timeout',
      '5',
      '--retries',
      '0',
    ]);
    expect(result).toMatchObject({ code: 6, stdout: '', requests: 1 });
    expect(result.stderr).toBe(
      'error: Internal Server Error (HTTP 500)\nhint: The service (or a proxy before it) failed; if this persists, report the time it happened: the answer carried no correlation id.\n',
    );
  });

  it('the same body cut to fit the error cap is parsed, in linear time', async () => {
    const body = unterminatedEscapes(Math.floor(MAX_ERROR_BODY_BYTES / 2) - 1);
    expect(body.length).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES);
    const result = await against(answer(401, body), ['tenders', '--timeout', '5']);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe('error: Unauthorized (HTTP 401)');
  });

  it('a 200 of the same up to the body cap: exit 7 well within --timeout', async () => {
    const result = await against(answer(200, unterminatedEscapes(MAX_BODY_BYTES / 2 - 1)), [
      'tenders',
      '--timeout',
      '10',
    ]);
    expect(result).toMatchObject({ code: 7, stdout: '', requests: 1 });
    // Node 22 and later add "(line 1 column N)" to JSON.parse's message.
    expect(result.stderr).toMatch(
      /^error: the answer from \/api\/v1\/tenders is not valid JSON \(Unterminated string at line 1, column \d+\): "\\"\\\\\\"/,
    );
  });
});

describe('nesting: refused before it is built (exit 7), never a stack overflow (exit 1)', () => {
  it.each(['json', 'ndjson', 'csv', 'tsv', 'table'])('3,000 levels inside a row, -o %s', async (format) => {
    const result = await against(answer(200, deepRow(3_000)), ['tenders', '-o', format]);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(
      `error: the answer from /api/v1/tenders is nested deeper than ${MAX_DEPTH} levels, far past any answer of this API: refused unread (HTTP 200)`,
    );
  });

  it('its JSON error line is titled by the exit code, not by the 200 that carried it', async () => {
    const result = await against(answer(200, deepRow(3_000)), ['tenders', '-o', 'json']);
    expect(result.code).toBe(7);
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!)).toMatchObject({
      error: { status: 200, title: 'Bad response', exitCode: 7 },
    });
  });

  it(`${MAX_DEPTH} levels in all are accepted and printed`, async () => {
    const result = await against(answer(200, deepRow(MAX_DEPTH - 2)), ['tenders', '-o', 'ndjson']);
    expect(result).toMatchObject({
      code: 0,
      stdout: `{"a":${'['.repeat(MAX_DEPTH - 2)}${']'.repeat(MAX_DEPTH - 2)}}\n`,
    });
  });

  it('a 3,000-level problem body: the status still speaks', async () => {
    const result = await against(answer(403, `{"detail":${'['.repeat(3_000)}${']'.repeat(3_000)}}`), [
      'tenders',
      '--json',
    ]);
    expect(result).toMatchObject({ code: 4, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe('error: Forbidden (HTTP 403)');
  });
});

describe('more rows than asked for (a server that ignores limit): the first `limit` rows, a note, exit 0', () => {
  /** Rows that say where they stand: {"ocid":"r0"}, {"ocid":"r1"}, … */
  const numbered = (rows: number) => `[${Array.from({ length: rows }, (_, i) => `{"ocid":"r${i}"}`).join(',')}]`;
  const firstOcids = (rows: number) => Array.from({ length: rows }, (_, i) => ({ ocid: `r${i}` }));

  it('limit+5 rows, -o json: the first 20, and the note says 25 came', async () => {
    const result = await against(answer(200, numbered(25)), ['tenders', '--limit', '20', '-o', 'json']);
    expect(result).toMatchObject({
      code: 0,
      stderr: 'the API sent 25 tenders, more than the 20 asked for: the first 20 are used\n',
    });
    expect(JSON.parse(result.stdout)).toEqual(firstOcids(20));
  });

  it('at a terminal, the note comes after the table and its pager, as every note does', async () => {
    const server = await serve(answer(200, numbered(25)));
    const test = testIo({
      env: { CDATA_BASE_URL: server.url, CDATA_API_KEY: KEY, CDATA_CONFIG_DIR: folder(), PAGER: 'less' },
      stdoutTTY: true,
      stderrTTY: true,
      rows: 5,
    });
    let stderrAtPager: string | undefined;
    const runPager = test.io.runPager;
    test.io.runPager = (command, text) => {
      stderrAtPager = test.stderr();
      return runPager(command, text);
    };
    const result = await runWith(test, ['tenders', '--limit', '20', '--fields', 'ocid', '--color', 'never']);
    expect(result.code).toBe(0);
    expect(test.pagers).toEqual(['less']);
    // Not yet said when the pager starts (a slow machine may have shown the wait's spinner, and
    // cleared it, by then: stderr is a terminal here).
    const note = 'the API sent 25 tenders, more than the 20 asked for: the first 20 are used\n';
    expect(stderrAtPager).toBeDefined();
    expect(stderrAtPager).not.toContain(note);
    expect(result.stderr).toContain(note);
  });

  it('limit+5 rows, -o csv: the header and the first 20', async () => {
    const result = await against(answer(200, numbered(25)), [
      'tenders',
      '--limit',
      '20',
      '-o',
      'csv',
      '--fields',
      'ocid',
    ]);
    expect(result).toMatchObject({
      code: 0,
      stderr: 'the API sent 25 tenders, more than the 20 asked for: the first 20 are used\n',
    });
    expect(result.stdout).toBe(
      `ocid\r\n${firstOcids(20)
        .map((row) => `${row.ocid}\r\n`)
        .join('')}`,
    );
  });

  it.each([
    [['tenders'], 100, 101],
    [['tenders', '--limit', '5', '-o', 'ndjson'], 5, 20_000],
    [['tenders', '--limit', '200', '-o', 'tsv'], 200, 201],
  ])('%j: %i rows kept of %i', async (argv, limit, sent) => {
    const result = await against(answer(200, numbered(sent)), [...argv, '--query', 'length(@)']);
    expect(result).toMatchObject({
      code: 0,
      stdout: `${limit}\n`,
      stderr: `the API sent ${sent.toLocaleString('en')} tenders, more than the ${limit} asked for: the first ${limit} are used\n`,
    });
  });

  it('a list without --limit (agents): the 200 the API returns at most', async () => {
    const result = await against(answer(200, emptyRows(150_000)), ['agents', '-o', 'ndjson']);
    expect(result).toMatchObject({
      code: 0,
      stdout: '{}\n'.repeat(200),
      stderr: 'the API sent 150,000 agents, more than the 200 the API returns at most: the first 200 are used\n',
    });
  });

  it('-q: the rows without the note', async () => {
    const result = await against(answer(200, numbered(25)), ['tenders', '--limit', '20', '-o', 'json', '-q']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toHaveLength(20);
  });

  it('one record by its key looks among the first 200', async () => {
    const result = await against(answer(200, numbered(300)), ['tenders', 'r199', '-o', 'json']);
    expect(result).toMatchObject({ code: 0, stdout: '{\n  "ocid": "r199"\n}\n' });
    const past = await against(answer(200, numbered(300)), ['tenders', 'r250', '-o', 'json']);
    expect(past.code).toBe(8);
  });

  it('exactly the limit is fine', async () => {
    const result = await against(answer(200, emptyRows(200)), ['tenders', '--limit', '200', '-o', 'ndjson']);
    expect(result).toMatchObject({ code: 0, stdout: '{}\n'.repeat(200) });
  });

  it(`more than ${MAX_VALUES.toLocaleString('en')} values inside one row: exit 7`, async () => {
    const result = await against(answer(200, `[{"reasons":${emptyRows(MAX_VALUES)}}]`), ['tenders', '-o', 'json']);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(
      `error: the answer from /api/v1/tenders holds more than ${MAX_VALUES.toLocaleString('en')} values, far past any answer of this API: refused unread (HTTP 200)`,
    );
  });
});

describe('size caps', () => {
  it(`a 200 larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB: exit 7, not retried`, async () => {
    const result = await against(answer(200, Buffer.alloc(MAX_BODY_BYTES + 1, 0x20)), ['tenders', '--json']);
    expect(result).toMatchObject({ code: 7, stdout: '', requests: 1 });
    const [said, line] = result.stderr.split('\n');
    expect(said).toMatch(
      new RegExp(
        `^error: the answer is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB from 127\\.0\\.0\\.1:\\d+ \\(HTTP 200\\)$`,
      ),
    );
    // An answer came: its status is in the JSON line, as for any answer refused.
    expect(JSON.parse(line!).error).toMatchObject({ status: 200, title: 'Bad response', exitCode: 7 });
  });

  it('an error body past its cap: its status and X-Correlation-Id still speak (a 401 stays exit 3)', async () => {
    const result = await against(
      answer(401, Buffer.alloc(MAX_ERROR_BODY_BYTES + 1, 0x41), { 'X-Correlation-Id': 'corr-1' }),
      ['tenders', '--debug'],
    );
    expect(result).toMatchObject({ code: 3, stdout: '', requests: 1 });
    expect(result.stderr).toContain(`[debug] < HTTP 401 in `);
    expect(result.stderr).toContain(`ms, a body over ${MAX_ERROR_BODY_BYTES / 1024} KiB, not read\n`);
    expect(result.stderr).toContain('error: Unauthorized (HTTP 401, correlation id corr-1)\n');
  });
});

describe('--timeout bounds the whole request, parsing included', () => {
  it('an answer that arrives whole but whose parse ends past the deadline is a timeout (exit 6)', async () => {
    // The clock moves 6 s at each look: the real 5 s timer never fires, so only the check after
    // the parse can see the deadline pass.
    let clock = 0;
    const result = await against(answer(200, '[]'), ['tenders', '--timeout', '5', '--retries', '0'], {
      now: () => (clock += 6_000),
    });
    expect(result).toMatchObject({ code: 6, stdout: '' });
    expect(result.stderr).toMatch(/^error: no complete answer from 127\.0\.0\.1:\d+ within 5 s \(--timeout\)\n/);
  });

  it('a body trickling in is cut at --timeout', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const result = await cdata(['tenders', '--timeout', '0.5', '--retries', '0'], {
      env: { CDATA_BASE_URL: server.url, CDATA_API_KEY: KEY, CDATA_CONFIG_DIR: folder() },
    });
    expect(result).toMatchObject({ code: 6, stdout: '' });
    expect(result.stderr).toMatch(/^error: no complete answer from 127\.0\.0\.1:\d+ within 0\.5 s \(--timeout\)\n/);
  });
});
