// `cdata changes` (docs/exports.md, docs/exports.md "cdata changes"): the last export's
// changes in every format, filtered by list and kind; what it says for a folder with no export,
// a baseline, a failed list, an older cdata's folder; and what it refuses.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, type JsonObject } from '../../src/core/json.js';
import type { Fault } from '../../src/sandbox/faults.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { runBinInTerminal } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';
import { asOldLayout, manifestOf } from '../export/layout.js';

const makeSandbox = useSandboxes();
const folder = scratch('cdata-changes-command');

/** Two answers of /api/v1/agents: one agent changed (every kind of field change), one added, one removed, one as it was. */
const BEFORE =
  '[{"name":"bid-preparer","description":"Prepares bids","authority":"PREPARE","tools":["documents.read"],"outputType":null,"restrictedActions":["submit_bid"],"budget":1250000.00},' +
  '{"name":"old-agent","description":"Retired","authority":"OBSERVE","tools":[],"outputType":"x.v1","restrictedActions":[]},' +
  '{"name":"same-agent","description":"Unchanged","authority":"RESEARCH","tools":["a"],"outputType":"y.v1","restrictedActions":[]}]';
const AFTER =
  '[{"name":"bid-preparer","description":"Prepares bids","authority":"DRAFT","tools":["documents.read","pricing.calculate"],"outputType":"bid.pack.v2","restrictedActions":["submit_bid"],"budget":1250001.50,"region":"Gauteng"},' +
  '{"name":"new-agent","description":"Reads \\"notices\\", daily","authority":"RECOMMEND","tools":["etenders.search"],"outputType":"z.v1","restrictedActions":[]},' +
  '{"name":"same-agent","description":"Unchanged","authority":"RESEARCH","tools":["a"],"outputType":"y.v1","restrictedActions":[]}]';
const [before, after] = [BEFORE, AFTER].map((body) => parseJson(body) as JsonObject[]) as [JsonObject[], JsonObject[]];

/** The three changes, as changes.ndjson holds them (written out here from section 11). */
const LINES = [
  { resource: 'agents', key: 'new-agent', change: 'added', row: after[1]! },
  {
    resource: 'agents',
    key: 'bid-preparer',
    change: 'changed',
    fields: {
      authority: { from: 'PREPARE', to: 'DRAFT' },
      tools: { from: ['documents.read'], to: ['documents.read', 'pricing.calculate'] },
      outputType: { from: null, to: 'bid.pack.v2' },
      budget: { from: before[0]!.budget!, to: after[0]!.budget! },
      region: { to: 'Gauteng' },
    },
    row: after[0]!,
  },
  { resource: 'agents', key: 'old-agent', change: 'removed', row: before[1]! },
];
const WHAT =
  'authority: PREPARE → DRAFT; tools: documents.read → documents.read, pricing.calculate; outputType: — → bid.pack.v2; budget: 1250000.00 → 1250001.50; region: (absent) → Gauteng';

const answering =
  (body: string): Fault =>
  (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
    return 200;
  };
const agentsAnswer = (body: string) =>
  makeSandbox({ faults: (_i, req) => (req.url?.startsWith('/api/v1/agents') ? answering(body) : undefined) });
const exportInto = async (dir: string, sandbox: Sandbox, ...lists: string[]) =>
  expect((await run(['export', ...lists, '--dir', dir], { env: sandboxEnv(sandbox), now: () => NOW })).code).toBe(0);

/** A folder whose last export found LINES in agents, and compared sites (unchanged). */
async function exported(): Promise<string> {
  const dir = folder();
  await exportInto(dir, await agentsAnswer(BEFORE), 'agents', 'sites');
  await exportInto(dir, await agentsAnswer(AFTER), 'agents', 'sites');
  return dir;
}
const changes = (dir: string, ...argv: string[]) => run(['changes', '--dir', dir, ...argv]);

