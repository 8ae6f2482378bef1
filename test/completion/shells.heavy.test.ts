// Completions in the real shells (bash, zsh and fish: installed by .ci/run), with `cdata` on
// PATH running the built binary, so profile names come from a real `cdata __complete profiles`. A shell
// that is not installed has its cases skipped (the run says so once), except under CI, where the
// run fails instead (test/helpers/tools.ts).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHELLS } from '../../src/completion/index.js';
import { run } from '../helpers/run.js';
import { BASH_COMPLETION, skipWithout } from '../helpers/tools.js';
import { installCdata, runProcess } from '../helpers/spawn.js';

const script = (shell: string) => new URL(`../../completions/cdata.${shell}`, import.meta.url).pathname;

/** A PATH with `cdata` (the built binary) and a config holding three profiles. */
function environment(): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'cdata-completion-'));
  mkdirSync(join(home, 'bin'));
  installCdata(join(home, 'bin'));
  mkdirSync(join(home, 'config'));
  writeFileSync(
    join(home, 'config', 'config.json'),
    JSON.stringify({ defaultProfile: 'prod', profiles: { prod: {}, staging: {}, 'client-a': {} } }),
  );
  return {
    PATH: `${join(home, 'bin')}:${process.env.PATH}`,
    HOME: home,
    CDATA_CONFIG_DIR: join(home, 'config'),
    TERM: 'dumb',
  };
}

describe("the README's install lines", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /```sh\n# bash \(needs[\s\S]*?```/.exec(readme)![0];
  const INSTALLED: Record<string, string> = {
    bash: '.local/share/bash-completion/completions/cdata',
    zsh: '.zfunc/_cdata',
    fish: '.config/fish/completions/cdata.fish',
  };
  /** Runs the block's lines for this shell in a fresh home; returns its env. */
  const install = async (shell: string) => {
    const installed = INSTALLED[shell]!;
    const lines = block.split('\n').filter((line) => line.startsWith('mkdir') || line.startsWith('cdata completion'));
    const mine = lines.filter(
      (line) => line.includes(installed.split('/')[0]!) || line.includes(`completion ${shell}`),
    );
    const env = environment();
    const result = await runProcess('sh', ['-ec', mine.join('\n')], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return env;
  };

  it.each(Object.keys(INSTALLED))('%s: work as written in a fresh home, folders and all', async (shell) => {
    const env = await install(shell);
    expect(readFileSync(join(env.HOME!, INSTALLED[shell]!), 'utf8')).toBe(readFileSync(script(shell), 'utf8'));
  });

  it.skipIf(skipWithout('bash-completion'))(
    "bash: bash-completion's loader finds the installed file, as a new shell does",
    async () => {
      const env = await install('bash');
      const loaded = await runProcess(
        'bash',
        ['--norc', '--noprofile', '-c', `source ${BASH_COMPLETION}; _completion_loader cdata; complete -p cdata`],
        { env },
      );
      expect(loaded).toMatchObject({ code: 0, stdout: 'complete -F _cdata cdata\n', stderr: '' });
    },
  );
});

describe('the committed scripts', () => {
  it.each(Object.keys(SHELLS))('completions/cdata.%s is exactly what `cdata completion` prints', async (shell) => {
    const printed = await run(['completion', shell]);
    expect(printed.code).toBe(0);
    const committed = readFileSync(script(shell), 'utf8');
    // When this fails: run `npm run completions` and commit completions/.
    expect(committed, `completions/cdata.${shell} is stale: run npm run completions`).toBe(printed.stdout);
  });

  it('an unknown shell is a usage error', async () => {
    expect(await run(['completion', 'powershell'])).toMatchObject({
      code: 2,
      stderr: "error: no completion for 'powershell': choose bash, zsh or fish\n",
    });
  });
});

/**
 * The cases of one shell, completed by one run of it: each case's words (or line) give its own
 * files of output and errors, read back by the case's test. A fresh shell (and home) per case
 * cost ~2 s of CPU for the 58 cases, and the completion functions keep nothing between calls.
 */
