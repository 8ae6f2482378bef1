// What an export tells at a terminal, through the built binary in a pseudo-terminal: each failure
// once below the progress lines, a closing summary, and on Ctrl-C the progress cleared and what
// the folder still holds. Heavy (npm run test:heavy): a terminal session each. The words a cron
// job mails, in-process: telling.test.ts.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS } from '../../src/core/endpoints.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { faultsAt, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { screen } from '../helpers/screen.js';
import { runBinInTerminal, startBinInTerminal } from '../helpers/spawn.js';
import { until } from '../helpers/wait.js';
import { manifestOf, shown } from './layout.js';
import { writeProfiles } from './fleet.js';
import { demoKey } from '../../src/sandbox/keys.js';

const makeSandbox = useSandboxes();
const folder = () => join(mkdtempSync(join(tmpdir(), 'cdata-telling-')), 'exports');
const LISTS = LIST_ENDPOINTS.map((endpoint) => endpoint.name);
const tendersFail =
  (fault = FAULTS.unavailable): SandboxOptions['faults'] =>
  (_i, req) =>
    req.url?.startsWith('/api/v1/tenders') ? fault : undefined;

/** A folder holding one good export, to fail over. */
async function exported(): Promise<string> {
  const dir = folder();
  expect((await run(['export', '--dir', dir], { env: sandboxEnv(await makeSandbox()) })).code).toBe(0);
  return dir;
}

describe.each([80, 120])('at a terminal %i columns wide', (columns) => {
  it('a failed list: its progress line says failed, the reason comes once below, then the summary', async () => {
    const dir = await exported();
    const result = await runBinInTerminal(['export', '--dir', dir, '--retries', '0'], {
      columns,
      env: sandboxEnv(await makeSandbox({ faults: tendersFail() })),
    });
    expect(result.code).toBe(6);
    const lines = screen(result.stdout).split('\n');
    const width = Math.max(...LISTS.map((name) => name.length));
    expect(lines.slice(0, 8).map((line) => line.replace(/ {2}\d+ rows.*done$/, '  done'))).toEqual(
      LISTS.map((name) => `${name.padEnd(width)}  ${name === 'tenders' ? 'failed (HTTP 503)' : 'done'}`),
    );
    expect(lines.slice(8)).toEqual([
      expect.stringMatching(
        /^error: tenders: The service is temporarily unavailable; retry with increasing delay\. \(HTTP 503, correlation id [0-9a-f-]{36}\)$/,
      ),
      'hint: The service failed; if this persists, report the correlation id.',
      `7 of 8 lists written to ${dir}; 1 failed: tenders; earlier files kept`,
    ]);
    expect(result.stdout.split('temporarily unavailable')).toHaveLength(2);
  });

  it("a retry shows on its list's line while it waits", async () => {
    const dir = folder();
    const sandbox = await makeSandbox({ faults: faultsAt({ 0: FAULTS.unavailable }) });
    const result = await runBinInTerminal(['export', 'tenders', '--dir', dir], { columns, env: sandboxEnv(sandbox) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\r\u001b\[2Ktenders {2}retrying in 0\.\d s \(attempt 2 of 3\): HTTP 503\r\n/);
    expect(screen(result.stdout)).toBe(`tenders  64 rows  done\nexported 1 list to ${dir} (see manifest.json)`);
  });

  /** An export into `dir` at a terminal, Ctrl-C typed once seven lists are done and tenders stalls. */
  async function interruptedExport(dir: string) {
    const stuck = await makeSandbox({ faults: tendersFail(FAULTS.stallAfterHeaders) });
    const session = startBinInTerminal(['export', '--dir', dir], { columns, env: sandboxEnv(stuck) });
    await until(
      () => (screen(session.stdout()).match(/ done$/gm) ?? []).length === 7,
      'seven lists done and tenders still pending',
    );
    session.child.stdin.write('\u0003');
    return session.done;
  }

  it('Ctrl-C: the progress lines give way to what the folder still holds, byte for byte', async () => {
    const dir = await exported();
    const before = shown(dir);
    const result = await interruptedExport(dir);
    expect(result.code).toBe(130);
    expect(screen(result.stdout)).toBe(
      `interrupted: nothing in ${dir} was changed; its previous export (8 files and manifest.json) is kept`,
    );
    expect(shown(dir)).toEqual(before);
    expect(manifestOf(dir).ok).toBe(true);
  });

  it("Ctrl-C in export --profiles: how far the run went, and that run.json is not this run's", async () => {
    const fast = await makeSandbox({});
    const stuck = await makeSandbox({ faults: tendersFail(FAULTS.stallAfterHeaders) });
    const configDir = mkdtempSync(join(tmpdir(), 'cdata-telling-config-'));
    writeProfiles(configDir, {
      acme: { baseUrl: fast.url, key: demoKey('all') },
      zeta: { baseUrl: stuck.url, key: demoKey('all') },
    });
    const dir = folder();
    const session = startBinInTerminal(['export', '--all-profiles', '--dir', dir], {
      columns,
      env: { CDATA_CONFIG_DIR: configDir },
    });
    await until(() => / rows, a baseline$/m.test(screen(session.stdout())), 'acme exported, zeta waiting on tenders');
    session.child.stdin.write('\u0003');
    const result = await session.done;
    expect(result.code).toBe(130);
    expect(screen(result.stdout).split('\n').slice(-2)).toEqual([
      expect.stringMatching(/^acme: \d+ rows, a baseline$/),
      `interrupted: 1 of 2 profiles had ended; the others' folders are as they were, and no ${dir}/run.json was written`,
    ]);
    expect(existsSync(join(dir, 'run.json'))).toBe(false);
    expect(existsSync(join(dir, 'acme', 'manifest.json'))).toBe(true);
    expect(existsSync(join(dir, 'zeta'))).toBe(false); // made by this run, and left empty: gone again
  });

  it('Ctrl-C in a first export: the folders it made for it go again', async () => {
    const base = dirname(folder()); // a temp folder of its own, empty
    const dir = join(base, 'new', 'exports');
    const result = await interruptedExport(dir);
    expect(result.code).toBe(130);
    expect(screen(result.stdout)).toBe(`interrupted: nothing was written to ${dir}`);
    expect(readdirSync(base)).toEqual([]);
  });
});
