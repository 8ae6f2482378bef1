// The change-detection recipes of docs/exports.md, run as written with sh, against the sandbox on
// day 0, then day 1, then day 1 again: mail only when there are new RECOMMENDED tenders, and a
// history file that gains each run's changes. `mail` is a stand-in that records what it was given.
// The tenders recipe runs as written (with --query), and again with the jq line the docs give
// in its place: both must mail the same.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { stringifyJson } from '../../src/core/json.js';
import { fetchDirect, useSandboxes } from '../helpers/api.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { installCdata, runProcess } from '../helpers/spawn.js';
import { skipWithout } from '../helpers/tools.js';
import { scratch } from '../faults/scratch.js';
import { findEndpoint } from '../../src/core/endpoints.js';

const docs = readFileSync(new URL('../../docs/exports.md', import.meta.url), 'utf8');
const makeSandbox = useSandboxes();
const folder = scratch('cdata-recipes');

/** The first sh block under the heading. */
function recipe(heading: string): string {
  const start = docs.indexOf(`\n### ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const block = /```sh\n([^]*?)```/.exec(docs.slice(start))!;
  return block[1]!;
}

/** A PATH with cdata, node, the system's tools, and a `mail` that appends its subject and body to MAIL_LOG. */
function toolbox(): { path: string; mails: () => string } {
  const bin = join(folder(), 'bin');
  mkdirSync(bin);
  installCdata(bin);
  const log = join(bin, 'mail.log');
  writeFileSync(join(bin, 'mail'), `#!/bin/sh\nprintf 'to %s, subject %s\\n' "$3" "$2" >> '${log}'\ncat >> '${log}'\n`);
  chmodSync(join(bin, 'mail'), 0o755);
  return {
    path: [bin, dirname(process.execPath), process.env.PATH].join(':'),
    mails: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
  };
}

/** An export that exports nothing, refused before any request: as a held folder or a full disk would. */
const NOTHING_EXPORTED = { CDATA_BASE_URL: 'ftp://api.example.com' };

describe.skipIf(skipWithout('jq'))('the recipes in docs/exports.md', () => {
  it.each([
    ['as written, with --query', (script: string) => script],
    [
      'with the jq line in place of --query',
      (script: string) => {
        const jq = /The same with jq instead of `--query`:\n\s+`([^`]+)`/.exec(docs)![1]!;
        const withJq = script.replace(/new=\$\(cdata changes [^]*?\)\n/, `new=$(${jq})\n`);
        expect(withJq).not.toBe(script);
        return withJq;
      },
    ],
  ])(
    'new recommended tenders (%s): no mail for the baseline, a mail listing exactly the new ones, then none until more',
    async (_how, variant) => {
      const script = variant(recipe('New recommended tenders, mailed only when there are some'));
      const dir = join(folder(), 'exports');
      const runIt = (
        sandbox: Awaited<ReturnType<typeof makeSandbox>>,
        tools: ReturnType<typeof toolbox>,
        env: Record<string, string> = {},
      ) =>
        runProcess('sh', ['-c', script.replaceAll('/srv/exports', dir)], {
          env: { ...sandboxEnv(sandbox), PATH: tools.path, ...env },
        });
      const tools = toolbox();
      const [zero, one] = [await makeSandbox({ day: 0 }), await makeSandbox({ day: 1 })];

      expect(await runIt(zero, tools)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(tools.mails()).toBe('');

      expect(await runIt(one, tools)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const tenders = findEndpoint('tenders')!;
      const before = new Set(((await fetchDirect(zero, tenders, { limit: '200' })) as JsonObject[]).map((t) => t.ocid));
      const fresh = ((await fetchDirect(one, tenders, { limit: '200' })) as JsonObject[])
        .filter((t) => !before.has(t.ocid) && t.tier === 'RECOMMENDED')
        .sort((a, b) => String(a.ocid).localeCompare(String(b.ocid)));
      expect(fresh.length).toBeGreaterThan(0);
      expect(tools.mails()).toBe(
        `to bids@example.com, subject New recommended tenders\nNew recommended tenders since the last run (closes, score, ocid, title):\n\n${fresh.map((t) => [t.closesOn, t.score, t.ocid, t.title].join('\t')).join('\n')}\n`,
      );

      // A run that exports nothing (here a setting it refuses) says why, and mails the last run's tenders not again.
      const nothing = await runIt(one, tools, NOTHING_EXPORTED);
      expect(nothing).toMatchObject({ code: 2, stdout: '' });
      expect(nothing.stderr).toMatch(/^error: /);
      expect(tools.mails().split('subject').length).toBe(2);

      expect(await runIt(one, tools)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(tools.mails().split('subject').length).toBe(2); // still the one mail
    },
  );

  it("the history file: each run appends its changes, each line with its export's time", async () => {
    const script = recipe("Every run's changes, kept in one history file");
    const dir = join(folder(), 'exports');
    const history = join(folder(), 'history.ndjson');
    const tools = toolbox();
    const runIt = (sandbox: Awaited<ReturnType<typeof makeSandbox>>, env: Record<string, string> = {}) =>
      runProcess(
        'sh',
        ['-c', script.replaceAll('/srv/exports', dir).replaceAll('/srv/changes-history.ndjson', history)],
        { env: { ...sandboxEnv(sandbox), PATH: tools.path, ...env } },
      );
    const [zero, one, two] = [
      await makeSandbox({ day: 0 }),
      await makeSandbox({ day: 1 }),
      await makeSandbox({ day: 2 }),
    ];

    expect(await runIt(zero)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(history, 'utf8')).toBe(''); // the baseline: nothing changed yet
    const seen: string[] = [];
    for (const sandbox of [one, two]) {
      expect(await runIt(sandbox)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const at = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { exportedAt: string }).exportedAt;
      const lines = readFileSync(join(dir, 'changes.ndjson'), 'utf8').split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      seen.push(...lines.map((line) => `{"exportedAt":${stringifyJson(at)},${line.slice(1)}`));
      // A run that exports nothing between two that do: nothing appended twice.
      expect(await runIt(sandbox, NOTHING_EXPORTED)).toMatchObject({ code: 2, stdout: '' });
    }
    expect(readFileSync(history, 'utf8')).toBe(seen.map((line) => `${line}\n`).join(''));
    // Among them numbers a double would rewrite (each day pays a round amount, `184200.00`): kept as written.
    expect(readFileSync(history, 'utf8')).toMatch(/"amount":\d+\.00[,}]/);
  });
});