describe('cdata changes, in every format', () => {
  it('-o ndjson: the lines of changes.ndjson, numbers as the API wrote them; -o json the same as a list', async () => {
    const dir = await exported();
    const file = readFileSync(join(dir, 'changes.ndjson'), 'utf8');
    expect(file).toBe(LINES.map((line) => `${stringifyJson(line)}\n`).join(''));
    expect(file).toContain('"budget":{"from":1250000.00,"to":1250001.50}');
    expect(await changes(dir, '-o', 'ndjson')).toMatchObject({ code: 0, stdout: file, stderr: '' });
    const json = await changes(dir, '-o', 'json');
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(parseJson(json.stdout)).toEqual(LINES);
    expect(json.stdout).toBe(`${stringifyJson(LINES, 2)}\n`);
  });

  it("narrower than the table: the list's name goes first, whole (a note says so); the kind and the key stay", async () => {
    const dir = await exported();
    const at = (columns: number) =>
      run(['changes', '--dir', dir, '--color', 'never'], { stdoutTTY: true, stderrTTY: true, columns });
    const narrow = await at(32);
    expect(narrow.stdout.split('\n').slice(0, 4)).toEqual([
      'change   key           title',
      'added    new-agent     new-agent',
      'changed  bid-preparer  bid-prep…',
      '  authority: PREPARE → DRAFT',
    ]);
    // The note as wide as the terminal at most, broken between words.
    expect(narrow.stderr).toBe('Not shown at 32 columns:\n  resource (--fields brings it\n  back).\n');
    // Wide enough for every column: nothing dropped, nothing cut.
    expect((await at(45)).stdout.split('\n')[0]).toBe('resource  change   key           title');
  });

  it('a table: resource, change, key, title or name, and under a change each field as `field: from → to` (null as —)', async () => {
    const dir = await exported();
    const result = await run(['changes', '--dir', dir, '--color', 'never'], { stdoutTTY: true, columns: 250 });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      [
        'resource  change   key           title',
        'agents    added    new-agent     new-agent',
        'agents    changed  bid-preparer  bid-preparer',
        ...WHAT.split('; ').map((field) => `  ${field}`),
        'agents    removed  old-agent     old-agent',
        '',
      ].join('\n'),
    );
  });

  it('csv and tsv: a line per change, what changed as text, and the row as JSON', async () => {
    const dir = await exported();
    const csv = await changes(dir, '-o', 'csv');
    expect(csv).toMatchObject({ code: 0, stderr: '' });
    const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
    expect(csv.stdout).toBe(
      [
        'resource,change,key,title,fields,row',
        `agents,added,new-agent,new-agent,,${quoted(stringifyJson(after[1]))}`,
        `agents,changed,bid-preparer,bid-preparer,${quoted(WHAT)},${quoted(stringifyJson(after[0]))}`,
        `agents,removed,old-agent,old-agent,,${quoted(stringifyJson(before[1]))}`,
        '',
      ].join('\r\n'),
    );
    const tsv = await changes(dir, '-o', 'tsv', '--fields', 'change,key,fields');
    expect(tsv).toMatchObject({ code: 0, stderr: '' });
    expect(tsv.stdout).toBe(
      ['change\tkey\tfields', 'added\tnew-agent\t', `changed\tbid-preparer\t${WHAT}`, 'removed\told-agent\t', ''].join(
        '\n',
      ),
    );
  });

  it('--out FILE takes the output, in the format its name says', async () => {
    const dir = await exported();
    const out = join(folder(), 'changes.ndjson');
    expect(await changes(dir, '--out', out)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'changes.ndjson'), 'utf8'));
  });
});

