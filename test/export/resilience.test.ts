// cdata export when the folder or the key works against it: a file that cannot be put in place
// fails that list alone, a refused key is not hammered run after run, and the manifest always
// knows which earlier file each list still has.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS } from '../../src/core/endpoints.js';
import type { Manifest, ResourceFailed, ResourceOk, ResourceWritten } from '../../src/export/manifest.js';
import { FAULTS, type Fault } from '../../src/sandbox/faults.js';
import { NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { problemWith } from '../helpers/hostile.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { leftovers, names as namesIn, whole } from './layout.js';

const makeSandbox = useSandboxes();
const folder = () => mkdtempSync(join(tmpdir(), 'cdata-export-'));
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const ALL = LIST_ENDPOINTS.map((e) => e.name);
const entry = (manifest: Manifest, resource: string) => manifest.resources.find((r) => r.resource === resource)!;

describe('a file that cannot be put in place fails that list alone', () => {
  it('a folder named companies.csv: exit 2 for companies, every other list written, the manifest written', async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    mkdirSync(join(dir, 'companies.csv'));
    const result = await run(['export', '--dir', dir], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: companies: cannot write ${join(dir, 'companies.csv')}: it is a folder\n`);
    const manifest = manifestOf(dir);
    expect(manifest).toMatchObject({ ok: false, exitCode: 2 });
    expect(entry(manifest, 'companies')).toMatchObject({
      status: 'error',
      error: { exitCode: 2, httpStatus: null },
      kept: null,
    });
    for (const name of ALL.filter((n) => n !== 'companies'))
      expect(statSync(join(dir, `${name}.csv`)).isFile(), name).toBe(true);
    expect(leftovers(dir)).toEqual([]);
    whole(dir);
  });

  it('a folder that appears after the file was written, before the commit: the same, nothing left behind', async () => {
    const dir = folder();
    // companies answers at once and is written into the new generation; tenders answers 300 ms later, after the folder appears.
    const late: Fault = (req, res, context) => {
      setTimeout(() => {
        mkdirSync(join(dir, 'companies.csv'));
        FAULTS.emptyList(req, res, context);
      }, 300);
      return 200;
    };
    const sandbox = await makeSandbox({
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? late : undefined),
    });
    const result = await run(['export', 'companies', 'tenders', 'sites', '--dir', dir], { env: sandboxEnv(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: companies: cannot write ${join(dir, 'companies.csv')}: it is a folder\n`);
    expect(entry(manifestOf(dir), 'companies')).toMatchObject({ status: 'error', error: { exitCode: 2 } });
    expect(entry(manifestOf(dir), 'tenders')).toMatchObject({ status: 'ok', rows: 0 });
    expect(namesIn(dir)).toEqual(['changes.ndjson', 'companies.csv', 'manifest.json', 'sites.csv', 'tenders.csv']);
    expect(leftovers(dir)).toEqual([]);
    whole(dir);
  });
});

