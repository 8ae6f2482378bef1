import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS, fieldNames } from '../../src/core/endpoints.js';
import type { Manifest, ResourceFailed, ResourceOk, ResourceWritten } from '../../src/export/manifest.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import { AGENTS } from '../../src/sandbox/vocabulary.js';
import { demoKey } from '../../src/sandbox/keys.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { csvCell } from '../helpers/cells.js';
import { run, runWith } from '../helpers/run.js';
import { testIo } from '../helpers/io.js';
import { BIN, runBin, runBinAsUser, runProcess } from '../helpers/spawn.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { leftovers, names as namesIn, whole } from './layout.js';
import { CLEAR } from '../helpers/screen.js';

const sandbox = useSandbox();
const folder = () => mkdtempSync(join(tmpdir(), 'cdata-export-'));
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function fetchRows(path: string, limit = 200): Promise<JsonObject[]> {
  const response = await fetch(`${sandbox.current.url}${path}?limit=${limit}`, {
    headers: { 'X-API-Key': demoKey('all') },
  });
  return parseJson(await response.text()) as JsonObject[];
}

describe('cdata export', () => {
  it('writes every list and the manifest: rows, truncation at the cap, sha256 of each file', async () => {
    const dir = folder();
    const result = await run(['export', '--dir', dir], { env: sandboxEnv(sandbox.current) });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const names = LIST_ENDPOINTS.map((e) => e.name);
    expect(namesIn(dir)).toEqual([...names.map((n) => `${n}.csv`), 'changes.ndjson', 'manifest.json'].sort());
    expect(leftovers(dir)).toEqual([]);

    const manifest = manifestOf(dir);
    expect(manifest).toMatchObject({
      version: 1,
      baseUrl: sandbox.current.url,
      profile: 'default',
      format: 'csv',
      limit: 200,
      ok: true,
      exitCode: 0,
    });
    expect(manifest.exportedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(manifest.resources.map((r) => r.resource)).toEqual(names);
    for (const entry of manifest.resources as ResourceOk[]) {
      expect(entry.status).toBe('ok');
      expect(entry.sha256).toBe(sha256(join(dir, entry.file)));
      expect(entry.bytes).toBe(readFileSync(join(dir, entry.file)).length);
    }
    const byName = Object.fromEntries((manifest.resources as ResourceOk[]).map((r) => [r.resource, r]));
    expect(byName.obligations).toMatchObject({ rows: 200, truncated: true }); // 240 exist: the cap shows
    expect(byName.tenders).toMatchObject({ rows: 64, truncated: false });
    expect(byName.workspaces).toMatchObject({ rows: 3, truncated: false });
    // The key is never in the manifest.
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).not.toContain(demoKey('all'));
  });

  it('CSV files parse back to the data the API returns', async () => {
    const dir = folder();
    expect(
      (await run(['export', 'obligations', 'tenders', '--dir', dir], { env: sandboxEnv(sandbox.current) })).code,
    ).toBe(0);
    for (const endpoint of LIST_ENDPOINTS.filter((e) => ['obligations', 'tenders'].includes(e.name))) {
      const rows = parseCsv(readFileSync(join(dir, `${endpoint.name}.csv`), 'utf8')) as string[][];
      const data = await fetchRows(endpoint.path);
      expect(rows[0]).toEqual(fieldNames(endpoint));
      expect(rows.slice(1)).toEqual(data.map((row) => fieldNames(endpoint).map((f) => csvCell(row[f]))));
    }
  });

  it('-o json and ndjson write what the API returned; --limit applies to every list', async () => {
    const dir = folder();
    expect(
      (
        await run(['export', 'companies', 'sites', '--dir', dir, '-o', 'json', '--limit', '5'], {
          env: sandboxEnv(sandbox.current),
        })
      ).code,
    ).toBe(0);
    expect(parseJson(readFileSync(join(dir, 'companies.json'), 'utf8'))).toEqual(
      await fetchRows('/api/v1/graph/companies', 5),
    );
    expect(manifestOf(dir).resources).toMatchObject([
      { resource: 'companies', rows: 5, truncated: true },
      { resource: 'sites', rows: 5, truncated: true },
    ]);
    const nd = folder();
    expect(
      (await run(['export', 'people', '--dir', nd, '-o', 'ndjson'], { env: sandboxEnv(sandbox.current) })).code,
    ).toBe(0);
    const lines = readFileSync(join(nd, 'persons.ndjson'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => parseJson(l))).toEqual(await fetchRows('/api/v1/graph/persons'));
  });

  it('--bom and --no-header where the files have no use for them: a warning each before any request, the files as without them', async () => {
    const dir = folder();
    const result = await run(['export', 'sites', '--dir', dir, '-o', 'ndjson', '--bom', '--no-header'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr:
        'warning: --bom does nothing for ndjson output: only csv starts with a byte order mark\n' +
        'warning: --no-header does nothing for ndjson output: it has no header row\n',
    });
    expect(readFileSync(join(dir, 'sites.ndjson'), 'utf8').startsWith('{"id":')).toBe(true);
    const quiet = await run(['export', 'sites', '--dir', folder(), '-o', 'json', '--bom', '-q'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
  });

  it('--limit applies to the lists that take one: agents and workspaces come whole, not refused as too long', async () => {
    const dir = folder();
    const result = await run(['export', 'agents', 'workspaces', 'tenders', '--dir', dir, '--limit', '1'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(manifestOf(dir).resources).toMatchObject([
      { resource: 'agents', rows: AGENTS.length, truncated: false },
      { resource: 'workspaces', rows: 3, truncated: false },
      { resource: 'tenders', rows: 1, truncated: true },
    ]);
  });

  it('sends limit explicitly, one request per list, all in flight together', async () => {
    let arrived = 0;
    let arrivedBeforeFirstAnswer = 0;
    const slow = await startSandbox({
      latencyMs: 150,
      faults: () => {
        arrived++;
        return undefined;
      },
      onRequest: () => {
        if (arrivedBeforeFirstAnswer === 0) arrivedBeforeFirstAnswer = arrived;
      },
    });
    try {
      const dir = folder();
      expect((await run(['export', '--dir', dir], { env: sandboxEnv(slow) })).code).toBe(0);
      expect(slow.requests).toHaveLength(LIST_ENDPOINTS.length);
      // limit goes to every list that takes one (agents and workspaces take none).
      const takes = (path: string) =>
        LIST_ENDPOINTS.find((e) => e.path === path)!.params.some((p) => p.kind === 'limit');
      expect(slow.requests.every((r) => r.query.get('limit') === (takes(r.path) ? '200' : null))).toBe(true);
      // Every list's request reached the server before the first answer went out.
      expect(arrivedBeforeFirstAnswer).toBe(LIST_ENDPOINTS.length);
    } finally {
      await slow.close();
    }
  });

  it('a list that fails keeps its previous file; the others are written; exit 6; the manifest says so', async () => {
    const dir = folder();
    expect((await run(['export', '--dir', dir], { env: sandboxEnv(sandbox.current) })).code).toBe(0);
    const before = readFileSync(join(dir, 'tenders.csv'));
    const previous = (manifestOf(dir).resources as ResourceOk[]).find((r) => r.resource === 'tenders')!;

    const failing = await startSandbox({
      now: () => Date.parse('2027-03-01T06:00:00Z'), // another day: every file's content changes
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? FAULTS.unavailable : undefined),
    });
    try {
      const result = await run(['export', '--dir', dir, '--retries', '1'], { env: sandboxEnv(failing) });
      expect(result.code).toBe(6);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^error: tenders: The service is temporarily unavailable; retry with increasing delay\. \(gave up after 2 attempts\) \(HTTP 503, correlation id [0-9a-f-]{36}\)\nhint: The service failed; if this persists, report the correlation id\.\n$/,
      );
      expect(readFileSync(join(dir, 'tenders.csv')).equals(before)).toBe(true);
      const manifest = manifestOf(dir);
      expect(manifest).toMatchObject({ ok: false, exitCode: 6 });
      const tenders = manifest.resources.find((r) => r.resource === 'tenders') as ResourceFailed;
      expect(tenders).toMatchObject({ status: 'error', file: 'tenders.csv', error: { exitCode: 6, httpStatus: 503 } });
      expect(tenders.error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      // The kept file says where it came from: the first sandbox, not this manifest's.
      expect(manifest.baseUrl).toBe(failing.url);
      expect(tenders.kept).toEqual({
        file: 'tenders.csv',
        rows: previous.rows,
        truncated: false,
        sha256: previous.sha256,
        bytes: previous.bytes,
        exportedAt: previous.exportedAt,
        profile: 'default',
        baseUrl: sandbox.current.url,
      });
      expect(manifest.resources.find((r) => r.resource === 'agents')).toMatchObject({
        status: 'ok',
        profile: 'default',
        baseUrl: failing.url,
      });
      for (const entry of manifest.resources.filter((r): r is ResourceWritten => r.status === 'ok')) {
        expect(entry.sha256).toBe(sha256(join(dir, entry.file)));
      }
      expect(leftovers(dir)).toEqual([]);
      whole(dir);
    } finally {
      await failing.close();
    }
  });

  it('exits with the highest failure code: 4 for a missing scope beats nothing else failing', async () => {
    const dir = folder();
    const result = await run(['export', 'companies', 'tenders', '--dir', dir], {
      env: sandboxEnv(sandbox.current, 'tenders'),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^error: companies: This key lacks the scope graph\.read, which \/api\/v1\/graph\/companies requires\./,
    );
    expect(existsSync(join(dir, 'tenders.csv'))).toBe(true);
    expect(existsSync(join(dir, 'companies.csv'))).toBe(false);
    expect(manifestOf(dir)).toMatchObject({ ok: false, exitCode: 4 });
  });

  it('--stamp puts the start time (UTC) in every name', async () => {
    const dir = folder();
    const now = () => Date.parse('2026-11-22T06:00:41.500Z');
    expect(
      (await run(['export', 'tenders', 'agents', '--dir', dir, '--stamp'], { env: sandboxEnv(sandbox.current), now }))
        .code,
    ).toBe(0);
    expect(namesIn(dir)).toEqual([
      'agents-2026-11-22T0600Z.csv',
      'changes.ndjson',
      'manifest.json',
      'tenders-2026-11-22T0600Z.csv',
    ]);
    expect(manifestOf(dir).exportedAt).toBe('2026-11-22T06:00:41.500Z');
  });

  it('a clock set back behind the last export: exported all the same, with a warning (stamps would go backwards)', async () => {
    const dir = folder();
    const at = (iso: string) => ({ env: sandboxEnv(sandbox.current), now: () => Date.parse(iso) });
    const argv = ['export', 'tenders', '--dir', dir, '--stamp'];
    expect(await run(argv, at('2026-11-27T10:01:10.000Z'))).toMatchObject({ code: 0, stderr: '' });
    const back = await run(argv, at('2026-11-27T10:00:05.000Z'));
    expect(back).toMatchObject({
      code: 0,
      stderr:
        "warning: this host's clock reads 2026-11-27T10:00:05.000Z, before the last export into this folder (2026-11-27T10:01:10.000Z): file stamps and change times go backwards; check the clock\n",
    });
    expect(namesIn(dir)).toEqual([
      'changes.ndjson',
      'manifest.json',
      'tenders-2026-11-27T1000Z.csv',
      'tenders-2026-11-27T1001Z.csv',
    ]);
    // Said under -q too (cron's mail is where a host's clock gets noticed); forward again: nothing.
    expect((await run([...argv, '-q'], at('2026-11-27T09:59:00.000Z'))).stderr).toMatch(
      /^warning: this host's clock reads 2026-11-27T09:59:00\.000Z, before the last export into this folder \(2026-11-27T10:00:05\.000Z\)/,
    );
    expect((await run(argv, at('2026-11-27T10:05:00.000Z'))).stderr).toBe('');
  });

  it('refuses before any request: unknown resource, no --dir, --fields, --out, table format, an unwritable folder', async () => {
    const before = sandbox.current.requests.length;
    const env = sandboxEnv(sandbox.current);
    const cases: [string[], string][] = [
      [
        ['export', 'tendres', '--dir', folder()],
        "error: unknown resource 'tendres' for export; valid: workspaces, companies, documents, obligations, persons, sites, tenders, agents\nhint: Did you mean tenders?\n",
      ],
      [
        ['export', 'me', '--dir', folder()],
        "error: unknown resource 'me' for export; valid: workspaces, companies, documents, obligations, persons, sites, tenders, agents\n",
      ],
      [['export'], 'error: export needs a folder: --dir DIR\nhint: e.g. cdata export --dir /srv/exports\n'],
      [
        ['export', '--dir', folder(), '--fields', 'ocid'],
        "error: --fields does not apply to export: every file holds all of its resource's fields\n",
      ],
      [
        ['export', '--dir', folder(), '--out', 'x.csv'],
        'error: --out does not apply to export: use --dir for the folder\n',
      ],
      [
        ['export', '--dir', folder(), '-o', 'table'],
        "error: --output for export must be one of csv, json, ndjson, tsv (got 'table')\n",
      ],
    ];
    for (const [argv, stderr] of cases) {
      const result = await run(argv, { env });
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 2, stderr });
    }
    // A folder named by spaces alone, or an empty one (`--dir "$DIR"`, DIR unset): refused as such,
    // from a shell in a folder of its own, which stays empty.
    const cwd = folder();
    for (const [dir, said] of [
      ['  ', 'only spaces'],
      ['', 'an empty one'],
    ]) {
      const blank = await runProcess(process.execPath, [BIN, 'export', 'tenders', '--dir', dir!], { env, cwd });
      expect(blank).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: --dir needs a value: it was given ${said}\n`,
      });
    }
    expect(readdirSync(cwd)).toEqual([]);
    // A folder that cannot exist: below a regular file (holds even as root, unlike chmod).
    const file = join(folder(), 'not-a-folder');
    writeFileSync(file, 'x');
    const blocked = await run(['export', '--dir', join(file, 'sub')], { env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/^error: cannot write to the export folder .*not-a-folder\/sub: ENOTDIR/);
    expect(sandbox.current.requests.length).toBe(before);
  });

  it('a read-only folder is refused with its path and the cause, nothing written, no request', async () => {
    const dir = folder();
    chmodSync(dir, 0o755); // others may enter the parent (not needed by runBinAsUser as root, which stays uid 0)
    const readOnly = join(dir, 'ro');
    mkdirSync(readOnly, { mode: 0o555 });
    chmodSync(readOnly, 0o555);
    const before = sandbox.current.requests.length;
    const result = await runBinAsUser(['export', '--dir', readOnly], {
      env: { ...sandboxEnv(sandbox.current), CDATA_CONFIG_DIR: readOnly },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: cannot write to the export folder ${readOnly}: EACCES: permission denied, access '${readOnly}'\n`,
    );
    expect(readdirSync(readOnly)).toEqual([]);
    expect(sandbox.current.requests.length).toBe(before);
  });

  it('a folder that can be written but not listed (a drop box, 0300; or 0600) is exit 2 before any request, not a bug', async () => {
    for (const mode of [0o300, 0o600]) {
      const dir = folder();
      chmodSync(dir, 0o755);
      const dropBox = join(dir, 'drop');
      mkdirSync(dropBox);
      chmodSync(dropBox, mode);
      const before = sandbox.current.requests.length;
      const result = await runBinAsUser(['export', 'tenders', '--dir', dropBox], {
        env: { ...sandboxEnv(sandbox.current), CDATA_CONFIG_DIR: join(dir, 'config') },
      });
      expect({ mode, code: result.code }).toEqual({ mode, code: 2 });
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: (cannot export into ${dropBox}: it can be written but not listed \\(EACCES\\)|cannot write to the export folder ${dropBox}: EACCES)`,
        ),
      );
      expect(sandbox.current.requests.length).toBe(before);
      chmodSync(dropBox, 0o700);
      expect(readdirSync(dropBox)).toEqual([]);
    }
  });

  it('creates a missing folder, and without a key or base URL fails before writing anything', async () => {
    const dir = join(folder(), 'a', 'b');
    expect((await run(['export', 'agents', '--dir', dir], { env: sandboxEnv(sandbox.current) })).code).toBe(0);
    expect(existsSync(join(dir, 'agents.csv'))).toBe(true);

    const empty = folder();
    const noKey = await run(['export', '--dir', empty], { env: { CDATA_BASE_URL: sandbox.current.url } });
    expect(noKey.code).toBe(3);
    const noUrl = await run(['export', '--dir', empty], { env: { CDATA_API_KEY: demoKey('all') } });
    expect(noUrl.code).toBe(2);
    expect(readdirSync(empty)).toEqual([]);
  });

  it('without a key or base URL, a missing folder is not made: the run that cannot start leaves nothing', async () => {
    const root = folder();
    const dir = join(root, 'a', 'b');
    expect((await run(['export', '--dir', dir], { env: { CDATA_BASE_URL: sandbox.current.url } })).code).toBe(3);
    expect((await run(['export', '--dir', dir], { env: { CDATA_API_KEY: demoKey('all') } })).code).toBe(2);
    expect(readdirSync(root)).toEqual([]);
  });

  it("a folder that cannot be created is exit 2 at once, even under /proc (where Node's own mkdir -p spins forever)", async () => {
    const result = await runBin(['export', 'agents', '--dir', '/proc/cdata-nope/out'], {
      env: sandboxEnv(sandbox.current),
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(result.stderr).toBe(
      "error: cannot write to the export folder /proc/cdata-nope/out: ENOENT: no such file or directory, mkdir '/proc/cdata-nope'\n",
    );
  });

  it('progress lines fit the terminal, so the redraw stays in place; a failure says its status there, its words once below', async () => {
    const result = await run(['export', 'companies', 'tenders', '--dir', folder()], {
      env: sandboxEnv(sandbox.current, 'graph'),
      stderrTTY: true,
      columns: 20,
    });
    expect(result.code).toBe(4);
    const drawn = result.stderr
      .split(CLEAR)
      .slice(1)
      .map((line) => line.split('\n')[0]!);
    for (const line of drawn) expect([...line].length).toBeLessThan(20);
    expect(drawn).toContain(`${'tenders    failed (HTTP 403)'.slice(0, 18)}…`);
    expect(result.stderr.split('This key lacks the scope tenders.read')).toHaveLength(2);
    expect(result.stderr).toMatch(
      /\nerror: tenders: This key lacks the scope tenders\.read, which \/api\/v1\/tenders requires\..*\nhint: .*\n1 of 2 lists written to .*; 1 failed: tenders; no earlier files to keep\n$/,
    );
  });

  it('a list unanswered for 0.5 s counts its seconds on its line, as the spinner does; a quick one never', async () => {
    const slow = await startSandbox({ latencyMs: 700 });
    try {
      // The clock runs four times as fast as the wall's: the lines' seconds without long waits.
      const start = Date.now();
      const result = await run(['export', 'tenders', 'sites', '--dir', folder()], {
        env: sandboxEnv(slow),
        stderrTTY: true,
        columns: 80,
        now: () => start + (Date.now() - start) * 4,
      });
      expect(result.code).toBe(0);
      const lines = result.stderr.split(CLEAR).map((line) => line.split('\n')[0]!);
      expect(lines).toContain('tenders  pending');
      const counted = lines.filter((line) => /^tenders {2}pending \d+\.\d s$/.test(line));
      expect(counted.length).toBeGreaterThan(0);
      expect(lines.at(-2)).toBe('tenders  64 rows  done');
    } finally {
      await slow.close();
    }
    const quick = await run(['export', 'agents', '--dir', folder()], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
      columns: 80,
    });
    expect(quick.stderr).not.toMatch(/pending \d/);
  });

  it('lists never asked for (a refused key asks one first) say so, and nothing is redrawn over the report', async () => {
    const slow = await startSandbox({ latencyMs: 400 });
    try {
      const dir = folder();
      const argv = ['export', 'tenders', 'sites', 'agents', '--dir', dir];
      expect((await run(argv, { env: sandboxEnv(slow, 'revoked') })).code).toBe(3);
      const start = Date.now();
      const test = testIo({
        env: sandboxEnv(slow, 'revoked'),
        stderrTTY: true,
        columns: 80,
        now: () => start + (Date.now() - start) * 4,
      });
      expect((await runWith(test, argv)).code).toBe(3);
      const report = test.stderr();
      expect(report).toContain('\r\u001b[2Ksites    not requested\n');
      expect(report.slice(report.indexOf('\nerror: ')).includes('\u001b[')).toBe(false);
      // A while after the run: a timer left running would have drawn again over the report.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(test.stderr()).toBe(report);
    } finally {
      await slow.close();
    }
  });

  it('a terminal with fewer rows than the lists: no lines redrawn (each would leave a copy above), the closing line alone', async () => {
    const dir = folder();
    const short = await run(['export', '--dir', dir], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
      columns: 80,
      rows: LIST_ENDPOINTS.length,
    });
    expect(short).toMatchObject({
      code: 0,
      stderr: `exported ${LIST_ENDPOINTS.length} lists to ${dir} (see manifest.json)\n`,
    });
    const tall = await run(['export', '--dir', folder()], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
      columns: 80,
      rows: LIST_ENDPOINTS.length + 1,
    });
    expect(tall.stderr).toContain('\r\u001b[2Ktenders      pending\n');
  });

  it('progress leaves lines whole when the width is 0 (unknown)', async () => {
    const unknown = await run(['export', 'agents', '--dir', folder()], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
      columns: 0,
    });
    expect(unknown.stderr).toContain('\r\u001b[2Kagents  pending\n');
    expect(unknown.stderr).toContain(`\r\u001b[2Kagents  ${AGENTS.length} rows  done\n`);
  });

  it('on a terminal that cannot move its cursor (TERM=dumb): no progress drawn in place, nothing to redraw', async () => {
    const dumb = await run(['export', 'agents', '--dir', folder()], {
      env: { ...sandboxEnv(sandbox.current), TERM: 'dumb' },
      stderrTTY: true,
    });
    expect(dumb.code).toBe(0);
    expect(dumb.stderr).not.toContain('\u001b[');
    expect(dumb.stderr).not.toContain('\r');
  });

  it('a clamped --limit is said on a terminal, and not to cron: success stays silent', async () => {
    const dir = folder();
    const cron = await run(['export', 'agents', '--dir', dir, '--limit', '500'], { env: sandboxEnv(sandbox.current) });
    expect(cron).toMatchObject({ code: 0, stderr: '' });
    const tty = await run(['export', 'agents', '--dir', dir, '--limit', '500'], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
    });
    expect(tty.stderr.startsWith('--limit 500 is more than the API returns, so cdata asks for 200, the most.\n')).toBe(
      true,
    );
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toMatchObject({ limit: 200 });
  });

  it('on a terminal, shows a live line per resource; when stderr is not a terminal, success is silent', async () => {
    const dir = folder();
    const tty = await run(['export', 'tenders', 'obligations', '--dir', dir], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
    });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('\r\u001b[2Ktenders      pending\n');
    expect(tty.stderr).toContain('\r\u001b[2Ktenders      64 rows  done\n');
    expect(tty.stderr).toContain('\r\u001b[2Kobligations  200 rows (the limit: more may exist)  done\n');
    expect(tty.stderr).toContain('\u001b[2A'); // redrawn in place
    expect(tty.stderr.endsWith(`exported 2 lists to ${dir} (see manifest.json)\n`)).toBe(true);

    const quiet = await run(['export', 'tenders', '--dir', dir, '-q'], {
      env: sandboxEnv(sandbox.current),
      stderrTTY: true,
    });
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
  });

  it("a line too long for the terminal keeps its list's `done` whole: the note before it is cut", async () => {
    const at = (columns: number) =>
      run(['export', 'tenders', 'obligations', '--dir', folder()], {
        env: sandboxEnv(sandbox.current),
        stderrTTY: true,
        columns,
      });
    const tty = await at(44);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('\r\u001b[2Ktenders      64 rows  done\n');
    expect(tty.stderr).toContain('\r\u001b[2Kobligations  200 rows (the limit: mo…  done\n');
    expect(tty.stderr).toContain('\r\u001b[2Kobligations  pending\n');
    // Too narrow for a name and `done` side by side: the line is cut as any other.
    const narrow = await at(19);
    expect(narrow.code).toBe(0);
    expect(narrow.stderr).toContain('\r\u001b[2Kobligations  200 …\n');
  });
});
