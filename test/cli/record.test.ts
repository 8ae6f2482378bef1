// One record by its key (`cdata tenders OCID`, `cdata agents NAME`, `cdata companies ID`): cdata
// asks for 200 rows (filters applied) and shows the one whose key is KEY or starts with it (6+
// characters); every field at a terminal, the object in JSON, one line or row elsewhere. Not
// found is exit 8, an ambiguous or too short prefix exit 2; both before any output.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { endpointNamed, fieldNames } from '../../src/core/endpoints.js';
import { EXIT } from '../../src/core/errors.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { fetchDirect, NOW } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
const env = () => sandboxEnv(sandbox.current);
const tenders = endpointNamed('tenders');
const all = async (name: Parameters<typeof endpointNamed>[0], query: Record<string, string> = { limit: '200' }) =>
  (await fetchDirect(
    sandbox.current,
    endpointNamed(name),
    name === 'agents' || name === 'workspaces' ? {} : query,
  )) as JsonObject[];
/** The sandbox's requests a run made (from index `before` on), as query strings. */
const queriesSince = (before: number) =>
  sandbox.current.requests.slice(before).map((request) => new URLSearchParams(request.query).toString());

describe('a record by its key', () => {
  it('at a terminal: every field, one per line, long text wrapped under itself, array items one per line', async () => {
    const rows = await all('tenders');
    const long = (text: unknown, over: number) => typeof text === 'string' && text.length > over;
    const tender = rows.find(
      (row) =>
        Array.isArray(row.reasons) && row.reasons.some((reason) => long(reason, 45)) && long(row.briefingNote, 70),
    )!;
    const result = await cdata(['tenders', String(tender.ocid), '--color', 'never'], {
      env: env(),
      stdoutTTY: true,
      columns: 60,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    const width = Math.max(...fieldNames(tenders).map((field) => field.length)) + 2;
    // Labels in the table's order, each once, at the start of a line; the rest are continuations.
    expect(lines.filter((line) => !line.startsWith(' ')).map((line) => line.split(' ')[0])).toEqual(
      fieldNames(tenders),
    );
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    const valueOf = (field: string) => {
      const at = lines.findIndex((line) => line.startsWith(`${field} `) || line === field);
      const end = lines.findIndex((line, i) => i > at && !line.startsWith(' '));
      return lines.slice(at, end < 0 ? undefined : end).map((line) => line.slice(width));
    };
    // One item a line, marked; a long one wrapped under its own start.
    expect(valueOf('reasons').filter((line) => line.startsWith('- '))).toHaveLength(
      (tender.reasons as string[]).length,
    );
    expect(valueOf('reasons').some((line) => line.startsWith('  '))).toBe(true);
    const reasons = valueOf('reasons')
      .join('\n')
      .split(/\n- |^- /m)
      .filter(Boolean)
      .map((item) => item.replace(/\n {2}/g, ' '));
    expect(reasons).toEqual(tender.reasons);
    const note = valueOf('briefingNote');
    expect(note.length).toBeGreaterThan(1);
    expect(note.join(' ').replace(/ +/g, ' ')).toBe(String(tender.briefingNote).replace(/\n/g, ' '));
  });

  it('-o json: the object as the API sent it; ndjson one line; csv and tsv one row', async () => {
    const [agent] = (await all('agents')).filter((row) => row.name === 'tender-scout');
    const json = await cdata(['agents', 'tender-scout', '-o', 'json'], { env: env() });
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(parseJson(json.stdout)).toEqual(agent);
    expect(json.stdout.startsWith('{\n')).toBe(true);
    const ndjson = await cdata(['agents', 'tender-scout', '-o', 'ndjson'], { env: env() });
    expect(ndjson.stdout.split('\n')).toHaveLength(2);
    expect(parseJson(ndjson.stdout)).toEqual(agent);
    const csv = await cdata(['agents', 'tender-scout', '-o', 'csv'], { env: env() });
    expect(csv.stdout.trimEnd().split('\r\n')).toHaveLength(2);
    expect(csv.stdout.split('\r\n')[1]).toMatch(/^tender-scout,/);
    const tsv = await cdata(['agents', 'tender-scout'], { env: env() });
    expect(tsv.stdout.trimEnd().split('\n')).toEqual([
      fieldNames(endpointNamed('agents')).join('\t'),
      expect.stringMatching(/^tender-scout\t/),
    ]);
  });

  it('a unique prefix of 6 or more characters, in any case; --fields applies', async () => {
    const [company] = await all('companies');
    const prefix = String(company!.id).slice(0, 8).toUpperCase();
    const result = await cdata(['companies', prefix, '--fields', 'id,name', '--json'], { env: env() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(parseJson(result.stdout)).toEqual({ id: company!.id, name: company!.name });
    const agent = await cdata(['agents', 'tender-s', '-o', 'ndjson', '--fields', 'name'], { env: env() });
    expect(agent.stdout).toBe('{"name":"tender-scout"}\n');
  });

  it('asks for 200 rows with the filters given, which narrow the search; --limit is refused before any request', async () => {
    const [stretch] = await all('tenders', { tier: 'STRETCH', limit: '200' });
    const before = sandbox.current.requests.length;
    const found = await cdata(['tenders', '--tier', 'stretch', String(stretch!.ocid), '--json'], { env: env() });
    expect(found.code).toBe(0);
    expect(parseJson(found.stdout)).toEqual(stretch);
    expect(queriesSince(before)).toEqual(['tier=STRETCH&limit=200']);

    const recommended = (await all('tenders'))[0]!;
    const elsewhere = await cdata(['tenders', '--tier', 'STRETCH', String(recommended.ocid)], { env: env() });
    expect(elsewhere.code).toBe(EXIT.notFound);
    expect(elsewhere.stderr).toContain(`among the 18 tenders the API returned for tier=STRETCH`);

    const requests = sandbox.current.requests.length;
    const limited = await cdata(['tenders', '--limit', '5', String(recommended.ocid)], { env: env() });
    expect(limited).toMatchObject({ code: 2, stdout: '' });
    expect(limited.stderr).toBe(
      'error: --limit does not apply to a lookup by ocid: cdata looks among the 200 rows the API returns, the most it can\n',
    );
    expect(sandbox.current.requests.length).toBe(requests);
  });

  it('not found: exit 8, saying the API returns only the best (or newest) 200', async () => {
    const tender = await cdata(['tenders', 'ocds-9t57fa-999999'], { env: env() });
    expect(tender).toMatchObject({ code: 8, stdout: '' });
    expect(tender.stderr).toBe(
      "error: nothing with ocid 'ocds-9t57fa-999999' (or starting with it) among the 64 tenders the API returned\n" +
        'hint: The API returns only the best-matched 200 tenders (best tier first); it returned 64, every one there is.\n',
    );
    const obligation = await cdata(['obligations', '00000000-dead', '--json'], { env: env() });
    expect(obligation).toMatchObject({ code: 8, stdout: '' });
    const [message, hint, json] = obligation.stderr.split('\n');
    expect(message).toBe(
      "error: nothing with id '00000000-dead' (or starting with it) among the 200 obligations the API returned",
    );
    expect(hint).toBe(
      'hint: The API returns only the newest 200 obligations, and has no paging: one outside them cannot be shown.',
    );
    expect(JSON.parse(json!)).toMatchObject({ error: { title: 'Not found', exitCode: 8 } });
  });

  it("a filter's value or a number where a key goes (`tenders RECOMMENDED`, `companies 20`): not found, and the hint names the option meant", async () => {
    const tier = await cdata(['tenders', 'worth-a-look'], { env: env() });
    expect(tier).toMatchObject({
      code: 8,
      stdout: '',
      stderr:
        "error: nothing with ocid 'worth-a-look' (or starting with it) among the 64 tenders the API returned\n" +
        "hint: Did you mean --tier WORTH_A_LOOK? A word after 'tenders' is the ocid of one record.\n",
    });
    const limit = await cdata(['companies', '20'], { env: env() });
    expect(limit).toMatchObject({ code: 8, stdout: '' });
    expect(limit.stderr.split('\n')[1]).toBe(
      "hint: Did you mean --limit 20? A word after 'companies' is the id of one record.",
    );
    // A number too short to pick an id by its start (it may start some): the same hint, exit 2.
    for (const digit of ['1', '5', '9']) {
      const short = await cdata(['persons', digit], { env: env() });
      expect(short.stderr.split('\n')[1]).toBe(
        `hint: Did you mean --limit ${digit}? A word after 'persons' is the id of one record.`,
      );
    }
    // A list without --limit (agents, by name) keeps the usual hint.
    expect((await cdata(['agents', '20'], { env: env() })).stderr).not.toContain('Did you mean');
  });

  it('an ambiguous prefix: exit 2, listing the matches; a prefix under 6 characters: exit 2, saying so', async () => {
    const ocids = (await all('tenders')).map((row) => String(row.ocid));
    const prefix = ocids.map((ocid) => ocid.slice(0, 16)).find((start, i, all) => all.indexOf(start) !== i)!;
    const matches = ocids.filter((ocid) => ocid.startsWith(prefix));
    const ambiguous = await cdata(['tenders', prefix], { env: env() });
    expect(ambiguous).toMatchObject({ code: 2, stdout: '' });
    expect(ambiguous.stderr).toBe(
      `error: '${prefix}' matches ${matches.length} tenders: ${matches.join(', ')}\nhint: Type more of the ocid, to pick one.\n`,
    );
    const many = await cdata(['tenders', 'ocds-9t57fa'], { env: env() });
    expect(many.stderr.split('\n')[0]).toMatch(
      /^error: 'ocds-9t57fa' matches 64 tenders: (ocds-9t57fa-\d+, ){9}ocds-9t57fa-\d+ and 54 more$/,
    );
    const short = await cdata(['agents', 'tende'], { env: env() });
    expect(short).toMatchObject({ code: 2, stdout: '' });
    expect(short.stderr).toBe(
      "error: 'tende' is not a whole name of the agents, and too short to pick one by its start (2 start with it)\nhint: Type the whole name, or at least 6 characters of it.\n",
    );
    // One: the verb agrees.
    const agents = (await all('agents')).map((row) => String(row.name));
    const alone = agents
      .map((name) => name.slice(0, 3))
      .find((start, _, all) => all.filter((s) => s === start).length === 1)!;
    expect((await cdata(['agents', alone], { env: env() })).stderr.split('\n')[0]).toBe(
      `error: '${alone}' is not a whole name of the agents, and too short to pick one by its start (1 starts with it)`,
    );
  });

  it('a KEY shaped like a secret is not echoed; `me` takes no KEY', async () => {
    const secret = 'whsec_TypedOnTheCommandLine0123456789';
    const result = await cdata(['tenders', secret], { env: env() });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain("nothing with ocid 'whsec_***'");
    expect(result.stderr).not.toContain(secret);
    const me = await cdata(['me', 'someone'], { env: env() });
    expect(me).toMatchObject({ code: 2, stdout: '' });
    expect(me.stderr.split('\n')[0]).toBe("error: too many arguments for 'me'. Expected 0 arguments but got 1.");
  });

  it('the examples that look one up find their record in the sandbox', async () => {
    const lists = COMMANDS.filter((command) => command.view?.key !== undefined);
    const examples = lists
      .flatMap((command) => command.examples ?? [])
      .filter((example) => /^cdata \w+ [\w-]{6,}$/.test(example));
    expect(examples).toEqual([
      'cdata companies d10e897e',
      'cdata tenders ocds-9t57fa-140905',
      'cdata agents tender-scout',
    ]);
    for (const example of examples)
      expect((await cdata([...example.split(' ').slice(1), '--json'], { env: env() })).code, example).toBe(0);
  });

  it('--query sees the one record: its object, not the list of 200', async () => {
    const tender = (await all('tenders')).find((row) => row.ocid === 'ocds-9t57fa-140905')!;
    const title = await cdata(['tenders', 'ocds-9t57fa-140905', '--query', 'title', '--json'], { env: env() });
    expect(title).toMatchObject({ code: 0, stderr: '' });
    expect(parseJson(title.stdout)).toBe(tender.title);
    const pair = await cdata(
      ['tenders', 'ocds-9t57fa-140905', '--query', '{ocid: ocid, score: score}', '-o', 'ndjson'],
      { env: env() },
    );
    expect(pair.stdout).toBe(`{"ocid":"ocds-9t57fa-140905","score":${tender.score}}\n`);
    // `@` is the record itself: at a terminal, the record view of its fields.
    const whole = await cdata(
      ['tenders', 'ocds-9t57fa-140905', '--query', '@', '--fields', 'ocid,title', '--color', 'never'],
      { env: env(), stdoutTTY: true, columns: 80 },
    );
    expect(whole.stdout).toBe(`ocid   ocds-9t57fa-140905\ntitle  ${tender.title}\n`);
    // A query error is a usage error before any request, as for the list.
    const before = sandbox.current.requests.length;
    expect((await cdata(['tenders', 'ocds-9t57fa-140905', '--query', 'title[', '--json'], { env: env() })).code).toBe(
      2,
    );
    expect(sandbox.current.requests.length).toBe(before);
  });

  it('help says what KEY does, and exit 8 is in the exit codes', async () => {
    const help = await cdata(['tenders', '--help'], { env: env() });
    expect(help.stdout).toContain('Usage: cdata tenders [options] [key]');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'With KEY, one record in full: cdata asks for the 200 rows the API returns, after --tier, --decided, --undecided (which narrow the search), and shows the one whose ocid is KEY or, for 6 or more characters, starts with it. --limit does not apply. --query sees the one record. Not found: exit 8.',
    );
    expect((await cdata(['--help'], { env: env() })).stdout).toMatch(
      /^ {3}8 {2}no record with that key among the rows the API returns \(at most 200\)$/m,
    );
  });
});