function batched<T>(shell: 'bash' | 'fish', cases: readonly T[], command: (c: T, out: string, err: string) => string) {
  let ran: Promise<string> | undefined;
  return async (index: number) => {
    ran ??= (async () => {
      const env = environment();
      const dir = mkdtempSync(join(tmpdir(), `cdata-${shell}-`));
      const lines = cases.map((c, i) => command(c, join(dir, `${i}.out`), join(dir, `${i}.err`)));
      const body = `source '${script(shell)}'\n${lines.join('\n')}`;
      const args = shell === 'bash' ? ['--norc', '--noprofile', '-c', body] : ['--no-config', '-c', body];
      // All the cases in one process: more time than one case's, should the machine be busy.
      const result = await runProcess(shell, args, { env, timeoutMs: BATCH_MS });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return dir;
    })();
    const dir = await ran;
    return {
      out: readFileSync(join(dir, `${index}.out`), 'utf8'),
      err: readFileSync(join(dir, `${index}.err`), 'utf8'),
    };
  };
}

/** A batch's limit, and the limit of each case's test (the first one waits for the batch). */
const BATCH_MS = 60_000;

/** Names a shell must keep whole and never expand again: spaces, a glob character. */
const FILES = mkdtempSync(join(tmpdir(), 'cdata-files-'));
for (const name of ['odd name.txt', 'a*b.csv', 'aXb.csv']) writeFileSync(join(FILES, name), '');
mkdirSync(join(FILES, 'dir with space'));

const BASH_CASES: [string[], string[]][] = [
  [['cdata', 'ten'], ['tenders']],
  // Options that cannot go together: once one is given, the other is not offered.
  [['cdata', 'tenders', '--und'], ['--undecided']],
  [['cdata', 'tenders', '--decided', '--und'], []],
  [['cdata', 'export', '--all-profiles', '--profiles'], []],
  [['cdata', 'webhook', 'ping', 'http://h/', '--secret-env', 'S', '--secret-f'], []],
  // Global options too, wherever the first was given.
  [['cdata', '--sandbox', 'tenders', '--base'], []],
  [['cdata', 'tenders', '--base-url', 'https://h', '--sand'], []],
  [['cdata', 'tenders', '--sand'], ['--sandbox']],
  [
    ['cdata', 'tenders', '--tier', ''],
    ['RECOMMENDED', 'STRETCH', 'WORTH_A_LOOK'],
  ],
  [
    ['cdata', 'tenders', '--tier', '=', ''],
    ['RECOMMENDED', 'STRETCH', 'WORTH_A_LOOK'],
  ],
  [['cdata', '-o', 'json', 'tenders', '--tier', 'W'], ['WORTH_A_LOOK']],
  [
    ['cdata', 'tenders', '--fields', 'ocid,ti'],
    ['ocid,tier', 'ocid,title'],
  ],
  [['cdata', 'people', '-f', 'full'], ['fullName']],
  // Comma-separated lists of values and of profiles: each name after a comma completes too.
  [['cdata', 'changes', '--change', 'added,re'], ['added,removed']],
  // What is chosen already is not offered again.
  [
    ['cdata', 'changes', '--change', 'added,'],
    ['added,changed', 'added,removed'],
  ],
  [['cdata', 'export', '--profiles', 'prod,st'], ['prod,staging']],
  [
    ['cdata', 'pe'],
    ['people', 'persons'],
  ],
  [
    ['cdata', 'export', ''],
    ['agents', 'companies', 'documents', 'obligations', 'persons', 'sites', 'tenders', 'workspaces'],
  ],
  [['cdata', 'export', 'tenders', 'ob'], ['obligations']],
  // help: a command, then after a group's name its subcommands, then nothing more.
  [['cdata', 'help', 'au'], ['auth']],
  [
    ['cdata', 'help', 'auth', ''],
    ['login', 'logout', 'status'],
  ],
  [['cdata', 'help', 'auth', 'login', ''], []],
  [['cdata', 'help', 'tenders', ''], []],
  [
    ['cdata', '--profile', ''],
    ['client-a', 'prod', 'staging'],
  ],
  [['cdata', 'profile', 'use', 'st'], ['staging']],
  [
    ['cdata', 'auth', ''],
    ['login', 'logout', 'status'],
  ],
  [
    ['cdata', 'config', 'set', ''],
    ['base-url', 'key-command', 'output', 'pager', 'timeout'],
  ],
  [
    ['cdata', 'config', 'set', 'output', ''],
    ['csv', 'json', 'ndjson', 'table', 'tsv'],
  ],
  [['cdata', 'config', 'set', 'output', 'nd'], ['ndjson']],
  [['cdata', 'config', 'set', 'timeout', ''], []],
  [
    ['cdata', '-o', ''],
    ['csv', 'json', 'ndjson', 'table', 'tsv'],
  ],
  [
    ['cdata', 'completion', ''],
    ['bash', 'fish', 'zsh'],
  ],
  // listen calls no API and reads no profile: -p is not offered there (its help lists -q alone).
  [
    ['cdata', 'webhook', 'listen', '--p'],
    ['--path', '--port'],
  ],
  [['cdata', 'tenders', '--li'], ['--limit']],
  // --query takes a value (an expression: nothing to offer, even to what looks like an option),
  // and the word after that value is an option again.
  [
    ['cdata', 'tenders', '--q'],
    ['--query', '--quiet'],
  ],
  [['cdata', 'tenders', '--query', ''], []],
  [['cdata', 'tenders', '--query', '--li'], []],
  [['cdata', 'tenders', '--query', '[0]', '--li'], ['--limit']],
  // export writes no table and refuses --out and --fields: none of them is offered there.
  [
    ['cdata', 'export', '-o', ''],
    ['csv', 'json', 'ndjson', 'tsv'],
  ],
  [
    ['cdata', 'export', '--output', '=', ''],
    ['csv', 'json', 'ndjson', 'tsv'],
  ],
  [['cdata', 'export', '--o'], ['--output']],
  // --output=json is one word to cdata, -o=json is -o with the value '=json' (as getopt reads it): not offered.
  [['cdata', 'tenders', '-o', '=', 'js'], []],
  [['cdata', 'export', '--f'], []],
  [
    ['cdata', 'tenders', '--o'],
    ['--out', '--output'],
  ],
  [['cdata', 'auth', 'status', '--o'], ['--output']],
  // File and folder names whole, spaces and all, and never expanded as a pattern again. Called
  // here outside readline, compopt fails as it does in bash 3.2 (macOS), which has none: the
  // script then quotes each name itself, as readline's -o filenames does in bash 4 and later.
  [['cdata', 'tenders', '--out', `${FILES}/odd`], [`${FILES}/odd\\ name.txt`]],
  [
    ['cdata', 'tenders', '--out', `${FILES}/a`],
    [`${FILES}/aXb.csv`, `${FILES}/a\\*b.csv`],
  ],
  [['cdata', 'export', '--dir', '=', `${FILES}/di`], [`${FILES}/dir\\ with\\ space`]],
  // After --, every word is an argument, as cdata reads it: no option is offered.
  [['cdata', 'tenders', '--', '--ti'], []],
  [
    ['cdata', 'export', '--', '-p', ''],
    ['agents', 'companies', 'documents', 'obligations', 'persons', 'sites', 'tenders', 'workspaces'],
  ],
  // What a command refuses or ignores is not offered (as its help leaves it out); help is offered.
  [['cdata', 'profile', 'use', '--sa'], []],
  [['cdata', 'auth', 'login', '--sa'], []],
  [['cdata', 'tenders', '--sa'], ['--sandbox']],
  [['cdata', 'tenders', '--he'], ['--help']],
  [['cdata', '--vers'], ['--version']],
];