describe('choosing', () => {
  it('--change: one kind or several, in any case; RESOURCE: the lists (aliases too)', async () => {
    const dir = await exported();
    const kinds = async (...argv: string[]) =>
      (await changes(dir, '-o', 'ndjson', ...argv)).stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (parseJson(line) as JsonObject).change);
    expect(await kinds('--change', 'added')).toEqual(['added']);
    expect(await kinds('--change', 'Removed,changed')).toEqual(['changed', 'removed']);
    expect(await kinds('agents', '--change', 'added,changed,removed')).toEqual(['added', 'changed', 'removed']);
    expect(await kinds('sites')).toEqual([]);
    const people = await changes(dir, 'people', '-o', 'ndjson');
    expect(people).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no changes in persons: not in the last export\n',
      sleeps: [],
    });
  });

  it('refuses, exit 2, before reading anything: an unknown kind or list, no --dir, --fields the format lacks', async () => {
    const dir = await exported();
    const cases: [string[], string][] = [
      [
        ['changes', '--dir', dir, '--change', 'deleted'],
        "error: --change takes added, changed, removed, or several of them with commas (got 'deleted')\n",
      ],
      [
        ['changes', '--dir', dir, '--change', ''],
        "error: --change takes added, changed, removed, or several of them with commas (got '')\n",
      ],
      [
        ['changes', '--dir', dir, 'tendres'],
        "error: unknown resource 'tendres' for changes; valid: workspaces, companies, documents, obligations, persons, sites, tenders, agents\nhint: Did you mean tenders?\n",
      ],
      [['changes'], 'error: changes needs the export folder: --dir DIR\nhint: e.g. cdata changes --dir /srv/exports\n'],
      [
        ['changes', '--dir', dir, '-o', 'json', '--fields', 'key,title'],
        "error: unknown field 'title' in --fields for changes; valid fields: resource, key, change, fields, row\n",
      ],
      [
        ['changes', '--dir', dir, '-o', 'csv', '--fields', 'key,nope'],
        "error: unknown field 'nope' in --fields for changes; valid fields: resource, change, key, title, fields, row\n",
      ],
    ];
    for (const [argv, stderr] of cases) {
      const result = await run(argv);
      // With -o json, the error is a JSON line too (docs/errors.md): the first line is the message.
      const first = `${result.stderr.split('\n')[0]}\n`;
      expect({ argv, code: result.code, stdout: result.stdout, stderr: first }).toEqual({
        argv,
        code: 2,
        stdout: '',
        stderr: `${stderr.split('\n')[0]}\n`,
      });
      if (!argv.includes('json')) expect(result.stderr).toBe(stderr);
    }
  });
});

describe('--query, over the change objects', () => {
  it('a filter keeps the changes as they print without it: lines in a table, csv and tsv, the objects in json', async () => {
    const dir = await exported();
    const query = "[?change != 'removed']";
    const table = await run(['changes', '--dir', dir, '--color', 'never', '--query', query], {
      stdoutTTY: true,
      columns: 250,
    });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe(
      [
        'resource  change   key           title',
        'agents    added    new-agent     new-agent',
        'agents    changed  bid-preparer  bid-preparer',
        ...WHAT.split('; ').map((field) => `  ${field}`),
        '',
      ].join('\n'),
    );
    const tsv = await changes(dir, '-o', 'tsv', '--fields', 'change,key,fields', '--query', query);
    expect(tsv).toMatchObject({
      code: 0,
      stderr: '',
      stdout: ['change\tkey\tfields', 'added\tnew-agent\t', `changed\tbid-preparer\t${WHAT}`, ''].join('\n'),
    });
    const json = await changes(dir, '-o', 'json', '--query', query);
    expect(json).toMatchObject({ code: 0, stderr: '', stdout: `${stringifyJson(LINES.slice(0, 2), 2)}\n` });
  });

  it('a projection prints as any query result: its own columns, numbers as the API wrote them; a count alone', async () => {
    const dir = await exported();
    const projection = await changes(
      dir,
      '-o',
      'csv',
      '--query',
      '[?fields.budget].{key: key, before: fields.budget.from, after: row.budget}',
    );
    expect(projection).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'key,before,after\r\nbid-preparer,1250000.00,1250001.50\r\n',
    });
    expect(await changes(dir, '--query', 'length(@)')).toMatchObject({ code: 0, stderr: '', stdout: '3\n' });
    // Nothing matched: the header of the lines, as for no change at all.
    expect(await changes(dir, '-o', 'csv', '--query', "[?change == 'nope']")).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'resource,change,key,title,fields,row\r\n',
    });
  });

  it('sees only the lists and kinds chosen; an expression that does not parse is exit 2, before the folder is read', async () => {
    const dir = await exported();
    expect(await changes(dir, '--change', 'added', '--query', '[].key', '-o', 'json')).toMatchObject({
      code: 0,
      stderr: '',
      stdout: '[\n  "new-agent"\n]\n',
    });
    const missing = join(folder(), 'nope');
    const bad = await changes(missing, '--query', '[?');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: --query is not a valid JMESPath expression at column 3/);
  });
});

