// A real install: `npm pack`, the tarball installed into an empty prefix with no network, and
// the installed `cdata` run from there, its man page where `man` looks. The package ships only
// what it needs and has no runtime dependencies (the stack is bundled into dist/ by esbuild).
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runProcess } from '../helpers/spawn.js';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; dependencies?: object; files: string[] };

it('packs only what it needs, installs offline into an empty prefix, and runs', async () => {
  expect(pkg.dependencies ?? {}).toEqual({});
  const work = mkdtempSync(join(tmpdir(), 'cdata-pack-'));
  const env = { PATH: process.env.PATH ?? '', HOME: work, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false' };

  // scripts/pack.mjs, as a release would; --no-build: npm test has built dist/ already, and a
  // rebuild here would pull it from under the other test files running at the same time.
  const packed = await runProcess(process.execPath, [join(root, 'scripts/pack.mjs'), '--no-build', work], { env, timeoutMs: 120_000, cwd: root });
  expect(packed.code).toBe(0);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const tops = [...new Set(info!.files.map((f) => f.path.split('/')[0]))].sort();
  expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'completions', 'dist', 'docs', 'man', 'package.json']);
  expect(info!.files.map((f) => f.path)).toContain('dist/THIRD_PARTY_LICENSES.txt');

  const prefix = join(work, 'prefix');
  const installed = await runProcess('npm', ['install', '--global', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, join(work, info!.filename)], {
    env,
    timeoutMs: 120_000,
  });
  expect(installed.code).toBe(0);
  // No install script is left for npm to warn about (prepare builds from src/, which is not shipped).
  expect(installed.stderr).not.toMatch(/warn/i);
  const manifest = JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', 'cdata', 'package.json'), 'utf8')) as Record<string, unknown>;
  expect(Object.keys(manifest).sort()).toEqual(['bin', 'description', 'engines', 'files', 'license', 'man', 'name', 'type', 'version']);
  // npm links the page into the prefix's share/man, which man finds from the PATH entry prefix/bin.
  const page = join(prefix, 'share', 'man', 'man1', 'cdata.1');
  expect(realpathSync(page)).toBe(join(realpathSync(prefix), 'lib', 'node_modules', 'cdata', 'man', 'cdata.1'));
  expect(readFileSync(page, 'utf8')).toBe(readFileSync(join(root, 'man', 'cdata.1'), 'utf8'));

  const cdata = join(prefix, 'bin', 'cdata');
  const clean = { PATH: process.env.PATH ?? '', HOME: work, CDATA_CONFIG_DIR: join(work, 'config') };
  expect(await runProcess(cdata, ['--version'], { env: clean })).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  const agents = await runProcess(cdata, ['--sandbox', 'agents', '-o', 'json'], { env: clean });
  expect(agents.code).toBe(0);
  expect((JSON.parse(agents.stdout) as { name: string }[]).map((a) => a.name)).toContain('tender-scout');
  // The installed package resolves nothing outside itself: no node_modules were installed.
  const listing = await runProcess('ls', [join(prefix, 'lib', 'node_modules', 'cdata')], { env: clean });
  expect(listing.stdout.split('\n').filter(Boolean).sort()).toEqual(['LICENSE', 'README.md', 'bin', 'completions', 'dist', 'docs', 'man', 'package.json']);
}, 240_000);

it('ships the licence text of every package bundled into dist/, found under any of its usual names', () => {
  const notices = readFileSync(join(root, 'dist', 'THIRD_PARTY_LICENSES.txt'), 'utf8');
  for (const name of ['commander', 'undici', 'chalk', 'cli-table3', 'csv-stringify', 'conf']) expect(notices).toMatch(new RegExp(`^${name} \\d+\\.\\d+\\.\\d+ \\(`, 'm'));
  // emoji-regex (through cli-table3) names its file LICENSE-MIT.txt.
  expect(notices).toMatch(/^emoji-regex [\d.]+ \(MIT\)\n-{72}\nCopyright Mathias Bynens/m);
  expect(notices).not.toContain('ships no licence file');
});
