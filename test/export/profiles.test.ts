// `cdata export --profiles | --all-profiles` (docs/many-profiles.md) against the sandbox: each
// profile's folder as a single export writes it, one budget of requests in flight, the guard
// that keeps refused keys from locking the address out, shards, selection, run.json, what is
// said on stderr and the exit code. Timing is measured by `npm run bench`, not here.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS } from '../../src/core/endpoints.js';
import type { Manifest, ResourceWritten } from '../../src/export/manifest.js';
import type { ProfileRun } from '../../src/export/profiles/run-record.js';
import { demoKey } from '../../src/sandbox/keys.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { scratch } from '../faults/scratch.js';
import { faultsAt, NOW } from '../helpers/api.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { testIo } from '../helpers/io.js';
import { run } from '../helpers/run.js';
import { withFolderLock } from '../../src/export/folder.js';
import { withRunLock } from '../../src/export/profiles/run-record.js';
import { clientName, countingSandbox, fleet, readRecord, writeProfiles, type CountingSandbox } from './fleet.js';
import { leftovers, names as namesIn } from './layout.js';

const folder = scratch('cdata-profiles');
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function sandboxFor(options: Parameters<typeof countingSandbox>[0] = {}): Promise<CountingSandbox> {
  const counting = await countingSandbox({ now: () => NOW, ...options });
  open.push(counting.sandbox);
  return counting;
}