describe('when there is nothing to show', () => {
  it('a folder with no export: an empty list, said on stderr, exit 0; a path that is no folder: exit 2', async () => {
    const dir = folder();
    // An empty list is success: `[]` in json, the header alone in csv and tsv.
    for (const [format, printed] of [
      ['table', ''],
      ['json', '[]\n'],
      ['ndjson', ''],
      ['csv', 'resource,change,key,title,fields,row\r\n'],
      ['tsv', 'resource\tchange\tkey\ttitle\tfields\trow\n'],
    ]) {
      expect(await changes(dir, '-o', format!)).toEqual({
        code: 0,
        stdout: printed,
        stderr: `no export in ${dir} yet, so no changes: cdata export --dir ${dir} records them from its second run on\n`,
        sleeps: [],
      });
    }
    expect((await changes(dir, '-o', 'json', '-q', '--query', 'length(@)')).stdout).toBe('0\n');
    // Piped, the default is tsv: its header alone.
    expect(await changes(dir, '-q')).toEqual({
      code: 0,
      stdout: 'resource\tchange\tkey\ttitle\tfields\trow\n',
      stderr: '',
      sleeps: [],
    });
    const missing = join(dir, 'nope');
    expect(await changes(missing)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: ${missing} is not a folder: no export to read changes from\nhint: Give the --dir an export was written to.\n`,
    });
    // A path that cannot even be looked up: exit 2 saying why, not an internal error. (Node 22
    // and later take a file on the way, ENOTDIR, for no entry: then it is "not a folder".)
    writeFileSync(join(dir, 'file'), '');
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    for (const [path, code] of [
      [join(dir, 'file', 'sub'), 'ENOTDIR'],
      [join(dir, 'loop'), 'ELOOP'],
    ]) {
      const result = await changes(path!);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: (cannot read ${path}: ${code}: .*|${path} is not a folder: no export to read changes from)\nhint: Give the --dir an export was written to\\.\n$`,
        ),
      );
    }
  });

  it("the folder of an export --profiles run: exit 2, pointing to a profile's folder, the profiles named", async () => {
    const dir = folder();
    const names = ['acme', 'beta', 'client-03', 'client-04', 'client-05', 'client-06', 'client-07'];
    for (const name of names) mkdirSync(join(dir, name, '.generations'), { recursive: true });
    writeFileSync(join(dir, 'run.json'), '{}');
    const error = `error: ${dir} holds an export --profiles run: its changes are recorded per profile, in each profile's folder\n`;
    expect(await changes(dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${error}hint: Give --dir a profile's folder: cdata changes --dir ${join(dir, 'acme')} (profiles here: acme, beta, client-03, client-04, client-05, 2 more).\n`,
      sleeps: [],
    });
    // A shard's record alone says the same; a folder with neither is only "no export yet".
    rmSync(join(dir, 'run.json'));
    writeFileSync(join(dir, 'run-2-of-3.json'), '{}');
    expect((await changes(dir)).stderr).toContain(error);
    rmSync(join(dir, 'run-2-of-3.json'));
    expect(await changes(dir)).toMatchObject({ code: 0, stderr: expect.stringMatching(/^no export in /) });
  });

  it('a baseline: nothing printed at a terminal (an empty list in json, a header in csv), and said on stderr', async () => {
    const dir = folder();
    await exportInto(dir, await agentsAnswer(BEFORE), 'agents', 'sites');
    const note = 'no changes in agents, sites: the last export was the baseline (nothing earlier to compare with)\n';
    expect(await run(['changes', '--dir', dir], { stdoutTTY: true })).toEqual({
      code: 0,
      stdout: '',
      stderr: note,
      sleeps: [],
    });
    expect(await changes(dir, '-o', 'json')).toEqual({ code: 0, stdout: '[]\n', stderr: note, sleeps: [] });
    expect(await changes(dir, '-o', 'csv')).toEqual({
      code: 0,
      stdout: 'resource,change,key,title,fields,row\r\n',
      stderr: note,
      sleeps: [],
    });
  });

  it('--change that finds nothing says what it left out; removals a list cut at its limit cannot know, said', async () => {
    const dir = folder();
    const added = BEFORE.replace(
      /\]$/,
      ',{"name":"extra-agent","description":"New","authority":"OBSERVE","tools":[],"outputType":null,"restrictedActions":[]}]',
    );
    const sandbox = await agentsAnswer(BEFORE);
    await exportInto(dir, sandbox, 'agents', 'companies', '--limit', '3');
    await exportInto(dir, await agentsAnswer(added), 'agents', 'companies', '--limit', '3');
    const at = manifestOf(dir).exportedAt;
    const agents = await run(['changes', '--dir', dir, 'agents', '--change', 'changed,removed'], { stdoutTTY: true });
    expect(agents).toMatchObject({ code: 0, stdout: '' });
    expect(agents.stderr).toBe(
      `No changed or removed rows in agents in the last export (${at}). It found 1 added (--change added shows them).\n`,
    );
    const companies = await run(['changes', '--dir', dir, 'companies', '--change', 'removed'], { stdoutTTY: true });
    expect(companies.stderr).toBe(
      `No removed rows in companies in the last export (${at}).\n` +
        'Removed rows in companies are not known: the last export got as many rows as it asked for, so a row missing from it may only have moved past the limit.\n',
    );
    // Asked for by default too: an empty answer must not read as "nothing was removed".
    const all = await run(['changes', '--dir', dir, 'companies'], { stdoutTTY: true });
    expect(all.stderr).toBe(
      `No changes in companies in the last export (${at}).\n` +
        'Removed rows in companies are not known: the last export got as many rows as it asked for, so a row missing from it may only have moved past the limit.\n',
    );
    // And for a script: the JSON is the empty list, the note on stderr all the same.
    const json = await run(['changes', '--dir', dir, 'companies', '--change', 'removed', '-o', 'json']);
    expect(json.stdout).toBe('[]\n');
    expect(json.stderr).toContain('Removed rows in companies are not known');
    const typo = await run(['changes', '--dir', dir, '--change', 'chnaged']);
    expect(typo.stderr).toBe(
      "error: --change takes added, changed, removed, or several of them with commas (got 'chnaged')\nhint: Did you mean changed?\n",
    );
  });

  it('a list that failed, one not exported, and lists compared with nothing changed: each said', async () => {
    const dir = folder();
    const sandbox = await agentsAnswer(BEFORE);
    await exportInto(dir, sandbox, 'agents', 'sites', 'tenders');
    const failing = await makeSandbox({
      faults: (_i, req) =>
        req.url?.startsWith('/api/v1/tenders')
          ? answering('{"not":"a list"}')
          : req.url?.startsWith('/api/v1/agents')
            ? answering(BEFORE)
            : undefined,
    });
    expect((await run(['export', 'agents', 'tenders', '--dir', dir], { env: sandboxEnv(failing) })).code).toBe(7);
    const result = await run(['changes', '--dir', dir, 'tenders', 'sites', 'agents'], { stdoutTTY: true });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        'no changes in sites: not in the last export',
        'no changes in tenders: failed in the last export (the next successful export compares with the last successful one)',
        `No changes in agents in the last export (${manifestOf(dir).exportedAt}).`,
        '',
      ].join('\n'),
      sleeps: [],
    });
  });

  it('a list that failed in the first export of all: its next success is its baseline, as said', async () => {
    const dir = folder();
    const failing = await makeSandbox({
      faults: (_i, req) => (req.url?.startsWith('/api/v1/tenders') ? answering('{"not":"a list"}') : undefined),
    });
    expect((await run(['export', 'agents', 'tenders', '--dir', dir], { env: sandboxEnv(failing) })).code).toBe(7);
    const result = await run(['changes', '--dir', dir, 'tenders', 'agents'], { stdoutTTY: true });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        'no changes in tenders: failed in the last export, and never exported before it (the next successful export is the baseline)',
        'no changes in agents: the last export was the baseline (nothing earlier to compare with)',
        '',
      ].join('\n'),
      sleeps: [],
    });
  });

  it('an export by a cdata without change detection (plain files, or a generation without changes.ndjson): said, exit 0', async () => {
    const dir = await exported();
    asOldLayout(dir);
    const said = `the export in ${dir} was written by a cdata without change detection: the next export is every list's baseline, and the one after it records changes\n`;
    expect(await changes(dir, '-o', 'table')).toEqual({ code: 0, stdout: '', stderr: said, sleeps: [] });
    expect(await changes(dir, '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: said, sleeps: [] });

    const generation = await exported();
    rmSync(join(generation, '..data', 'changes.ndjson'));
    const { changesFile: _file, ...manifest } = manifestOf(generation);
    rmSync(join(generation, '..data', 'manifest.json'));
    writeFileSync(join(generation, '..data', 'manifest.json'), JSON.stringify(manifest));
    expect(await changes(generation, '-o', 'table')).toEqual({
      code: 0,
      stdout: '',
      stderr: said.replace(dir, generation),
      sleeps: [],
    });
  });
});

