// Help that helps (docs/output.md): `cdata help [COMMAND...]` is --help and `cdata version`
// is --version; a group's help lists its subcommands first and no global option; a command's help
// lists only the global options that apply to it; an unknown subcommand points at its group's
// help; no argument is advertised that is refused; gh's `--json a,b` is explained.
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/version.js';
import { wrapHelp } from '../../src/help.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { screen } from '../helpers/screen.js';
import { runBinInTerminal, runProcess } from '../helpers/spawn.js';

const sandbox = useSandbox();

/** The headings of a help text, in order, and the option names under "Global Options:". */
function sections(help: string): { headings: string[]; global: string[] } {
  const headings = help
    .split('\n')
    .filter((line) => /^(Usage: |[A-Z][A-Za-z ]*:$)/.test(line))
    .map((line) => line.replace(/:.*/, ''));
  const block = help.split('Global Options:\n')[1]?.split('\n\n')[0] ?? '';
  const global = [...block.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!);
  return { headings, global };
}

describe('cdata help and cdata version', () => {
  it.each([[[]], [['tenders']], [['people']], [['auth']], [['auth', 'login']], [['config', 'list']], [['help']]])(
    'cdata help %j prints what --help prints',
    async (path) => {
      const help = await cdata(['help', ...path]);
      const flag = await cdata([...path, '--help']);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toBe(flag.stdout);
      expect(help.stdout).toMatch(/^Usage: cdata/);
    },
  );

  it('cdata version prints what --version prints', async () => {
    expect(await cdata(['version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it.each([
    [['help', 'nosuch'], "error: unknown command 'nosuch'\nhint: Run 'cdata --help' for usage.\n"],
    [
      ['help', 'tender'],
      "error: unknown command 'tender'\nhint: Did you mean tenders? Run 'cdata --help' for usage.\n",
    ],
    [
      ['help', 'auth', 'lgoin'],
      "error: unknown command 'lgoin' for 'cdata auth'\nhint: Did you mean login? Run 'cdata auth --help' for usage.\n",
    ],
    [
      ['help', 'tenders', 'extra'],
      "error: unknown command 'extra' for 'cdata tenders'\nhint: Run 'cdata tenders --help' for usage.\n",
    ],
  ])('%j: exit 2, nothing on stdout, nothing sent', async (argv, stderr) => {
    const before = sandbox.current.requests.length;
    expect(await cdata(argv, { env: sandboxEnv(sandbox.current) })).toMatchObject({ code: 2, stdout: '', stderr });
    expect(sandbox.current.requests.length).toBe(before);
  });
});

describe("a group's help", () => {
  it.each([['auth'], ['config'], ['profile'], ['webhook']])(
    'cdata %s --help: usage, then its commands, its own -h, examples, and where the rest is',
    async (group) => {
      const help = (await cdata([group, '--help'])).stdout;
      expect(sections(help)).toEqual({ headings: ['Usage', 'Commands', 'Options', 'Examples'], global: [] });
      expect(help).toMatch(new RegExp(`^Usage: cdata ${group} \\[options\\] <command>\n`));
      expect(help).toMatch(/\nOptions:\n {2}-h, --help +show help\n\n/);
      // Wrapped to 80 columns (no terminal, no COLUMNS): compared with the line breaks as spaces.
      expect(help.replace(/\n(?=\S)/g, ' ')).toContain(
        ` Run 'cdata ${group} COMMAND --help' (or 'cdata help ${group} COMMAND') for a command's options.\n`,
      );
    },
  );

  it('run without a subcommand: the same help on stderr, exit 2', async () => {
    const result = await cdata(['config']);
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: (await cdata(['config', '--help'])).stdout });
  });

  it('options and no command: a line saying so, naming the option that took the command as its value; exit 2', async () => {
    // `cdata --base-url $URL tenders` with URL empty: the option takes `tenders`. The whole help
    // on stderr, with no error line, used to be all it said.
    for (const option of ['-o', '--base-url', '-p']) {
      expect(await cdata([option, 'tenders'])).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: no command given: 'tenders' was taken as the value of ${option}\nhint: Give ${option} a value of its own (an empty variable leaves it none), then the command.\n`,
        sleeps: [],
      });
    }
    expect(await cdata(['-q'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "error: no command given\nhint: Run 'cdata --help' for the commands.\n",
    });
  });

  it("a command's option that took the next option as its value: said as that, before any other check; exit 2", async () => {
    // `--profiles $SELECTION --dir X` with SELECTION empty: --profiles takes --dir, and the
    // required --dir looked missing. -q goes to the root, whatever its place.
    const cases: [string[], string, string][] = [
      [['export', '--profiles', '-q', '--dir', 'X'], '--profiles', '--dir'],
      [['changes', '--change', '--dir', 'D'], '--change', '--dir'],
      [['export', '--dir', '-l', '5'], '--dir', '-l'],
      [['export', '--dir', '--limit=5'], '--dir', '--limit'],
    ];
    for (const [argv, option, next] of cases)
      expect(await cdata(argv)).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: ${option} has no value: the option after it, ${next}, was taken as its value\nhint: Give ${option} a value of its own (an empty variable leaves it none).\n`,
        sleeps: [],
      });
  });

  it('the root lists its commands before its options', async () => {
    const { headings } = sections((await cdata(['--help'])).stdout);
    expect(headings).toEqual(['Usage', 'Commands', 'Options', 'Examples', 'Environment', 'Exit codes']);
  });

  it("the root's examples at 80 columns (not a terminal): one whole command a line, ready to copy", async () => {
    const lines = (await cdata(['--help'])).stdout.split('\n');
    const from = lines.indexOf('Examples:') + 1;
    expect(lines.slice(from, lines.indexOf('', from))).toEqual([
      '  cdata --sandbox tenders --tier RECOMMENDED   # demo data, no account needed',
      '  echo "$KEY" | cdata auth login --base-url https://api.example.com',
      `  cdata obligations --json | jq '.[] | select(.status == "OPEN")'`,
      '  cdata export --dir /srv/exports',
    ]);
  });

  it('examples too long for the width break between words with ` \\`: copied whole, each is still one command', async () => {
    const examples = (text: string) => {
      const lines = text.split('\n');
      const from = lines.indexOf('Examples:') + 1;
      return lines.slice(from, lines.indexOf('', from));
    };
    for (const argv of [['--help'], ['auth', 'login', '--help'], ['export', '--help']]) {
      const wide = examples((await cdata(argv)).stdout);
      const narrow = examples((await cdata(argv, { env: { COLUMNS: '50' } })).stdout);
      expect(narrow.length).toBeGreaterThan(wide.length);
      for (const line of narrow) expect(line.length).toBeLessThanOrEqual(50);
      // The shell joins a line ending in a backslash with the next: the commands as at 80 columns
      // (but the spaces that align a comment).
      const commands = (lines: string[]) =>
        lines
          .join('\n')
          .replace(/ \\\n {4}/g, ' ')
          .split('\n')
          .map((line) => line.replace(/ {2,}#/, ' #'));
      expect(commands(narrow)).toEqual(commands(wide));
      expect(await runProcess('bash', ['-n', '-c', narrow.join('\n')])).toMatchObject({ code: 0, stderr: '' });
    }
    // A comment moves whole to a line of its own: broken inside, its rest would run as a command.
    expect(examples((await cdata(['--help'], { env: { COLUMNS: '50' } })).stdout).slice(0, 2)).toEqual([
      '  cdata --sandbox tenders --tier RECOMMENDED \\',
      '    # demo data, no account needed',
    ]);
  });

  it("an example's words as the shell splits them: an escaped space and a lone quote are kept, never dropped", () => {
    const wrapped = wrapHelp(
      ['Examples:', "  cdata tenders --query 'a b' > my\\ file.txt && grep it's elsewhere --and-more words"].join('\n'),
      40,
    );
    expect(wrapped.split('\n')).toEqual([
      'Examples:',
      "  cdata tenders --query 'a b' > \\",
      "    my\\ file.txt && grep it's \\",
      '    elsewhere --and-more words',
    ]);
  });

  it('an unknown subcommand points at its group, with a suggestion when one is near', async () => {
    expect(await cdata(['auth', 'foo'])).toMatchObject({
      code: 2,
      stderr: "error: unknown command 'foo' for 'cdata auth'\nhint: Run 'cdata auth --help' for usage.\n",
    });
    expect(await cdata(['-p', 'x', 'config', 'sett', 'a'])).toMatchObject({
      code: 2,
      stderr:
        "error: unknown command 'sett' for 'cdata config'\nhint: Did you mean set? Run 'cdata config --help' for usage.\n",
    });
    // A global option's value is not taken for a command.
    expect(await cdata(['-p', 'auth', 'nosuch'])).toMatchObject({
      code: 2,
      stderr: "error: unknown command 'nosuch'\nhint: Run 'cdata --help' for usage.\n",
    });
  });
});

describe("a command's help", () => {
  const ALL = [
    '--profile',
    '--base-url',
    '--output',
    '--json',
    '--fields',
    '--no-header',
    '--bom',
    '--out',
    '--timeout',
    '--retries',
    '--max-wait',
    '--color',
    '--quiet',
    '--debug',
    '--sandbox',
    '--no-pager',
  ];
  it.each([
    [['tenders'], ALL],
    [
      ['export'],
      [
        '--profile',
        '--base-url',
        '--output',
        '--json',
        '--no-header',
        '--bom',
        '--timeout',
        '--retries',
        '--max-wait',
        '--quiet',
        '--debug',
        '--sandbox',
      ],
    ],
    [
      // --sandbox is refused there (its sandbox would end with the command): not offered.
      ['auth', 'login'],
      ['--profile', '--base-url', '--timeout', '--retries', '--max-wait', '--quiet', '--debug'],
    ],
    [
      ['auth', 'status'],
      [
        '--profile',
        '--base-url',
        '--output',
        '--json',
        '--timeout',
        '--retries',
        '--max-wait',
        '--quiet',
        '--debug',
        '--sandbox',
      ],
    ],
    [
      ['auth', 'logout'],
      ['--profile', '--quiet'],
    ],
    [
      ['config', 'get'],
      ['--profile', '--quiet'],
    ],
    [
      ['config', 'list'],
      [
        '--profile',
        '--output',
        '--json',
        '--fields',
        '--no-header',
        '--bom',
        '--out',
        '--color',
        '--quiet',
        '--no-pager',
      ],
    ],
    [['config', 'path'], ['--quiet']],
    [
      ['profile', 'list'],
      ['--output', '--json', '--fields', '--no-header', '--bom', '--out', '--color', '--quiet', '--no-pager'],
    ],
    [['profile', 'use'], ['--quiet']],
    [
      ['webhook', 'check'],
      ['--output', '--json', '--fields', '--no-header', '--bom', '--color', '--quiet', '--no-pager'],
    ],
    [['webhook', 'listen'], ['--quiet']],
    [['sandbox'], ['--quiet']],
  ])('%j lists, of the global options, only those that apply', async (path, global) => {
    const help = (await cdata([...path, '--help'])).stdout;
    expect(sections(help).global).toEqual(global);
    expect(sections(help).headings.slice(-2)).toEqual(['Global Options', 'Examples']);
  });

  it('-o lists the formats of a command that takes only some, and what it prints without -o', async () => {
    const line = async (path: string[]) =>
      (await cdata([...path, '--help'])).stdout.split('\n').find((l) => l.startsWith('  -o, --output'));
    expect(await line(['export'])).toBe(
      '  -o, --output <format>   output format: csv, json, ndjson, tsv (default: csv)',
    );
    expect(await line(['auth', 'status'])).toBe(
      '  -o, --output <format>  output format: json, ndjson (default: lines of text)',
    );
    expect(await line(['tenders'])).toMatch(/output format: table, json, ndjson, csv, tsv \(default:$/);
  });

  it("--no-header names the formats of the command's own that have a header; changes' --query its change objects", async () => {
    const line = async (path: string[], start: string) =>
      (await cdata([...path, '--help'])).stdout.split('\n').find((l) => l.startsWith(start));
    expect(await line(['export'], '  --no-header')).toBe('  --no-header             no header row (csv, tsv)');
    expect(await line(['webhook', 'check'], '  --no-header')).toBe(
      '  --no-header            no header row (table, csv, tsv)',
    );
    expect(await line(['tenders'], '  --no-header')).toMatch(/ no header row \(table, csv, tsv\)$/);
    expect(await line(['changes'], '  --query')).toBe(
      '  --query <expr>         JMESPath expression over the change objects, as -o json',
    );
  });

  it('auth login advertises no key argument, which it refuses', async () => {
    const login = (await cdata(['auth', 'login', '--help'])).stdout;
    expect(login).toMatch(/^Usage: cdata auth login \[options\]\n/);
    expect(login).not.toMatch(/Arguments:|\[key\]/);
    expect((await cdata(['auth', '--help'])).stdout).toMatch(/\n {2}login {2,}Store an API key/);
    const refused = await cdata(['auth', 'login', 'svc_NotAKeyNotAKeyNotAKeyNotAKeyNo']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: cdata does not take the key on the command line/);
  });
});

describe("gh's --json FIELDS", () => {
  it.each([
    [['tenders', '--json', 'ocid,title'], 'ocid,title'],
    [['--json', 'ocid', 'tenders'], 'ocid'],
    [['tenders', '--json=title,closesOn'], 'title,closesOn'],
  ])('%j: exit 2, says to write --json --fields, also as a JSON line; nothing sent', async (argv, fields) => {
    const before = sandbox.current.requests.length;
    const result = await cdata(argv, { env: sandboxEnv(sandbox.current) });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    const [error, hint, json] = result.stderr.split('\n');
    expect(error).toBe('error: --json takes no field list: it is -o json, and fields are chosen with --fields');
    expect(hint).toBe(`hint: Write --json --fields ${fields} (gh's --json FIELDS is cdata's --json --fields FIELDS).`);
    expect(JSON.parse(json!)).toMatchObject({ error: { exitCode: 2 } });
    expect(sandbox.current.requests.length).toBe(before);
  });

  it('what it says works, and a word that is not a field list is left to the parser', async () => {
    const result = await cdata(['tenders', '--json', '--fields', 'ocid,title', '--limit', '1'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(result.code).toBe(0);
    expect(Object.keys((JSON.parse(result.stdout) as object[])[0]!)).toEqual(['ocid', 'title']);
    // `me` takes no argument (a list command takes a KEY since issue 18's record view, and the word would be that).
    expect((await cdata(['me', '--json', 'nonsense'], { env: sandboxEnv(sandbox.current) })).stderr).toMatch(
      /^error: too many arguments for 'me'/,
    );
  });
});

describe.each([80, 120])('at a terminal %i columns wide', (columns) => {
  it('cdata auth: the subcommands come first, every line but the examples fits', async () => {
    const result = await runBinInTerminal(['auth'], { columns });
    expect(result.code).toBe(2);
    const lines = screen(result.stdout).split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Usage: cdata auth [options] <command>',
      '',
      'Store, check and remove API keys.',
      '',
      'Commands:',
      expect.stringMatching(/^ {2}login {2,}Store an API key/),
    ]);
    const at = (heading: string) => lines.indexOf(heading);
    expect([at('Commands:'), at('Options:'), at('Examples:')]).toEqual([4, expect.any(Number), expect.any(Number)]);
    expect(at('Options:')).toBeGreaterThan(at('Commands:') + 3);
    expect(lines.some((line) => /^ {2}logout {2,}Remove a profile's stored key/.test(line))).toBe(true);
    expect(lines).not.toContain('Global Options:');
    // Descriptions wrap to the width, under their column (examples are commands: never cut).
    for (const line of lines.slice(0, at('Examples:'))) expect(line.length).toBeLessThanOrEqual(columns);
  });
});
