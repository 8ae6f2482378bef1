// What an export tells: each failure once (lists that failed alike on one line, with their count
// and a hint). In-process, the words a cron job mails; the screen at a terminal (the progress
// lines without a second copy of each failure, the closing summary, and on Ctrl-C the progress
// cleared and what the folder still holds): telling.heavy.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS } from '../../src/core/endpoints.js';
import { useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';

const makeSandbox = useSandboxes();
const folder = () => join(mkdtempSync(join(tmpdir(), 'cdata-telling-')), 'exports');
const LISTS = LIST_ENDPOINTS.map((endpoint) => endpoint.name);
const REVOKED_HINT =
  'hint: Check the key in CDATA_API_KEY, or replace it there: it wins over any key stored with auth login.';

describe('failures said once (what cron mails)', () => {
  it('a revoked key: one line for the eight lists, with the count and a hint', async () => {
    const result = await run(['export', '--dir', folder()], { env: sandboxEnv(await makeSandbox(), 'revoked') });
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toBe(
      `error: ${LISTS.join(', ')} (8 lists): This API key has been revoked. (HTTP 401)\n${REVOKED_HINT}\n`,
    );
  });

  it('a key without two scopes: a line for each list, each hint once (tenders and agents both need tenders.read)', async () => {
    const result = await run(['export', '--dir', folder()], { env: sandboxEnv(await makeSandbox(), 'graph') });
    expect(result).toMatchObject({ code: 4, stdout: '' });
    const hint = (scope: string) =>
      `hint: A key's scopes are fixed when it is created: ask a company owner or admin for a new key with ${scope}, then put it in CDATA_API_KEY.`;
    const error = (list: string, scope: string) =>
      `error: ${list}: This key lacks the scope ${scope}, which /api/v1/${list} requires. Scopes are fixed when a key is created. (HTTP 403, correlation id <id>)`;
    expect(result.stderr.replace(/correlation id [0-9a-f-]{36}/g, 'correlation id <id>').split('\n')).toEqual([
      error('workspaces', 'workspaces.read'),
      hint('workspaces.read'),
      error('tenders', 'tenders.read'),
      hint('tenders.read'),
      error('agents', 'tenders.read'),
      '',
    ]);
  });

  it('the next run asks for one list first: its failure, then the lists not asked for, each said once', async () => {
    const dir = folder();
    const env = sandboxEnv(await makeSandbox(), 'revoked');
    expect((await run(['export', '--dir', dir], { env })).code).toBe(3);
    const result = await run(['export', '--dir', dir], { env });
    expect(result.code).toBe(3);
    const [first, ...rest] = LISTS;
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ${first}: This API key has been revoked\\. \\(HTTP 401, correlation id [0-9a-f-]{36}\\)\n${REVOKED_HINT.replace(/[.()]/g, '\\$&')}\n` +
          `error: ${rest.join(', ')} \\(7 lists\\): not requested: the API refused the first request \\(${first}\\) with exit 3\n` +
          'hint: After an export whose key was refused, cdata asks for one list first: a cron job with a revoked key then costs one failed authentication per run, not one per list\\.\n$',
      ),
    );
  });

  it('with -o json, one JSON line per list still follows its group', async () => {
    const result = await run(['export', 'tenders', 'agents', '--dir', folder(), '-o', 'json'], {
      env: sandboxEnv(await makeSandbox(), 'revoked'),
    });
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `error: tenders, agents (2 lists): This API key has been revoked. (HTTP 401)`,
      REVOKED_HINT,
    ]);
    expect(lines.slice(2).map((line) => (JSON.parse(line) as { error: { resource: string } }).error.resource)).toEqual([
      'tenders',
      'agents',
    ]);
  });
});