describe('what it refuses', () => {
  it.each([
    [
      'a line that is not JSON',
      (path: string) => writeFileSync(path, '{"resource":"agents"\n'),
      'line 1 is not JSON: ',
    ],
    [
      'a line that is not a change',
      (path: string) => writeFileSync(path, '{"resource":"agents","key":"x","change":"renamed","row":{}}\n'),
      'line 1 is not a change cdata wrote',
    ],
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path]), 'it is a FIFO (named pipe), not a regular file'],
  ])('a changes.ndjson with %s: exit 2 naming it, at once', async (_what, plant, why) => {
    const dir = await exported();
    const path = join(dir, '..data', 'changes.ndjson');
    rmSync(path);
    plant(path);
    const result = await changes(dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: cannot read the changes in ${dir}: `);
    expect(result.stderr).toContain(why);
  });

  it('a bad line half-way: in a pipe, ndjson, csv and tsv end there, the changes before it printed; a table prints none', async () => {
    const dir = await exported();
    const path = join(dir, '..data', 'changes.ndjson');
    const good = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(good.length).toBeGreaterThan(2);
    rmSync(path);
    writeFileSync(path, `${good.slice(0, 2).join('\n')}\n{"resource":\n${good.slice(2).join('\n')}\n`);
    const ndjson = await changes(dir, '-o', 'ndjson');
    expect(ndjson.code).toBe(2);
    expect(ndjson.stdout).toBe(`${good.slice(0, 2).join('\n')}\n`);
    expect(ndjson.stderr).toContain('line 3 is not JSON');
    const tsv = await changes(dir, '-o', 'tsv');
    expect(tsv.stdout.trimEnd().split('\n')).toHaveLength(3); // the header, then the two
    const table = await run(['changes', '--dir', dir], { stdoutTTY: true });
    expect(table).toMatchObject({ code: 2, stdout: '' });
  });

  it("a changes.ndjson cut short at a line's end (or grown): the changes read, then exit 2, its lines against the manifest's", async () => {
    const dir = await exported();
    const path = join(dir, '..data', 'changes.ndjson');
    const whole = readFileSync(path, 'utf8');
    const good = whole.split('\n').filter(Boolean);
    expect(good.length).toBeGreaterThan(2);
    rmSync(path);
    const cut = `${good.slice(0, 2).join('\n')}\n`;
    writeFileSync(path, cut);
    const ndjson = await changes(dir, '-o', 'ndjson');
    expect(ndjson).toMatchObject({ code: 2, stdout: cut });
    // (An error line in JSON follows, the output being ndjson.)
    expect(ndjson.stderr.split('\n').slice(0, 2)).toEqual([
      `error: cannot read the changes in ${dir}: ${dir}/changes.ndjson holds 2 lines (${Buffer.byteLength(cut)} bytes), not the ${good.length} (${Buffer.byteLength(whole)} bytes) its manifest recorded`,
      `hint: cdata export writes them; the next export into ${dir} writes them afresh.`,
    ]);
    rmSync(path);
    writeFileSync(path, `${whole}${good[0]}\n`);
    expect((await changes(dir, '-o', 'ndjson')).code).toBe(2);
  });

  it("a changes.ndjson its manifest names but that is gone: exit 2 naming it, not the generation's path", async () => {
    const dir = await exported();
    rmSync(join(dir, '..data', 'changes.ndjson'));
    expect(await changes(dir)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: cannot read the changes in ${dir}: a file of its last export is missing: changes.ndjson\nhint: cdata export writes them; the next export into ${dir} writes them afresh.\n`,
    });
  });

  it("a ..data that is not cdata's: exit 2", async () => {
    const dir = folder();
    writeFileSync(join(dir, '..data'), 'x');
    expect(await changes(dir)).toMatchObject({
      code: 2,
      stderr: `error: cannot read the changes in ${dir}: ${dir}/..data is not cdata's (a link to one of its ..YYYY_MM_DD_… folders)\nhint: cdata export writes them; the next export into ${dir} writes them afresh.\n`,
    });
  });
});