describe('a refused key is not hammered run after run', () => {
  it('the first run asks for every list at once; after exit 3, the next asks for one and records the rest as not requested', async () => {
    const sandbox = await makeSandbox();
    const dir = folder();
    const first = await run(['export', '--dir', dir], { env: sandboxEnv(sandbox, 'revoked') });
    expect(first.code).toBe(3);
    expect(sandbox.requests).toHaveLength(ALL.length);

    const second = await run(['export', '--dir', dir], { env: sandboxEnv(sandbox, 'revoked') });
    expect(second.code).toBe(3);
    expect(sandbox.requests).toHaveLength(ALL.length + 1);
    const manifest = manifestOf(dir);
    const [probe, ...rest] = manifest.resources as ResourceFailed[];
    expect(probe).toMatchObject({ resource: ALL[0], error: { exitCode: 3, httpStatus: 401 } });
    for (const skipped of rest) {
      expect(skipped.error).toEqual({
        message: `not requested: the API refused the first request (${ALL[0]}) with exit 3`,
        exitCode: 3,
        httpStatus: null,
        correlationId: null,
      });
    }
    // The probe's error and hint, then the lists not asked for, said once together.
    expect(second.stderr.split('\n')[2]).toBe(
      `error: ${ALL.slice(1).join(', ')} (${ALL.length - 1} lists): not requested: the API refused the first request (${ALL[0]}) with exit 3`,
    );

    // A good key again: the probe passes and the rest follow; the run after that asks for all at once.
    const fixed = await run(['export', '--dir', dir], { env: sandboxEnv(sandbox) });
    expect(fixed.code).toBe(0);
    expect(sandbox.requests).toHaveLength(2 * ALL.length + 1);
    expect(manifestOf(dir).ok).toBe(true);
  });

  it('after a failure that is not the key (exit 6), the next run still asks for everything at once', async () => {
    const dir = folder();
    const failing = await makeSandbox({ faults: () => FAULTS.unavailable });
    expect((await run(['export', '--dir', dir, '--retries', '0'], { env: sandboxEnv(failing) })).code).toBe(6);
    const sandbox = await makeSandbox({ faults: () => FAULTS.unavailable });
    expect((await run(['export', '--dir', dir, '--retries', '0'], { env: sandboxEnv(sandbox) })).code).toBe(6);
    expect(sandbox.requests).toHaveLength(ALL.length);
  });
  it('a refusal beside a server error still counts (exit 6 over 3); a probe answered 503 keeps the rest unasked, and the next run probes again', async () => {
    const [first, second, ...rest] = ALL as [string, string, ...string[]];
    const path = LIST_ENDPOINTS[0]!.path;
    let down = true;
    const sandbox = await makeSandbox({
      faults: (_i, req) => (down && req.url?.startsWith(path) ? FAULTS.unavailable : undefined),
    });
    const env = sandboxEnv(sandbox, 'revoked');
    const dir = folder();
    expect((await run(['export', '--dir', dir, '--retries', '0'], { env })).code).toBe(6);
    expect(manifestOf(dir).exitCode).toBe(6);
    expect(sandbox.requests).toHaveLength(ALL.length);

    // The first list's 503 says nothing of the key: the others are not asked, and stay refused.
    const next = await run(['export', '--dir', dir, '--retries', '0'], { env });
    expect(next.code).toBe(6);
    expect(sandbox.requests.slice(ALL.length).map((r) => [r.path, r.status])).toEqual([[path, 503]]);
    const manifest = manifestOf(dir);
    expect(entry(manifest, first)).toMatchObject({ error: { exitCode: 6, httpStatus: 503 } });
    for (const name of [second, ...rest])
      expect((entry(manifest, name) as ResourceFailed).error).toEqual({
        message: `not requested: the key was refused in the last export, and the first request (${first}) could not tell whether it still is (exit 6)`,
        exitCode: 3,
        httpStatus: null,
        correlationId: null,
      });

    // The API back, the key still revoked: one request, refused, and the rest not asked.
    down = false;
    expect((await run(['export', '--dir', dir, '--retries', '0'], { env })).code).toBe(3);
    expect(sandbox.requests.slice(ALL.length + 1).map((r) => [r.path, r.status])).toEqual([[path, 401]]);
  });
});

describe('the manifest knows every earlier file in the folder', () => {
  it('and where each came from, also after a manifest from before entries said so', async () => {
    const dir = folder();
    const first = await makeSandbox();
    expect((await run(['export', '--dir', dir], { env: sandboxEnv(first) })).code).toBe(0);
    // As an older cdata wrote it: no profile or baseUrl on the entries.
    const old = manifestOf(dir);
    old.resources = (old.resources as ResourceWritten[]).map(
      ({ profile: _p, baseUrl: _b, ...rest }) => rest as ResourceWritten,
    );
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(old));

    const second = await makeSandbox();
    expect((await run(['export', 'tenders', '--dir', dir], { env: sandboxEnv(second) })).code).toBe(0);
    const now = manifestOf(dir);
    expect(now.baseUrl).toBe(second.url);
    expect(entry(now, 'tenders')).toMatchObject({ profile: 'default', baseUrl: second.url });
    for (const earlier of now.earlier)
      expect(earlier, earlier.resource).toMatchObject({ profile: 'default', baseUrl: first.url });

    // Files an older manifest carried forward came from an export it does not name: unknown.
    now.earlier = now.earlier.map(({ profile: _p, baseUrl: _b, ...rest }) => rest as ResourceOk);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(now));
    expect((await run(['export', 'tenders', '--dir', dir], { env: sandboxEnv(second) })).code).toBe(0);
    const later = manifestOf(dir);
    expect(later.earlier.length).toBe(ALL.length - 1);
    for (const earlier of later.earlier)
      expect(earlier, earlier.resource).toMatchObject({ profile: null, baseUrl: null });
  });

  it('after a partial export, a failing full export still names the file each failed list kept', async () => {
    const dir = folder();
    const good = await makeSandbox();
    expect((await run(['export', '--dir', dir], { env: sandboxEnv(good) })).code).toBe(0);
    const full = manifestOf(dir);

    expect((await run(['export', 'tenders', '--dir', dir], { env: sandboxEnv(good) })).code).toBe(0);
    const partial = manifestOf(dir);
    expect(partial.resources.map((r) => r.resource)).toEqual(['tenders']);
    expect(partial.earlier.map((r) => r.resource).sort()).toEqual(ALL.filter((n) => n !== 'tenders').sort());
    // Described as the full export described the file, but for what changed then (that export's alone).
    const { changes: _changes, gap: _gap, unseen: _unseen, ...companies } = entry(full, 'companies') as ResourceWritten;
    expect(partial.earlier.find((r) => r.resource === 'companies')).toEqual(companies);

    const failing = await makeSandbox({ now: () => NOW + 86_400_000, faults: () => FAULTS.unavailable });
    expect((await run(['export', '--dir', dir, '--retries', '0'], { env: sandboxEnv(failing) })).code).toBe(6);
    const after = manifestOf(dir);
    expect(after.earlier).toEqual([]);
    for (const name of ALL) {
      const kept = (entry(after, name) as ResourceFailed).kept;
      const written = name === 'tenders' ? entry(partial, 'tenders') : entry(full, name);
      const { resource: _r, status: _s, changes: _c, gap: _g, unseen: _u, ...expected } = written as ResourceWritten;
      expect(kept, name).toEqual(expected);
      expect(sha256(join(dir, `${name}.csv`))).toBe(expected.sha256);
    }
  });

  it('a file deleted since is not claimed as kept', async () => {
    const dir = folder();
    const good = await makeSandbox();
    expect((await run(['export', 'sites', 'agents', '--dir', dir], { env: sandboxEnv(good) })).code).toBe(0);
    rmSync(join(dir, 'sites.csv'));
    const failing = await makeSandbox({ faults: () => FAULTS.unavailable });
    expect(
      (await run(['export', 'sites', 'agents', '--dir', dir, '--retries', '0'], { env: sandboxEnv(failing) })).code,
    ).toBe(6);
    expect((entry(manifestOf(dir), 'sites') as ResourceFailed).kept).toBeNull();
    expect((entry(manifestOf(dir), 'agents') as ResourceFailed).kept).not.toBeNull();
    expect(existsSync(join(dir, 'sites.csv'))).toBe(false);
  });
});