describe.skipIf(skipWithout('bash'))('bash', () => {
  const completed = batched('bash', BASH_CASES, ([words], out, err) => {
    const line = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
    return `COMPREPLY=(); COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _cdata 2>'${err}'; printf '%s\\n' "\${COMPREPLY[@]}" >'${out}'`;
  });

  it('registers the function', async () => {
    const result = await runProcess('bash', ['--norc', '-c', `source '${script('bash')}'; complete -p cdata`]);
    expect(result.stdout).toBe('complete -F _cdata cdata\n');
  });

  it.each(BASH_CASES.map((c, i) => [...c, i] as const))(
    '%j offers %j',
    async (_words, expected, index) => {
      const { out, err } = await completed(index);
      expect(err).toBe('');
      expect(out.split('\n').filter(Boolean).sort()).toEqual(expected);
    },
    BATCH_MS,
  );
});

/**
 * What zsh is typed, in one interactive session (zpty): each line and TAB (twice for a listing),
 * then ^T, which prints the line buffer. A session of its own for each line cost ~0.5 s of CPU
 * apiece (zsh, compinit, the pseudo-terminal); the line is cleared (^U) between them.
 */
const ZSH_CASES: [string, 'buffer' | 'listing'][] = [
  ['cdata ten', 'buffer'],
  ['cdata tenders --tier ', 'listing'],
  ['cdata tenders --tier WO', 'buffer'],
  ['cdata --profile sta', 'buffer'],
  ['cdata people --fields fullName,ema', 'buffer'],
  ['cdata changes --change added,rem', 'buffer'],
  ['cdata export --profiles prod,sta', 'buffer'],
  ['cdata auth st', 'buffer'],
  ['cdata export obl', 'buffer'],
  ['cdata config set output nd', 'buffer'],
  ['cdata config set out', 'buffer'],
  ['cdata export -o ', 'listing'],
  ['cdata export -o ts', 'buffer'],
  ['cdata export --ou', 'buffer'],
  ['cdata tenders -o ta', 'buffer'],
  ['cdata help auth st', 'buffer'],
  ['cdata help web', 'buffer'],
  ['cdata -f ocid tenders --tier WO', 'buffer'],
  ['cdata --vers', 'buffer'],
  ['cdata tenders --decided --und', 'buffer'],
  ['cdata export --profiles a --all-p', 'buffer'],
  ['cdata tenders --und', 'buffer'],
  ['cdata tenders --tie', 'buffer'],
  ['cdata webhook ping --secret-f', 'buffer'],
  ['cdata tenders --sandbox --base', 'buffer'],
  ['cdata tenders --base-url https://h --sand', 'buffer'],
];

