// The README's path, run as written: its install line puts `cdata` on the PATH (npm link, into a
// prefix of the test's own), then every command of "Five minutes with cdata" runs in bash with
// only that PATH and a fresh HOME, the crontab line as cron would run it. The two commands that
// run until stopped (the sandbox, the webhook receiver) are started first, on free ports rather
// than the documented 4010 and 8787, and the other commands are pointed at those.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/spawn.js';
import { skipWithout } from '../helpers/tools.js';
import { until } from '../helpers/wait.js';

const root = new URL('../..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** The README's section under this heading, up to the next one. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README has a section "${heading}"`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Its fenced blocks in this language ('' for none), each as its non-empty lines. */
function blocks(text: string, language: 'sh' | ''): string[][] {
  const found: { language: string; lines: string[] }[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (open && line === '```') open = undefined;
    else if (!open && line.startsWith('```')) found.push((open = { language: line.slice(3), lines: [] }));
    else if (open && line.trim() !== '') open.lines.push(line);
  }
  return found.filter((block) => block.language === language).map((block) => block.lines);
}

const home = mkdtempSync(join(tmpdir(), 'cdata-readme-'));
const prefix = join(home, 'npm-prefix');
const running: ChildProcessWithoutNullStreams[] = [];
/** PATH as it is once the install line has run: npm's global bin folder first. */
const path = `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`;
const env = () => ({ PATH: path, HOME: home });

beforeAll(async () => {
  const [install] = blocks(section('Install'), 'sh').filter((lines) =>
    lines.some((line) => line.startsWith('npm link')),
  );
  expect(install).toEqual(['npm link --ignore-scripts']);
  mkdirSync(prefix);
  // npm's global prefix is the test's own; offline: a link fetches nothing.
  const npmEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    npm_config_prefix: prefix,
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  const linked = await runProcess('sh', ['-ec', install!.join('\n')], { env: npmEnv, cwd: root, timeoutMs: 120_000 });
  expect(linked, linked.stderr).toMatchObject({ code: 0, stderr: '' });
}, 120_000);

afterAll(() => {
  for (const child of running) child.kill();
});

describe('the install line', () => {
  it('puts a working cdata on the PATH, and its man page where man looks', async () => {
    expect(await runProcess('sh', ['-c', 'cdata --version'], { env: env() })).toMatchObject({
      code: 0,
      stdout: `${version}\n`,
      stderr: '',
    });
    // man finds pages in PREFIX/share/man for each PREFIX/bin on the PATH.
    expect(realpathSync(join(prefix, 'share', 'man', 'man1', 'cdata.1'))).toBe(
      realpathSync(join(root, 'man', 'cdata.1')),
    );
  });

  it('and the tarball route names the tarball npm run package writes', () => {
    const tarball = blocks(section('Install'), 'sh').find((lines) =>
      lines.some((line) => line.startsWith('npm run package')),
    );
    expect(tarball?.map((line) => line.replace(/\s+#.*$/, ''))).toEqual([
      'npm run package',
      `npm install -g ./cdata-${version}.tgz`,
    ]);
  });
});

/**
 * Starts a block's command that runs until stopped (its `export`s in its env) on a free port
 * instead of the one the README names, and resolves with the URL it prints.
 */
async function leaveRunning(lines: string[]): Promise<string> {
  const exported = lines.flatMap((line) => {
    const match = /^export (\w+)=(\S+)$/.exec(line);
    return match ? [[match[1]!, match[2]!] as const] : [];
  });
  const [command, ...rest] = lines.filter((line) => !line.startsWith('export '));
  expect(rest).toEqual([]);
  const args = command!.split(' ').slice(1);
  const freePort = args.includes('--port')
    ? args.map((arg, i) => (args[i - 1] === '--port' ? '0' : arg))
    : [...args, '--port', '0'];
  const child = spawn('cdata', freePort, { env: { ...env(), ...Object.fromEntries(exported) } });
  running.push(child);
  let said = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  const url = () => /http:\/\/127\.0\.0\.1:\d+/.exec(said)?.[0];
  await until(() => url() !== undefined, `${command} to print its URL`);
  return url()!;
}

describe.skipIf(skipWithout('jq'))('five minutes with cdata', () => {
  it('runs as written: sandbox, login, tenders, jq, a cron export, webhooks', async () => {
    const text = section('Five minutes with cdata');
    const sh = blocks(text, 'sh');
    const isRunning = (lines: string[]) => lines.some((line) => /^cdata (sandbox|webhook listen)\b/.test(line));
    const [sandboxBlock, listenBlock] = sh.filter(isRunning);
    expect(sandboxBlock).toEqual(['cdata sandbox']);
    const sandbox = await leaveRunning(sandboxBlock!);
    const receiver = await leaveRunning(listenBlock!);

    const here = (line: string) =>
      line.replaceAll('http://127.0.0.1:4010', sandbox).replaceAll('http://127.0.0.1:8787', receiver);
    const script = sh
      .filter((lines) => !isRunning(lines))
      .flat()
      .map(here);
    expect(script.join('\n')).not.toMatch(/:4010|:8787/);
    const ran = await runProcess('bash', ['-c', ['set -euo pipefail', ...script].join('\n')], {
      env: env(),
      timeoutMs: 60_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(
      'Logged in to Mthembu & Van Wyk Construction (Pty) Ltd as Sandbox: all scopes (profile default).',
    );
    // `cdata tenders OCID` in a pipe: the one record, as TSV.
    expect(ran.stdout).toMatch(
      /^ocid\ttitle\tbuyer\t.*\nocds-9t57fa-140905\tInstallation of high-mast lighting, Mbombela CBD\t/m,
    );
    expect(ran.stdout).toMatch(/^\d{4}-\d{2}-\d{2}\tInstallation of high-mast lighting, Mbombela CBD$/m);
    for (const list of ['companies', 'documents', 'obligations', 'persons', 'sites', 'tenders', 'agents', 'workspaces'])
      expect(ran.stdout).toMatch(new RegExp(`^${list}\tok\t\\d+$`, 'm'));
    expect(ran.stdout).toMatch(/^204\tNo Content\t\t\d+$/m);
    expect(ran.stderr).toContain('all 5 checks passed');

    // The crontab lines: its PATH plus the folders of cdata and node, as the README says; cron
    // runs the command with sh, and mails whatever it prints: a good run prints nothing.
    const [cron] = blocks(text, '');
    const [pathLine, job] = cron!;
    const cronPath = /^PATH=(\S+)$/.exec(pathLine!)![1]!;
    const command = job!.split(' ').slice(5).join(' ');
    const folders = [join(prefix, 'bin'), dirname(process.execPath), cronPath].join(':');
    expect(await runProcess('sh', ['-c', command], { env: { HOME: home, PATH: folders } })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
  }, 90_000);
});