describe('a server that echoes the key', () => {
  it('is not believed: the manifest and stderr show svc_*** in its message and correlation id', async () => {
    const sandbox = await makeSandbox({ faults: () => problemWith(401, (key) => `for-${key}`) });
    const dir = folder();
    const env = sandboxEnv(sandbox);
    const result = await run(['export', 'agents', 'sites', '--dir', dir], { env });
    expect(result.code).toBe(3);
    const written = readFileSync(join(dir, 'manifest.json'), 'utf8');
    for (const text of [written, result.stderr]) {
      expect(text).not.toContain(env.CDATA_API_KEY);
      expect(text).toContain('for-svc_***');
    }
    expect(entry(manifestOf(dir), 'agents')).toMatchObject({
      status: 'error',
      error: { exitCode: 3, httpStatus: 401, correlationId: 'for-svc_***' },
    });
  });
});

describe('failures under -o json or ndjson', () => {
  it.each([['-o', 'json'], ['-o', 'ndjson'], ['--json']])(
    '%s %s: each failure is an error: line, its hint and a JSON line naming its list',
    async (...format) => {
      const sandbox = await makeSandbox();
      const dir = folder();
      const result = await run(
        ['export', 'companies', 'tenders', 'workspaces', '--dir', dir, ...format.filter(Boolean)],
        { env: sandboxEnv(sandbox, 'graph') },
      );
      expect(result.code).toBe(4);
      const lines = result.stderr.trimEnd().split('\n');
      const refused = (path: string) => sandbox.requests.find((r) => r.path.startsWith(path))!;
      // Each lacks its own scope: two failures that differ, each said in full.
      expect(lines).toHaveLength(6);
      ['tenders', 'workspaces'].forEach((resource, i) => {
        const { correlationId } = refused(`/api/v1/${resource}`);
        expect(lines[3 * i]).toMatch(
          new RegExp(`^error: ${resource}: .*\\(HTTP 403, correlation id ${correlationId}\\)$`),
        );
        expect(lines[3 * i + 1]).toMatch(new RegExp(`^hint: .*${resource}\\.read`));
        expect(JSON.parse(lines[3 * i + 2]!)).toEqual({
          error: {
            resource,
            status: 403,
            title: 'Forbidden',
            detail: expect.stringContaining(`${resource}.read`),
            correlationId,
            exitCode: 4,
          },
        });
      });
    },
  );

  it('csv: the error: line and its hint alone', async () => {
    const sandbox = await makeSandbox();
    const result = await run(['export', 'companies', 'tenders', '--dir', folder()], {
      env: sandboxEnv(sandbox, 'graph'),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: tenders: [^\n]*\nhint: [^\n]*\n$/);
  });
});

describe('a server that ignores the limit', () => {
  it('a list of limit+3 rows: the first `limit` are its file, the manifest counts them, exit 0', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      title: `row ${i}`,
    }));
    const tooMany: Fault = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(rows));
      return 200;
    };
    const sandbox = await makeSandbox({
      faults: (_i, req) => (req.url?.startsWith('/api/v1/graph/documents') ? tooMany : undefined),
    });
    const dir = folder();
    const result = await run(['export', 'documents', '--limit', '5', '--dir', dir, '-o', 'ndjson'], {
      env: sandboxEnv(sandbox),
    });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'documents.ndjson'), 'utf8')).toBe(
      rows
        .slice(0, 5)
        .map((row) => `${JSON.stringify(row)}\n`)
        .join(''),
    );
    expect(entry(manifestOf(dir), 'documents')).toMatchObject({ status: 'ok', rows: 5, truncated: true });
  });
});