describe.skipIf(skipWithout('zsh'))('zsh', { timeout: BATCH_MS }, () => {
  let ran: Promise<string> | undefined;
  /**
   * The whole session, once. Before each line, ^U clears the buffer and ^Y prints `[[i]]`; ^T
   * prints `<<i:BUFFER:i>>`. Both come from widgets, not from the typed text the terminal echoes,
   * so a case's output is what lies between its own two markers: a listing, then the buffer.
   * None of the three keys starts a longer binding in zsh's emacs keymap (^X does: zle would
   * wait KEYTIMEOUT after it for a second key). A marker that does not come is the run's error.
   */
  const typed = () =>
    (ran ??= (async () => {
      const folder = mkdtempSync(join(tmpdir(), 'cdata-zsh-'));
      writeFileSync(join(folder, '_cdata'), readFileSync(script('zsh')));
      writeFileSync(
        join(folder, 'setup.zsh'),
        `PS1='>'
fpath=(${folder} $fpath)
autoload -Uz compinit; compinit -u -d ${folder}/.zcompdump
zstyle ':completion:*' menu no
LISTMAX=1000
integer n=0
mark() { print -r -- "[[$n]]" }
show() { print -r -- "<<$n:$BUFFER:$n>>"; (( n++ )) }
zle -N mark; zle -N show; bindkey '^Y' mark; bindkey '^T' show
print -r -- '<READY>'
`,
      );
      // No fixed sleeps: each marker is waited for, the machine may be busy with other tests.
      const cases = ZSH_CASES.map(
        ([line, show], i) => `zpty -n -w z $'\\C-u\\C-y'
upto '[[${i}]]'
zpty -n -w z ${JSON.stringify(line)}$'\\t'${show === 'listing' ? "$'\\t'" : ''}$'\\C-t'
upto ':${i}>>'
print -r -- "$out" > ${folder}/${i}.out`,
      );
      const harness = `
upto() {
  out=''
  integer deadline=$(( SECONDS + 15 ))
  while [[ $out != *"$1"* ]]; do
    if (( SECONDS >= deadline )); then print -u2 -r -- "no $1 within 15 s; the terminal showed: $out"; exit 1; fi
    if zpty -r -t z chunk; then out+=$chunk; else sleep 0.05; fi
  done
}
zmodload zsh/zpty
zpty -b z zsh -f -i
zpty -w z "source ${folder}/setup.zsh"
upto '<READY>'
${cases.join('\n')}
zpty -d z`;
      const result = await runProcess('zsh', ['-f', '-c', harness], { env: environment(), timeoutMs: BATCH_MS });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return folder;
    })());

  /** What the terminal showed for `line`: its listing, or the buffer after the TAB. */
  const session = async (line: string, show: 'buffer' | 'listing') => {
    const i = ZSH_CASES.findIndex(([typedLine, shown]) => typedLine === line && shown === show);
    expect(i, `${line} is one of ZSH_CASES`).toBeGreaterThanOrEqual(0);
    // eslint-disable-next-line no-control-regex
    const text = readFileSync(join(await typed(), `${i}.out`), 'utf8')
      .replace(/\r/g, '')
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    const [, buffer] = new RegExp(`<<${i}:(.*):${i}>>`).exec(text) ?? [];
    return show === 'buffer' ? buffer : text;
  };

  it('parses the script', async () => {
    expect(await runProcess('zsh', ['-n', script('zsh')])).toMatchObject({ code: 0, stderr: '' });
  });

  it("cdata help web<TAB> completes to webhook; help auth st<TAB> to auth's status", async () => {
    expect(await session('cdata help web', 'buffer')).toBe('cdata help webhook ');
    expect(await session('cdata help auth st', 'buffer')).toBe('cdata help auth status ');
  });

  it('a global -f VALUE before the command leaves the command its own word', async () => {
    expect(await session('cdata -f ocid tenders --tier WO', 'buffer')).toBe(
      'cdata -f ocid tenders --tier WORTH_A_LOOK ',
    );
  });

  it('an option that cannot go with one given is not offered', async () => {
    expect(await session('cdata tenders --decided --und', 'buffer')).toBe('cdata tenders --decided --und');
    expect(await session('cdata export --profiles a --all-p', 'buffer')).toBe('cdata export --profiles a --all-p');
    // --sandbox and --base-url, each the other's contradiction, at the command (before it, zsh
    // completes the command's own options apart: docs/completions.md).
    expect(await session('cdata tenders --sandbox --base', 'buffer')).toBe('cdata tenders --sandbox --base');
    expect(await session('cdata tenders --base-url https://h --sand', 'buffer')).toBe(
      'cdata tenders --base-url https://h --sand',
    );
  });

  it("an option's prefix completes at the first TAB where a key or URL may come instead", async () => {
    expect(await session('cdata tenders --und', 'buffer')).toBe('cdata tenders --undecided ');
    expect(await session('cdata tenders --tie', 'buffer')).toBe('cdata tenders --tier=');
    expect(await session('cdata webhook ping --secret-f', 'buffer')).toBe('cdata webhook ping --secret-file=');
  });

  it('--version at the top', async () => {
    expect(await session('cdata --vers', 'buffer')).toBe('cdata --version ');
  });

  it('cdata ten<TAB> completes to tenders', async () => {
    expect(await session('cdata ten', 'buffer')).toBe('cdata tenders ');
  });

  it('cdata tenders --tier <TAB> offers the three tiers; WO<TAB> completes', async () => {
    const listing = await session('cdata tenders --tier ', 'listing');
    for (const tier of ['RECOMMENDED', 'WORTH_A_LOOK', 'STRETCH']) expect(listing).toContain(tier);
    expect(await session('cdata tenders --tier WO', 'buffer')).toBe('cdata tenders --tier WORTH_A_LOOK ');
  });

  it('completes profile names from the config, field lists after a comma, and subcommands', async () => {
    expect(await session('cdata --profile sta', 'buffer')).toBe('cdata --profile staging ');
    // _sequence appends the separator as an auto-removable suffix: typing a space drops it.
    expect(await session('cdata people --fields fullName,ema', 'buffer')).toBe('cdata people --fields fullName,email,');
    expect(await session('cdata changes --change added,rem', 'buffer')).toBe('cdata changes --change added,removed,');
    expect(await session('cdata export --profiles prod,sta', 'buffer')).toBe('cdata export --profiles prod,staging,');
    expect(await session('cdata auth st', 'buffer')).toBe('cdata auth status ');
    expect(await session('cdata export obl', 'buffer')).toBe('cdata export obligations ');
  });

  it('config set output <TAB> offers the formats', async () => {
    expect(await session('cdata config set output nd', 'buffer')).toBe('cdata config set output ndjson ');
    expect(await session('cdata config set out', 'buffer')).toBe('cdata config set output ');
  });

  it('export -o <TAB> offers the export formats, no table; --o<TAB> is --output alone', async () => {
    const listing = await session('cdata export -o ', 'listing');
    for (const format of ['csv', 'json', 'ndjson', 'tsv']) expect(listing).toContain(format);
    expect(listing).not.toContain('table');
    expect(await session('cdata export -o ts', 'buffer')).toBe('cdata export -o tsv ');
    expect(await session('cdata export --ou', 'buffer')).toBe('cdata export --output=');
    expect(await session('cdata tenders -o ta', 'buffer')).toBe('cdata tenders -o table ');
  });
});