/** A config folder holding `profiles`, and the env that uses it (no key or base URL from the environment). */
function configWith(profiles: Parameters<typeof writeProfiles>[1]): Record<string, string> {
  const dir = folder();
  writeProfiles(dir, profiles);
  return { CDATA_CONFIG_DIR: dir };
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const LISTS = LIST_ENDPOINTS.map((e) => e.name);
const wholeFiles = [...LISTS.map((n) => `${n}.csv`), 'changes.ndjson', 'manifest.json'].sort();

describe('export --profiles', () => {
  it('50 profiles, 3 revoked, 200 ms latency, 16 at a time: 47 whole exports, one request per revoked key, the three named, exit 10', async () => {
    const { sandbox, maxInFlight, refused } = await sandboxFor({ latencyMs: 200 });
    const revoked = [7, 23, 41];
    const env = configWith(fleet(sandbox.url, 50, revoked));
    const dir = folder();
    const result = await run(['export', '--all-profiles', '--dir', dir, '--concurrency', '16', '-q'], { env });

    expect(result.code).toBe(10);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    revoked.forEach((i, n) =>
      expect(lines[n]).toMatch(
        new RegExp(
          `^error: profile ${clientName(i)}: exit 3: workspaces: This API key has been revoked\\. \\(HTTP 401, correlation id [0-9a-f-]+\\) \\(and 7 more lists\\)$`,
        ),
      ),
    );

    // One request for each revoked key, every list for the others, never more than 16 at once.
    expect(refused()).toBe(3);
    expect(sandbox.requests).toHaveLength(47 * LISTS.length + 3);
    expect(maxInFlight()).toBeLessThanOrEqual(16);
    expect(maxInFlight()).toBeGreaterThan(8); // more than one client's pool: the budget is shared

    expect(readdirSync(dir).sort()).toEqual([...Array.from({ length: 50 }, (_, i) => clientName(i + 1)), 'run.json']);
    for (let i = 1; i <= 50; i++) {
      const name = clientName(i);
      const manifest = manifestOf(join(dir, name));
      expect(manifest).toMatchObject({ profile: name, baseUrl: sandbox.url, exitCode: revoked.includes(i) ? 3 : 0 });
      if (revoked.includes(i)) continue;
      expect(namesIn(join(dir, name))).toEqual(wholeFiles);
      expect(leftovers(join(dir, name))).toEqual([]);
    }

    const record = readRecord(dir);
    expect(record).toMatchObject({
      version: 1,
      dir,
      selection: null,
      shard: null,
      concurrency: 16,
      ok: false,
      exitCode: 10,
      counts: { ok: 47, gap: 0, failed: 3, skipped: 0 },
    });
    expect(record.profiles.map((p) => p.profile)).toEqual(Array.from({ length: 50 }, (_, i) => clientName(i + 1)));
    const ok = record.profiles.find((p) => p.profile === 'client-001')!;
    const okManifest = manifestOf(join(dir, 'client-001'));
    expect(ok).toEqual({
      profile: 'client-001',
      status: 'ok',
      exitCode: 0,
      dir: 'client-001',
      baseUrl: sandbox.url,
      rows: (okManifest.resources as ResourceWritten[]).reduce((sum, r) => sum + r.rows, 0),
      changes: null,
      failed: [],
      error: null,
      durationMs: expect.any(Number),
    });
    const failed = record.profiles.find((p) => p.profile === 'client-007')!;
    expect(failed).toMatchObject({
      status: 'failed',
      exitCode: 3,
      rows: 0,
      failed: LISTS,
      error: { resource: 'workspaces', httpStatus: 401 },
    });
    expect(readFileSync(join(dir, 'run.json'), 'utf8')).not.toContain(demoKey('revoked'));
  }, 60_000); // ~5 s of answers at 200 ms each, 16 at a time: a loaded machine may take several times that

  it('30 of 40 keys revoked: at most 10 refused requests reach the API; the profiles left are skipped, each said, and not touched', async () => {
    const { sandbox, refused } = await sandboxFor();
    const revoked = Array.from({ length: 30 }, (_, i) => i + 1 + Math.floor(i / 3)); // 3 of every 4
    const env = configWith(fleet(sandbox.url, 40, revoked));
    const dir = folder();
    const result = await run(['export', '--all-profiles', '--dir', dir], { env });

    expect(result.code).toBe(10);
    expect(refused()).toBe(10);
    expect(sandbox.requests.some((r) => r.status === 429)).toBe(false);
    const record = readRecord(dir);
    const skipped = record.profiles.filter((p) => p.status === 'skipped');
    const failed = record.profiles.filter((p) => p.status === 'failed');
    expect(failed.map((p) => p.profile)).toHaveLength(10);
    expect(failed.every((p) => revoked.includes(Number(p.profile.slice(-3))))).toBe(true);
    expect(skipped.length).toBeGreaterThanOrEqual(20);
    expect(record.counts).toEqual({ ok: 40 - 10 - skipped.length, gap: 0, failed: 10, skipped: skipped.length });
    for (const p of skipped) {
      expect(p).toEqual({
        profile: p.profile,
        status: 'skipped',
        exitCode: null,
        dir: p.profile,
        baseUrl: sandbox.url,
        rows: null,
        changes: null,
        failed: [],
        error: {
          resource: null,
          message: `not started: 10 requests to ${sandbox.url} were refused (HTTP 401) in this run`,
          httpStatus: null,
          correlationId: null,
        },
        durationMs: expect.any(Number),
      });
      expect(existsSync(join(dir, p.profile))).toBe(false);
    }
    const lines = result.stderr.trimEnd().split('\n');
    const said = (p: ProfileRun) => lines.find((line) => line.includes(` profile ${p.profile}: `));
    for (const p of skipped)
      expect(said(p)).toBe(
        `skipped: profile ${p.profile}: not started: 10 requests to ${sandbox.url} were refused (HTTP 401) in this run`,
      );
    for (const p of failed)
      expect(said(p)).toMatch(/^error: profile client-\d{3}: exit 3: workspaces: This API key has been revoked\./);
    expect(lines.at(-1)).toMatch(
      /^hint: After 10 refused keys \(HTTP 401\) cdata sends nothing more to that API host in the run/,
    );
    expect(lines).toHaveLength(skipped.length + failed.length + 1);
  });

  it('once the host locks the address out (429 past --max-wait), nothing more is sent to it: the rest fail or are skipped at once', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(
      fleet(
        sandbox.url,
        15,
        Array.from({ length: 14 }, (_, i) => i + 1),
      ),
    );
    // Two runs spend 10 refusals each; the API locks the address out after 25 in 15 minutes.
    for (const _ of [1, 2]) expect((await run(['export', '--all-profiles', '--dir', folder()], { env })).code).toBe(10);
    const before = sandbox.requests.length;
    const dir = folder();
    const third = await run(['export', '--all-profiles', '--dir', dir], { env });
    expect(third.code).toBe(10);
    const sent = sandbox.requests.slice(before);
    // Five more refusals, then the lock-out: only the requests already in flight (at most the
    // eight of --concurrency) meet it; nothing is sent after.
    expect(sent.filter((r) => r.status === 401)).toHaveLength(5);
    const lockedOut = sent.filter((r) => r.status === 429);
    expect(lockedOut.length).toBeGreaterThanOrEqual(1);
    expect(lockedOut.length).toBeLessThanOrEqual(8);
    expect(sent).toHaveLength(5 + lockedOut.length);
    const record = readRecord(dir);
    const skipped = record.profiles.filter((p) => p.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const p of skipped)
      expect(p.error?.message).toMatch(
        new RegExp(
          `^not started: ${sandbox.url.replaceAll('.', '\\.')} locked this address out \\(HTTP 429, asking to wait \\d+ s\\) earlier in this run$`,
        ),
      );
    expect(record.counts.ok).toBe(0);
    // The closing hint is the lock-out's, not the refusals' (five were refused, not ten).
    const hints = third.stderr.split('\n').filter((line) => line.startsWith('hint: '));
    expect(hints).toEqual([
      'hint: Every request with a key gets the same answer until the lock-out ends (15 minutes at most): run the export again after it.',
    ]);
  });

  it('the profiles skipped are the last in name order, whichever key command answers first', async () => {
    const { sandbox, refused } = await sandboxFor();
    // 13 revoked keys from key commands, the first four slow: a profile is admitted in its turn,
    // not when its key is ready, so the ten refused are the first ten, at every run.
    const profiles: Parameters<typeof writeProfiles>[1] = { zgood: { baseUrl: sandbox.url, key: demoKey('all') } };
    for (let i = 1; i <= 13; i++)
      profiles[`rev-${String(i).padStart(2, '0')}`] = {
        baseUrl: sandbox.url,
        keyCommand: `${i <= 4 ? 'sleep 0.4; ' : ''}echo ${demoKey('revoked')}`,
      };
    const dir = folder();
    const result = await run(['export', '--all-profiles', '--dir', dir, '-q'], { env: configWith(profiles) });
    expect(result.code).toBe(10);
    expect(refused()).toBe(10);
    const statuses = Object.fromEntries(readRecord(dir).profiles.map((p) => [p.profile, p.status]));
    const revoked = (from: number, to: number, status: string) =>
      Object.fromEntries(
        Array.from({ length: to - from + 1 }, (_, i) => [`rev-${String(from + i).padStart(2, '0')}`, status]),
      );
    expect(statuses).toEqual({ ...revoked(1, 10, 'failed'), ...revoked(11, 13, 'skipped'), zgood: 'skipped' });
  });

  it('--shard 1/4 .. 4/4 into one folder export every profile exactly once, each where its hash puts it', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 24));
    const dir = folder();
    const seen: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const result = await run(['export', 'workspaces', '--all-profiles', '--shard', `${i}/4`, '--dir', dir], { env });
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const record = readRecord(dir, `run-${i}-of-4.json`);
      expect(record.shard).toEqual({ index: i, count: 4 });
      for (const p of record.profiles) expect(fnv1aShard(p.profile, 4)).toBe(i);
      seen.push(...record.profiles.map((p) => p.profile));
    }
    expect(seen.sort()).toEqual(Array.from({ length: 24 }, (_, i) => clientName(i + 1)));
    expect(sandbox.requests).toHaveLength(24);
    expect(existsSync(join(dir, 'run.json'))).toBe(false);
  });

  it('--shard I/N: each shard spends its share of the 10 refusals (10/N, at least 1), so N shards at once from one address send at most 10', async () => {
    const { sandbox, refused } = await sandboxFor();
    const env = configWith(
      fleet(
        sandbox.url,
        40,
        Array.from({ length: 40 }, (_, i) => i + 1),
      ),
    );
    const dir = folder();
    // As `xargs -P 4` runs them: at once, from one address.
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => run(['export', '--all-profiles', '--shard', `${i}/4`, '--dir', dir, '-q'], { env })),
    );
    expect(refused()).toBe(8);
    expect(sandbox.requests).toHaveLength(8);
    for (const [index, result] of results.entries()) {
      expect(result.code).toBe(10);
      const record = readRecord(dir, `run-${index + 1}-of-4.json`);
      expect(record.counts.failed).toBe(2);
      expect(record.counts.skipped).toBe(record.profiles.length - 2);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
        "hint: After 2 refused keys (HTTP 401) (a shard's share: the 4 shards send 8 at most together) cdata sends nothing more to that API host in the run, well short of the API's lock-out (25 failed attempts from one address in 15 minutes). Fix or remove the refused profiles' keys, then run again.",
      );
    }
  });

  it("a profile's gap is said as its single export says it, the profile named, also beside a failure; exit 9 when no profile failed", async () => {
    const [nine, ten] = [await sandboxFor({ day: 9 }), await sandboxFor({ day: 10 })];
    // `partial` lacks tenders.read: its tenders fail (exit 4) while its obligations lose rows at the cap.
    const on = (url: string) => ({
      partial: { baseUrl: url, key: demoKey('graph+workspaces') },
      whole: { baseUrl: url, key: demoKey('all') },
    });
    const config = folder();
    const env = { CDATA_CONFIG_DIR: config };
    const [all, one, alone] = [folder(), folder(), folder()];
    const exportAll = () => run(['export', '--all-profiles', '--dir', all, '-q'], { env });
    const exportOne = () => run(['export', '--profiles', 'whole', '--dir', one, '-q'], { env });
    const exportAlone = () => run(['-p', 'whole', 'export', '--dir', alone, '-q'], { env });

    writeProfiles(config, on(nine.sandbox.url));
    expect((await exportAll()).code).toBe(10);
    expect((await exportOne()).code).toBe(0);
    expect((await exportAlone()).code).toBe(0);
    writeProfiles(config, on(ten.sandbox.url));
    const single = await exportAlone();
    expect(single.code).toBe(9);
    const gapLines = single.stderr.trimEnd().split('\n');
    expect(gapLines).toHaveLength(2);
    expect(gapLines[0]).toMatch(/^warning: obligations: rows created after \S+ and before \S+ were never exported: /);
    expect(gapLines[1]).toMatch(/^hint: obligations: about [\d,.]+ new rows a day; export at least every /);
    const named = (profile: string) =>
      gapLines.map((line) => line.replace(/^(warning|hint): /, `$1: profile ${profile}: `));

    const both = await exportAll();
    expect(both.code).toBe(10);
    const lines = both.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: profile partial: exit 4: tenders: This key lacks the scope tenders\.read/);
    expect(lines.slice(1)).toEqual([...named('partial'), ...named('whole')]);
    expect(readRecord(all).profiles.map((p) => [p.profile, p.status, p.exitCode])).toEqual([
      ['partial', 'failed', 4],
      ['whole', 'gap', 9],
    ]);

    const gapOnly = await exportOne();
    expect(gapOnly).toMatchObject({ code: 9, stdout: '' });
    expect(gapOnly.stderr).toBe(`${named('whole').join('\n')}\n`);
    expect(readRecord(one)).toMatchObject({ exitCode: 9, counts: { ok: 0, gap: 1, failed: 0, skipped: 0 } });
  });

  it('a run.json that cannot be written: every profile still said, then the record; exit 10 when a profile failed, else 2', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 3, [2]));
    const dir = folder();
    mkdirSync(join(dir, 'run.json'));
    const failed = await run(['export', 'agents', '--all-profiles', '--dir', dir, '-q'], { env });
    expect(failed.code).toBe(10);
    const lines = failed.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: profile client-002: exit 3: agents: This API key has been revoked\./);
    expect(lines[1]).toBe(`error: cannot write ${join(dir, 'run.json')}: it is a folder`);
    expect(existsSync(join(dir, 'client-001', 'agents.csv'))).toBe(true);

    const ok = await run(['export', 'agents', '--profiles', 'client-001,client-003', '--dir', dir, '-q'], { env });
    expect(ok).toMatchObject({ code: 2, stderr: `error: cannot write ${join(dir, 'run.json')}: it is a folder\n` });
  });

  it('names and patterns, comma-separated, select profiles; a name or pattern that finds none is exit 2 before any request', async () => {
    const { sandbox } = await sandboxFor();
    const names = ['acme', 'client-a', 'client-b', 'client-c', 'shop-1', 'shop-22', 'zeta'];
    const env = configWith(Object.fromEntries(names.map((n) => [n, { baseUrl: sandbox.url, key: demoKey('all') }])));
    const selected = async (selection: string) => {
      const dir = folder();
      const result = await run(['export', 'agents', '--profiles', selection, '--dir', dir], { env });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return readRecord(dir).profiles.map((p) => p.profile);
    };
    expect(await selected('client-*')).toEqual(['client-a', 'client-b', 'client-c']);
    expect(await selected('zeta,client-[ac],shop-?')).toEqual(['client-a', 'client-c', 'shop-1', 'zeta']);
    expect(await selected('client-[!a]')).toEqual(['client-b', 'client-c']);
    expect(await selected(' acme , acme,a*')).toEqual(['acme']);
    expect(await selected('*')).toEqual(names);
    const requests = sandbox.requests.length;

    const refused = async (args: string[], message: string) => {
      const dir = folder();
      const result = await run(['export', ...args, '--dir', dir], { env });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr.split('\n')[0]).toBe(`error: ${message}`);
      expect(readdirSync(dir)).toEqual([]);
    };
    await refused(['--profiles', 'client-a,nosuch'], "no profile 'nosuch'");
    await refused(['--profiles', 'shop-*,client-x*'], "no profile matches 'client-x*'");
    // A range backwards holds nothing (as in the shell), rather than an internal error; and any
    // pattern is matched at once: '*'.repeat(12) + 'x' backtracked for minutes as a regular
    // expression over a long name, deaf to Ctrl-C.
    await refused(['--profiles', '[z-a]*'], "no profile matches '[z-a]*'");
    const long = 'a'.repeat(64);
    const crowd = configWith({ [long]: { baseUrl: sandbox.url, key: demoKey('all') } });
    for (const pattern of [`${'*'.repeat(12)}x`, `${'*a'.repeat(20)}x`, `${'*'.repeat(100_000)}x`]) {
      const result = await run(['export', 'agents', '--profiles', pattern, '--dir', folder()], { env: crowd });
      expect(result).toMatchObject({ code: 2 });
      expect(result.stderr).toMatch(/^error: no profile matches '/);
    }
    await refused(
      ['--profiles', 'acme,,zeta'],
      "--profiles takes profile names or patterns separated by commas, with none empty (got 'acme,,zeta')",
    );
    await refused(
      ['--profiles', 'Acme'],
      "invalid profile name \"Acme\": use lowercase letters, digits, '-' and '_' (at most 64, starting with a letter or digit)",
    );
    await refused(['--profiles', 'acme', '--all-profiles'], '--profiles and --all-profiles cannot be used together');
    await refused(
      ['--profiles', 'acme', '-p', 'acme'],
      '-p/--profile chooses one profile, and --profiles or --all-profiles several: use one of them',
    );
    await refused(
      ['--all-profiles', 'nosuch'],
      "unknown resource 'nosuch' for export; valid: workspaces, companies, documents, obligations, persons, sites, tenders, agents",
    );
    await refused(
      ['--all-profiles', '--concurrency', '0'],
      "--concurrency must be a whole number from 1 to 64 (got '0')",
    );
    await refused(
      ['--all-profiles', '--concurrency', '65'],
      "--concurrency must be a whole number from 1 to 64 (got '65')",
    );
    await refused(
      ['--all-profiles', '--concurrency', 'lots'],
      "--concurrency must be a whole number from 1 to 64 (got 'lots')",
    );
    for (const shard of ['0/4', '5/4', '4', '1/0', 'a/b'])
      await refused(
        ['--all-profiles', '--shard', shard],
        `--shard must be I/N with 1 <= I <= N <= 10000, e.g. 2/4 (got '${shard}')`,
      );
    await refused(['--concurrency', '4'], '--concurrency applies to export --profiles or --all-profiles');
    await refused(['--shard', '1/2'], '--shard applies to export --profiles or --all-profiles');
    expect(sandbox.requests).toHaveLength(requests);
  });

  it("refuses CDATA_API_KEY, which would go out as every profile's key; and a config without profiles", async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 2));
    const dir = folder();
    const withKey = await run(['export', '--all-profiles', '--dir', dir], {
      env: { ...env, CDATA_API_KEY: demoKey('all') },
    });
    expect(withKey.code).toBe(2);
    expect(withKey.stderr).toMatch(
      /^error: CDATA_API_KEY is set, and would be sent as the key of every profile: export --profiles uses each profile's own key\nhint: Unset CDATA_API_KEY/,
    );
    expect(withKey.stderr).not.toContain(demoKey('all'));
    const none = await run(['export', '--all-profiles', '--dir', dir], { env: configWith({}) });
    expect(none).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: there are no profiles to export: the config file holds none\n/),
    });
    expect(sandbox.requests).toHaveLength(0);
  });

  it("a --base-url or CDATA_BASE_URL that cannot be used is every profile's: exit 2 once, before any request or folder", async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 2));
    const dir = join(folder(), 'run');
    const flag = await run(['export', '--all-profiles', '--dir', dir, '--base-url', 'http://10.1.2.3:4510'], { env });
    expect(flag).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: refusing plain http:// to 10.1.2.3: the API key would cross the network in clear; use https://\n' +
        'hint: http:// is accepted only for loopback hosts (127.0.0.0/8, ::1, localhost), such as a local sandbox.\n',
    });
    const variable = await run(['export', '--all-profiles', '--dir', dir], {
      env: { ...env, CDATA_BASE_URL: 'notaurl' },
    });
    expect(variable).toMatchObject({
      code: 2,
      stderr:
        "error: base URL 'notaurl' is not a URL: use https://host or https://host/api/v1\n" +
        'hint: The value comes from CDATA_BASE_URL: set it right, or unset it.\n',
    });
    expect(existsSync(dir)).toBe(false);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("writes each profile's folder exactly as `cdata -p PROFILE export --dir DIR/<profile>` does", async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 3));
    const many = folder();
    const single = folder();
    expect(
      (
        await run(['export', '--profiles', 'client-002', '--dir', many, '-o', 'json', '--limit', '50'], {
          env,
          now: () => NOW,
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await run(['-p', 'client-002', 'export', '--dir', join(single, 'client-002'), '-o', 'json', '--limit', '50'], {
          env,
          now: () => NOW,
        })
      ).code,
    ).toBe(0);
    const [a, b] = [join(many, 'client-002'), join(single, 'client-002')];
    expect(namesIn(a)).toEqual(namesIn(b));
    for (const name of namesIn(a)) {
      if (name !== 'manifest.json')
        expect(readFileSync(join(a, name), 'utf8'), name).toBe(readFileSync(join(b, name), 'utf8'));
    }
    // The manifests differ only in the time of each export.
    const withoutTimes = (m: Manifest) =>
      JSON.parse(JSON.stringify(m).replace(/"exportedAt":"[^"]*"/g, '"exportedAt":"-"')) as Manifest;
    expect(withoutTimes(manifestOf(a))).toEqual(withoutTimes(manifestOf(b)));
    // Each data file's sha256 in the manifest is that of the same bytes.
    expect(manifestOf(a).resources.map((r) => r.status === 'ok' && r.sha256)).toEqual(
      manifestOf(b).resources.map((r) => r.status === 'ok' && r.sha256),
    );
  });

  it('a second run into the same folder reports the changes of each profile: in run.json, and at a terminal', async () => {
    const zero = await sandboxFor({ day: 0 });
    const one = await sandboxFor({ day: 1 });
    const env = configWith(fleet(undefined, 3)); // the base URL comes from the environment, as it may
    const dir = folder();
    const first = await run(['export', '--all-profiles', '--dir', dir], {
      env: { ...env, CDATA_BASE_URL: zero.sandbox.url },
    });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(readRecord(dir).profiles.map((p) => p.changes)).toEqual([null, null, null]);

    const second = await run(['export', '--all-profiles', '--dir', dir], {
      env: { ...env, CDATA_BASE_URL: one.sandbox.url },
      stderrTTY: true,
      columns: 100,
    });
    expect(second.code).toBe(0);
    const record = readRecord(dir);
    const lines = second.stderr.trimEnd().split('\n');
    for (const p of record.profiles) {
      const counts = manifestOf(join(dir, p.profile)).resources.map((r) => r.changes!);
      const sum = (key: 'added' | 'changed') => counts.reduce((s, c) => s + c[key], 0);
      const removed = counts.some((c) => c.removed === null) ? null : counts.reduce((s, c) => s + c.removed!, 0);
      expect(p.changes).toEqual({ added: sum('added'), changed: sum('changed'), removed });
      expect(sum('added') + sum('changed')).toBeGreaterThan(0);
      expect(lines).toContain(
        `${p.profile}: ${p.rows} rows, ${sum('added')} added, ${sum('changed')} changed, ${removed ?? 'unknown'} removed`,
      );
      const changeLines = counts.reduce((s, c) => s + c.added + c.changed + (c.removed ?? 0), 0);
      expect(readFileSync(join(dir, p.profile, 'changes.ndjson'), 'utf8').split('\n').length - 1).toBe(changeLines);
    }
    expect(lines.at(-1)).toBe(`exported 3 of 3 profiles to ${dir} (see ${join(dir, 'run.json')})`);
  });

  it('a config file others can read: one warning for the whole run, as for any command; none with -q', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 3));
    const file = join(env.CDATA_CONFIG_DIR!, 'config.json');
    chmodSync(file, 0o640);
    const result = await run(['export', '--all-profiles', '--dir', folder()], { env });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(
      `warning: the config file ${file} is readable by others (mode 0640); it holds API keys: run chmod 600 '${file}'\n`,
    );
    expect((await run(['export', '--all-profiles', '--dir', folder(), '-q'], { env })).stderr).toBe('');
  });

  it('--bom with -o tsv: one warning for the whole run, not one per profile; the files as without it', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 3));
    const dir = folder();
    const result = await run(['export', 'sites', '--all-profiles', '--dir', dir, '-o', 'tsv', '--bom'], { env });
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'warning: --bom does nothing for tsv output: only csv starts with a byte order mark\n',
    });
    expect(readFileSync(join(dir, clientName(1), 'sites.tsv'), 'utf8').startsWith('id\t')).toBe(true);
  });

  it("a clock set back behind the profiles' last exports: said once for the run, even under -q; forward again: nothing", async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 3));
    const dir = folder();
    const at = (iso: string) => ({ env, now: () => Date.parse(iso) });
    const argv = ['export', 'sites', '--all-profiles', '--dir', dir];
    expect(await run(argv, at('2026-11-27T10:01:10.000Z'))).toMatchObject({ code: 0, stderr: '' });
    expect(await run([...argv, '-q'], at('2026-11-27T10:00:05.000Z'))).toMatchObject({
      code: 0,
      stderr: `warning: profile ${clientName(1)}: this host's clock reads 2026-11-27T10:00:05.000Z, before the last export into this folder (2026-11-27T10:01:10.000Z): file stamps and change times go backwards; check the clock (and in 2 more profile folders)\n`,
    });
    expect(readRecord(dir)).toMatchObject({ ok: true, counts: { ok: 3 } });
    expect((await run(argv, at('2026-11-27T10:05:00.000Z'))).stderr).toBe('');
  });

  it('-q: silent when every profile succeeded; -o json: each failed profile also as its run.json entry on one line', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 4, [2]));
    const dir = folder();
    const quiet = await run(['export', 'agents', '--profiles', 'client-001,client-003', '--dir', dir, '-q'], { env });
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '', sleeps: [] });

    const json = await run(['export', 'agents', 'sites', '--all-profiles', '--dir', dir, '-o', 'json'], { env });
    expect(json.code).toBe(10);
    const [line, entry, ...rest] = json.stderr.trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(line).toMatch(
      /^error: profile client-002: exit 3: agents: This API key has been revoked\. \(HTTP 401, correlation id [0-9a-f-]+\) \(and 1 more list\)$/,
    );
    expect(JSON.parse(entry!)).toEqual(readRecord(dir).profiles[1]);
    expect(existsSync(join(dir, 'client-001', 'agents.json'))).toBe(true);
  });

  it("a host that does not answer costs each profile two lists' attempts, not every list's; one endpoint failing alone, or a 5xx, still lets the rest be asked", async () => {
    // Takes each connection and closes it unanswered.
    let connections = 0;
    const silent = createNetServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const down = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const env = configWith(fleet(down, 2));
      const dir = folder();
      const result = await run(['export', '--all-profiles', '--dir', dir, '--retries', '1', '-q'], { env });
      expect(result.code).toBe(10);
      expect(connections).toBe(8); // the first two lists of each, and the one retry of each
      const [first, second, ...rest] = manifestOf(join(dir, 'client-001')).resources;
      for (const asked of [first, second])
        expect(asked).toMatchObject({ status: 'error', error: { exitCode: 6, httpStatus: null } });
      expect(rest.map((entry) => [entry.resource, entry.status, 'error' in entry ? entry.error : undefined])).toEqual(
        rest.map((entry) => [
          entry.resource,
          'error',
          {
            message: `not requested: the first requests (${first!.resource}, ${second!.resource}) got no answer (exit 6)`,
            exitCode: 6,
            httpStatus: null,
            correlationId: null,
          },
        ]),
      );

      // One endpoint that never answers (its connection reset), the others well: they are exported.
      const resetting = await startSandbox({
        now: () => NOW,
        faults: (_i, req) =>
          req.url?.startsWith(`/api/v1/${LISTS[0]}`)
            ? (_req, res) => {
                res.socket?.resetAndDestroy();
                return 0;
              }
            : undefined,
      });
      open.push(resetting);
      const oneDown = folder();
      const alone = await run(['export', '--all-profiles', '--dir', oneDown, '--retries', '0', '-q'], {
        env: configWith(fleet(resetting.url, 1)),
      });
      expect(alone.code).toBe(10);
      const statuses = manifestOf(join(oneDown, 'client-001')).resources.map((entry) => entry.status);
      expect(statuses).toEqual(['error', ...LISTS.slice(1).map(() => 'ok')]);

      // A server error is an answer: the profile's other lists are asked for.
      const sandbox = await startSandbox({ now: () => NOW, faults: faultsAt({ 0: FAULTS.unavailable }) });
      open.push(sandbox);
      const answering = await run(['export', '--all-profiles', '--dir', folder(), '--retries', '0', '-q'], {
        env: configWith(fleet(sandbox.url, 1)),
      });
      expect(answering.code).toBe(10);
      expect(sandbox.requests).toHaveLength(LISTS.length);
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("runs each profile's key command once; one that fails is that profile's exit 3, with no request", async () => {
    const { sandbox } = await sandboxFor();
    const dir = folder();
    const log = join(folder(), 'calls.log');
    const command = (key: string, name: string) => `echo ${name} >> '${log}'; echo ${key}`;
    const env = configWith({
      alpha: { baseUrl: sandbox.url, keyCommand: command(demoKey('all'), 'alpha') },
      beta: { baseUrl: sandbox.url, keyCommand: `echo beta >> '${log}'; echo 'the vault is locked' >&2; exit 4` },
      gamma: { baseUrl: sandbox.url, keyCommand: command(demoKey('graph'), 'gamma') },
    });
    const result = await run(['export', '--all-profiles', '--dir', dir], { env });
    expect(result.code).toBe(10);
    expect(readFileSync(log, 'utf8').split('\n').sort()).toEqual(['', 'alpha', 'beta', 'gamma']);
    const record = readRecord(dir);
    expect(record.profiles.map((p) => [p.profile, p.status, p.exitCode])).toEqual([
      ['alpha', 'ok', 0],
      ['beta', 'failed', 3],
      ['gamma', 'failed', 4], // the graph key lacks the other scopes: its export's own exit code
    ]);
    expect(record.profiles[1]!.error).toEqual({
      resource: null,
      message: "the key command of profile 'beta' failed with exit status 4; it said: the vault is locked",
      httpStatus: null,
      correlationId: null,
    });
    expect(existsSync(join(dir, 'beta'))).toBe(false);
    // Every entry's fields in one order, whether its export ran or failed as a whole (run.json read line by line).
    for (const p of record.profiles)
      expect(Object.keys(p)).toEqual([
        'profile',
        'status',
        'exitCode',
        'dir',
        'baseUrl',
        'rows',
        'changes',
        'failed',
        'error',
        'durationMs',
      ]);
    expect(sandbox.requests).toHaveLength(2 * LISTS.length);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^error: profile beta: exit 3: the key command of profile 'beta' failed with exit status 4/,
    );
    expect(lines[1]).toMatch(/^error: profile gamma: exit 4: workspaces: This key lacks the scope workspaces\.read/);
  });

  it('--concurrency defaults to 8 requests in flight across all profiles', async () => {
    const { sandbox, maxInFlight } = await sandboxFor({ latencyMs: 50 });
    const env = configWith(fleet(sandbox.url, 6));
    const result = await run(['export', '--all-profiles', '--dir', folder()], { env });
    expect(result.code).toBe(0);
    expect(sandbox.requests).toHaveLength(6 * LISTS.length);
    expect(maxInFlight()).toBeLessThanOrEqual(8);
  });

  it('a second run into the same folder while one runs: exit 2 before any request, the first run untouched; shards apart', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 2));
    const dir = folder();
    const lock = join(dir, '..run.lock');
    const second = await withRunLock(dir, undefined, testIo().io, async () => {
      const held = await run(['export', 'agents', '--all-profiles', '--dir', dir], { env });
      // Another shard's run has its own record, and its own lock.
      const shard = await run(['export', 'agents', '--all-profiles', '--shard', '1/2', '--dir', dir, '-q'], { env });
      expect(shard.code).toBe(0);
      return held;
    });
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `error: another cdata export --profiles is running into ${dir} (pid ${process.pid} on ${hostname()}): ${lock}\n` +
        `hint: Let it finish, then run this export again; a schedule should not start a run before the last one ends. If no other cdata is running, remove the lock file: rm '${lock}'\n`,
    );
    expect(second.sleeps.length).toBeGreaterThan(10);
    expect(readdirSync(dir).sort()).toEqual([clientName(1), 'run-1-of-2.json'].sort());
    expect(sandbox.requests).toHaveLength(1);
  });

  it("what a killed run's lock left in DIR (its owner file, a stale lock moved aside) the next run clears", async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 1));
    const dir = folder();
    for (const left of ['..run.lock.0123456789abcdef', '..run.lock.a1b2c3d4e5f6.stale', '..run-1-of-2.lock.feed'])
      writeFileSync(join(dir, left), '{}');
    expect((await run(['export', 'agents', '--all-profiles', '--dir', dir, '-q'], { env })).code).toBe(0);
    // Another shard's leftover is that shard's to clear.
    expect(readdirSync(dir).sort()).toEqual(['..run-1-of-2.lock.feed', clientName(1), 'run.json']);
  });

  it("one folder, one layout: --profiles refuses a single export's folder, and a single export a run's (exit 2, no request)", async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 2));
    const single = folder();
    expect((await run(['-p', clientName(1), 'export', 'agents', '--dir', single], { env })).code).toBe(0);
    const before = readdirSync(single).sort();
    const runInto = await run(['export', 'agents', '--all-profiles', '--dir', single], { env });
    expect(runInto.code).toBe(2);
    expect(runInto.stderr).toBe(
      `error: cannot export --profiles into ${single}: it holds a single export (manifest.json)\n` +
        'hint: A run writes a folder per profile inside DIR, and its own run.json: choose another --dir, such as a new folder.\n',
    );
    expect(readdirSync(single).sort()).toEqual(before);

    const many = folder();
    expect(
      (await run(['export', 'agents', '--all-profiles', '--shard', '2/2', '--dir', many, '-q'], { env })).code,
    ).toBe(0);
    const requests = sandbox.requests.length;
    const oneInto = await run(['-p', clientName(1), 'export', 'agents', '--dir', many], { env });
    expect(oneInto.code).toBe(2);
    expect(oneInto.stderr).toBe(
      `error: cannot export into ${many}: it holds an export --profiles run (run-2-of-2.json)\n` +
        `hint: Each profile's export is in its folder there: cdata -p NAME export --dir ${join(many, 'NAME')}; or choose another --dir.\n`,
    );
    expect(sandbox.requests).toHaveLength(requests);

    // A first run still under way has no record yet, only its lock; a first single export, its lock.
    const first = folder();
    const marked = await withRunLock(first, undefined, testIo().io, () =>
      run(['-p', clientName(1), 'export', 'agents', '--dir', first], { env }),
    );
    expect(marked.stderr.split('\n')[0]).toBe(
      `error: cannot export into ${first}: it holds an export --profiles run (..run.lock)`,
    );
    const under = folder();
    const locked = await withFolderLock(under, testIo().io, () =>
      run(['export', 'agents', '--all-profiles', '--dir', under], { env }),
    );
    expect(locked.stderr.split('\n')[0]).toBe(
      `error: cannot export --profiles into ${under}: it holds a single export (..lock)`,
    );
    expect(sandbox.requests).toHaveLength(requests);
  });

  it('a profile whose folder another export holds fails alone (exit 2); run.json is replaced whole', async () => {
    const { sandbox } = await sandboxFor();
    const env = configWith(fleet(sandbox.url, 2));
    const dir = folder();
    writeFileSync(join(dir, 'run.json'), 'old');
    const held = join(dir, 'client-001');
    mkdirSync(held);
    const result = await withFolderLock(held, testIo().io, () =>
      run(['export', 'agents', '--all-profiles', '--dir', dir], { env }),
    );
    expect(result.code).toBe(10);
    expect(result.stderr).toBe(
      `error: profile client-001: exit 2: another cdata is exporting into ${held} (pid ${process.pid} on ${hostname()}): ${join(held, '..lock')}\n`,
    );
    expect(readRecord(dir).profiles.map((p) => [p.profile, p.status, p.exitCode])).toEqual([
      ['client-001', 'failed', 2],
      ['client-002', 'ok', 0],
    ]);
    expect(readdirSync(dir).sort()).toEqual(['client-001', 'client-002', 'run.json']);
    expect(readdirSync(held)).toEqual([]);
    expect(sandbox.requests).toHaveLength(1);
  });
});

/** FNV-1a 32-bit as docs/many-profiles.md states it, with BigInt arithmetic: the shard, 1-based. */
function fnv1aShard(name: string, count: number): number {
  let hash = 2166136261n;
  for (const byte of new TextEncoder().encode(name)) hash = ((hash ^ BigInt(byte)) * 16777619n) % 2n ** 32n;
  return Number(hash % BigInt(count)) + 1;
}
