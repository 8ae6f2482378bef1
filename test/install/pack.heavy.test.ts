// A real install: `npm pack`, the tarball installed into an empty prefix with no network, and
// the installed `cdata` run from there, its man page where `man` looks. The package ships only
// what it needs and has no runtime dependencies (the stack is bundled into dist/ by esbuild).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { runProcess } from '../helpers/spawn.js';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: object;
  files: string[];
};

let work: string;
let env: Record<string, string>;
let info: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cdata-pack-'));
  env = {
    PATH: process.env.PATH ?? '',
    HOME: work,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  // scripts/pack.mjs, as a release would; --no-build: npm test has built dist/ already, and a
  // rebuild here would pull it from under the other test files running at the same time.
  const packed = await runProcess(process.execPath, [join(root, 'scripts/pack.mjs'), '--no-build', '--json', work], {
    env,
    timeoutMs: 120_000,
    cwd: root,
  });
  expect(packed.code).toBe(0);
  [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [typeof info];
}, 150_000);

it('packs only what it needs, installs offline into an empty prefix, and runs', async () => {
  expect(pkg.dependencies ?? {}).toEqual({});
  const tops = [...new Set(info!.files.map((f) => f.path.split('/')[0]))].sort();
  expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'completions', 'dist', 'docs', 'man', 'package.json']);
  expect(info!.files.map((f) => f.path)).toContain('dist/THIRD_PARTY_LICENSES.txt');
  // What bin/cdata.js runs before the program: the start-up settings travel with it.
  expect(info!.files.map((f) => f.path)).toContain('bin/start-up.cjs');

  const prefix = join(work, 'prefix');
  const installed = await runProcess(
    'npm',
    ['install', '--global', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, join(work, info!.filename)],
    {
      env,
      timeoutMs: 120_000,
    },
  );
  expect(installed.code).toBe(0);
  // No install script is left for npm to warn about (prepare builds from src/, which is not shipped).
  expect(installed.stderr).not.toMatch(/warn/i);
  const manifest = JSON.parse(
    readFileSync(join(prefix, 'lib', 'node_modules', 'cdata', 'package.json'), 'utf8'),
  ) as Record<string, unknown>;
  expect(Object.keys(manifest).sort()).toEqual([
    'bin',
    'description',
    'engines',
    'exports',
    'files',
    'license',
    'man',
    'name',
    'type',
    'version',
  ]);
  // npm links the page into the prefix's share/man, which man finds from the PATH entry prefix/bin.
  const page = join(prefix, 'share', 'man', 'man1', 'cdata.1');
  expect(realpathSync(page)).toBe(join(realpathSync(prefix), 'lib', 'node_modules', 'cdata', 'man', 'cdata.1'));
  expect(readFileSync(page, 'utf8')).toBe(readFileSync(join(root, 'man', 'cdata.1'), 'utf8'));

  const cdata = join(prefix, 'bin', 'cdata');
  const clean = { PATH: process.env.PATH ?? '', HOME: work, CDATA_CONFIG_DIR: join(work, 'config') };
  expect(await runProcess(cdata, ['--version'], { env: clean })).toMatchObject({
    code: 0,
    stdout: `${pkg.version}\n`,
    stderr: '',
  });
  const agents = await runProcess(cdata, ['--sandbox', 'agents', '-o', 'json'], { env: clean });
  expect(agents.code).toBe(0);
  expect((JSON.parse(agents.stdout) as { name: string }[]).map((a) => a.name)).toContain('tender-scout');
  // The installed package resolves nothing outside itself: no node_modules were installed.
  const listing = await runProcess('ls', [join(prefix, 'lib', 'node_modules', 'cdata')], { env: clean });
  expect(listing.stdout.split('\n').filter(Boolean).sort()).toEqual([
    'LICENSE',
    'README.md',
    'bin',
    'completions',
    'dist',
    'docs',
    'man',
    'package.json',
  ]);
}, 240_000);

it('is a library too: an integrator imports cdata/sandbox from the installed package, typed', async () => {
  // A project of an integrator's: the tarball installed as a dependency, a test of theirs that
  // starts the sandbox, calls it with a demo key, injects a fault and stops it.
  const project = join(work, 'integrator');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  const installed = await runProcess(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(work, info.filename)],
    { env, cwd: project, timeoutMs: 120_000 },
  );
  expect(installed.code).toBe(0);
  writeFileSync(
    join(project, 'check.ts'),
    `import { DEMO_KEYS, demoKey, FAULTS, startSandbox, type Sandbox, type SandboxRequest } from 'cdata/sandbox';

const sandbox: Sandbox = await startSandbox({ faults: (index) => (index === 1 ? FAULTS.unavailable : undefined) });
const get = (path: string) => fetch(\`\${sandbox.url}\${path}\`, { headers: { 'X-API-Key': demoKey('all') } });
const me = (await (await get('/api/v1/me')).json()) as { scopes: string[] };
const faulted = await get('/api/v1/agents');
const seen: SandboxRequest[] = sandbox.requests;
await sandbox.close();
console.log(JSON.stringify({ scopes: me.scopes, faulted: faulted.status, requests: seen.length, keys: DEMO_KEYS.length }));
`,
  );
  // Compiled as an integrator's strict project would be, the declarations checked too, then run.
  const tsc = await runProcess(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--strict',
      '--skipLibCheck',
      'false',
      '--module',
      'nodenext',
      '--target',
      'es2022',
      '--outDir',
      'out',
      '--typeRoots',
      join(root, 'node_modules/@types'),
      '--types',
      'node',
      'check.ts',
    ],
    { env, cwd: project, timeoutMs: 120_000 },
  );
  expect(tsc).toMatchObject({ code: 0, stdout: '' });
  const ran = await runProcess(process.execPath, [join('out', 'check.js')], { env, cwd: project });
  expect(ran).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(ran.stdout)).toEqual({
    scopes: ['graph.read', 'tenders.read', 'workspaces.read'],
    faulted: 503,
    requests: 2,
    keys: 8,
  });
}, 240_000);

it('ships the licence text of every package bundled into dist/, found under any of its usual names', () => {
  const notices = readFileSync(join(root, 'dist', 'THIRD_PARTY_LICENSES.txt'), 'utf8');
  for (const name of ['commander', 'undici', 'chalk', 'cli-table3', 'csv-stringify', 'conf'])
    expect(notices).toMatch(new RegExp(`^${name} \\d+\\.\\d+\\.\\d+ \\(`, 'm'));
  // emoji-regex (through cli-table3) names its file LICENSE-MIT.txt.
  expect(notices).toMatch(/^emoji-regex [\d.]+ \(MIT\)\n-{72}\nCopyright Mathias Bynens/m);
  expect(notices).not.toContain('ships no licence file');
});