const FISH_CASES: [string, string[]][] = [
  ['cdata tenders --decided --und', []],
  ['cdata export --all-profiles --profiles', []],
  ['cdata webhook ping http://h/ --secret-file f --secret-e', []],
  ['cdata --sandbox tenders --base', []],
  ['cdata tenders --base-url https://h --sand', []],
  ['cdata ten', ['tenders']],
  ['cdata tenders --tier ', ['RECOMMENDED', 'STRETCH', 'WORTH_A_LOOK']],
  ['cdata -o json tenders --tier W', ['WORTH_A_LOOK']],
  ['cdata tenders --fields ocid,ti', ['ocid,tier', 'ocid,title']],
  ['cdata changes --change added,re', ['added,removed']],
  ['cdata export --profiles prod,st', ['prod,staging']],
  ['cdata pe', ['people', 'persons']],
  ['cdata export ', ['agents', 'companies', 'documents', 'obligations', 'persons', 'sites', 'tenders', 'workspaces']],
  ['cdata --profile ', ['client-a', 'prod', 'staging']],
  ['cdata profile remove ', ['client-a', 'prod', 'staging']],
  ['cdata auth ', ['login', 'logout', 'status']],
  ['cdata config get ', ['base-url', 'key-command', 'output', 'pager', 'timeout']],
  ['cdata config set ', ['base-url', 'key-command', 'output', 'pager', 'timeout']],
  ['cdata config set output ', ['csv', 'json', 'ndjson', 'table', 'tsv']],
  ['cdata config set timeout ', []],
  ['cdata config set output json ', []],
  ['cdata config set timeout 30 ', []],
  ['cdata config set output -p prod ', ['csv', 'json', 'ndjson', 'table', 'tsv']],
  ['cdata config get output ', []],
  [
    'cdata export tenders ',
    ['agents', 'companies', 'documents', 'obligations', 'persons', 'sites', 'tenders', 'workspaces'],
  ],
  ['cdata webhook listen --p', ['--path', '--port']],
  ['cdata changes --change added,', ['added,changed', 'added,removed']],
  ['cdata tenders --fields=ocid,ti', ['--fields=ocid,tier', '--fields=ocid,title']],
  // Short options bundled: -qp takes the next word as the profile.
  ['cdata -qp staging tenders --tier ', ['RECOMMENDED', 'STRETCH', 'WORTH_A_LOOK']],
  ['cdata -pstaging tenders --tier W', ['WORTH_A_LOOK']],
  ['cdata profile use --sa', []],
  ['cdata --vers', ['--version']],
  ['cdata export -o ', ['csv', 'json', 'ndjson', 'tsv']],
  ['cdata export --o', ['--output']],
  ['cdata export --f', []],
  ['cdata tenders -o ', ['csv', 'json', 'ndjson', 'table', 'tsv']],
  ['cdata tenders --o', ['--out', '--output']],
  ['cdata auth status --o', ['--output']],
  ['cdata tenders --q', ['--query', '--quiet']],
  ['cdata tenders --query ', []],
  ['cdata tenders --query @ --li', ['--limit']],
  ['cdata help auth ', ['login', 'logout', 'status']],
  ['cdata help config u', ['unset']],
  ['cdata help auth login ', []],
];