describe('the built binary at a terminal', () => {
  /** `cdata changes --dir DIR` in a pseudo-terminal 80 wide: its lines, without colour. */
  const atEightyColumns = async (dir: string) => {
    const result = await runBinInTerminal(['changes', '--dir', dir], { columns: 80 });
    expect(result.code).toBe(0);
    return result.stdout
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\r\n')
      .filter(Boolean);
  };

  it('at 80 columns: the key whole, each changed field on its own line, nothing cut', async () => {
    const dir = await exported();
    const lines = await atEightyColumns(dir);
    expect(lines).toEqual([
      'resource  change   key           title',
      'agents    added    new-agent     new-agent',
      'agents    changed  bid-preparer  bid-preparer',
      '  authority: PREPARE → DRAFT',
      '  tools: documents.read → documents.read, pricing.calculate',
      '  outputType: — → bid.pack.v2',
      '  budget: 1250000.00 → 1250001.50',
      '  region: (absent) → Gauteng',
      'agents    removed  old-agent     old-agent',
    ]);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('a UUID key as the list shows it (its shortest unique prefix, 8 or more), which opens the record; a long value wrapped, not cut', async () => {
    const [first, second, third] = [
      'd10e897e-3fad-44fe-9cce-6ea6c6b804e9',
      'd10e897e-4bad-44fe-9cce-6ea6c6b804e9',
      '2768b625-3a72-4d8a-8109-473d20ab034c',
    ];
    const company = (id: string, name: string, notes: string) => ({
      id,
      name,
      registrationNumber: null,
      kind: 'BUYER',
      notes,
      createdAt: '2026-11-01T00:00:00.000Z',
    });
    const long =
      'Pays on the 25th; invoices must quote the order number, the project number, the ward and the name of the site agent';
    const answer = (rows: object[]) =>
      makeSandbox({
        faults: (_i, req) =>
          req.url?.startsWith('/api/v1/graph/companies') ? answering(JSON.stringify(rows)) : undefined,
      });
    const dir = folder();
    await exportInto(
      dir,
      await answer([company(first, 'City of Tshwane', 'short'), company(second, 'Vaal Electrical', 'x')]),
      'companies',
    );
    const later = await answer([company(first, 'City of Tshwane', long), company(third, 'Karoo Readymix', 'y')]);
    await exportInto(dir, later, 'companies');
    const lines = await atEightyColumns(dir);
    expect(lines).toEqual([
      'resource   change   key         title',
      'companies  added    2768b625    Karoo Readymix',
      'companies  changed  d10e897e-3  City of Tshwane',
      '  notes: short → Pays on the 25th; invoices must quote the order number, the',
      '    project number, the ward and the name of the site agent',
      'companies  removed  d10e897e-4  Vaal Electrical',
    ]);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    // The key as shown opens the record, as a list's first cell does.
    const opened = await run(['companies', 'd10e897e-3', '--json'], { env: sandboxEnv(later) });
    expect(opened.code).toBe(0);
    expect(JSON.parse(opened.stdout)).toMatchObject({ id: first, notes: long });
  });
});