describe.skipIf(skipWithout('fish'))('fish', () => {
  const completed = batched('fish', FISH_CASES, ([line], out, err) => `complete -C '${line}' >'${out}' 2>'${err}'`);

  it('parses and loads the script without a complaint', async () => {
    expect(await runProcess('fish', ['--no-execute', script('fish')])).toMatchObject({ code: 0, stderr: '' });
    expect(await runProcess('fish', ['--no-config', '-c', `source '${script('fish')}'`])).toMatchObject({
      code: 0,
      stderr: '',
    });
  });

  it('with cdata not on PATH (uninstalled, or PATH not set up yet): profile names are nothing, and said nowhere', async () => {
    const body = `source '${script('fish')}'; complete -C 'cdata --profile '; complete -C 'cdata export --profiles a,'`;
    const result = await runProcess('fish', ['--no-config', '-c', body], {
      env: { PATH: '/usr/bin:/bin', HOME: mkdtempSync(join(tmpdir(), 'cdata-fish-home-')), TERM: 'dumb' },
    });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it.each(FISH_CASES.map((c, i) => [...c, i] as const))(
    '%s offers %j',
    async (_line, expected, index) => {
      const { out, err } = await completed(index);
      expect(err).toBe('');
      expect(
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('\t')[0])
          .sort(),
      ).toEqual(expected);
    },
    BATCH_MS,
  );
});
