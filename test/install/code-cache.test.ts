// V8's code cache (bin/code-cache.cjs, made at build time by scripts/code-cache.mjs): the built
// program starts from it, and it is never trusted over the source it was made from: an edited
// dist/ file runs as edited, a damaged cache or another Node's is passed over, and nothing is
// written at run time.
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { runProcess } from '../helpers/spawn.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDER = `v8-${process.versions.v8}-${process.arch}`;
const sandbox = useSandbox();
const PRELOAD = fileURLToPath(new URL('./preload/code-cache-use.cjs', import.meta.url));

/** A copy of what an install holds (bin/, dist/, package.json), to change without touching the build. */
function copyOfInstall(): string {
  const copy = mkdtempSync(join(tmpdir(), 'cdata-code-cache-'));
  for (const name of ['bin', 'dist', 'package.json']) cpSync(join(root, name), join(copy, name), { recursive: true });
  return copy;
}

/** What a fresh Node, set up as bin/cdata.js sets it up, did with each file's cache (PRELOAD's line). */
async function cacheUse(install: string, files: string[]): Promise<Record<string, string>> {
  const script = `
    const { CodeCacheLoader, useV8Flags } = require(${JSON.stringify(join(install, 'bin/code-cache.cjs'))});
    useV8Flags();
    const loader = new CodeCacheLoader(${JSON.stringify(join(install, 'dist'))});
    for (const file of ${JSON.stringify(files.map((file) => join(install, 'dist', file)))}) loader.require(file);`;
  const result = await runProcess(process.execPath, ['-r', PRELOAD, '-e', script]);
  expect(result.code).toBe(0);
  return Object.fromEntries(watchedLine(result.stderr).split(' ').map((entry) => entry.split('=')));
}

/** PRELOAD's line: each file compiled through node:vm and what V8 did with its cache. */
function watchedLine(stderr: string): string {
  const line = /^code cache: (.*)$/m.exec(stderr)?.[1];
  expect(line, stderr).toBeDefined();
  return line!;
}

const cdata = (install: string, args: string[], env: Record<string, string>) => runProcess(process.execPath, [join(install, 'bin/cdata.js'), ...args], { env });

it('the build made a cache of the program and of the vendored files the common commands load, and a fresh Node uses each', async () => {
  expect(readdirSync(join(root, 'dist/code-cache'))).toEqual([FOLDER]);
  expect(readdirSync(join(root, 'dist/code-cache', FOLDER)).sort()).toEqual(['cli.cjs.bin', 'csv.cjs.bin', 'undici.cjs.bin']);
  expect(await cacheUse(root, ['cli.cjs', 'vendor/undici.cjs', 'vendor/csv.cjs', 'vendor/table.cjs', 'vendor/jmespath.cjs'])).toEqual({
    'cli.cjs': 'used',
    'vendor/undici.cjs': 'used',
    'vendor/csv.cjs': 'used',
    'vendor/table.cjs': 'none',
    'vendor/jmespath.cjs': 'none',
  });
});

it('bin/cdata.js itself starts from the caches: the program and undici, and csv for a CSV', async () => {
  const watched = async (args: string[]) => {
    const result = await runProcess(process.execPath, ['-r', PRELOAD, join(root, 'bin/cdata.js'), ...args], { env: sandboxEnv(sandbox.current) });
    expect(result.code).toBe(0);
    return watchedLine(result.stderr);
  };
  expect(await watched(['tenders', '-o', 'json'])).toBe('cli.cjs=used vendor/undici.cjs=used');
  expect(await watched(['obligations', '-o', 'csv'])).toBe('cli.cjs=used vendor/undici.cjs=used vendor/csv.cjs=used');
  // And under V8 flags of the user's own, V8 refuses them, and cdata runs as before.
  const flagged = await runProcess(process.execPath, ['--max-old-space-size=2048', '-r', PRELOAD, join(root, 'bin/cdata.js'), 'tenders', '-o', 'json'], { env: sandboxEnv(sandbox.current) });
  expect(flagged.code).toBe(0);
  expect(watchedLine(flagged.stderr)).toBe('cli.cjs=rejected vendor/undici.cjs=rejected');
});

it('a dist/ file edited after the build runs as edited, even at the same length (V8 checks only the length)', async () => {
  const install = copyOfInstall();
  const program = join(install, 'dist/cli.cjs');
  const text = readFileSync(program, 'latin1');
  expect(text.split('no base URL configured').length).toBe(2);
  writeFileSync(program, text.replace('no base URL configured', 'NO BASE URL CONFIGURED'), 'latin1');

  expect(await cacheUse(install, ['cli.cjs', 'vendor/undici.cjs'])).toEqual({ 'cli.cjs': 'none', 'vendor/undici.cjs': 'used' });
  const result = await cdata(install, ['tenders'], { CDATA_CONFIG_DIR: join(install, 'config') });
  expect(result.stderr.split('\n')[0]).toBe('error: NO BASE URL CONFIGURED: the API address differs per deployment');
  expect(result.code).toBe(2);
});

it('a damaged cache is rejected by V8, a cut one and another Node\'s are not read, and the program runs the same', async () => {
  const expected = await cdata(root, ['tenders', '--limit', '3', '-o', 'json'], sandboxEnv(sandbox.current));
  expect(expected.code).toBe(0);
  const install = copyOfInstall();
  const folder = join(install, 'dist/code-cache', FOLDER);

  // One bit flipped in the middle of the V8 part (the source copy before it intact): V8 checks
  // no checksum unless told to (--verify-snapshot-checksum), and without it this crashes Node.
  const program = readFileSync(join(folder, 'cli.cjs.bin'));
  const v8Part = 4 + program.readUInt32LE(0); // after the text it was made from
  expect(v8Part).toBeGreaterThan(4 + statSync(join(install, 'dist/cli.cjs')).size);
  program[v8Part + Math.floor((program.length - v8Part) / 2)]! ^= 0x10;
  writeFileSync(join(folder, 'cli.cjs.bin'), program);
  // And undici's cut short.
  writeFileSync(join(folder, 'undici.cjs.bin'), readFileSync(join(folder, 'undici.cjs.bin')).subarray(0, 1000));
  expect(await cacheUse(install, ['cli.cjs', 'vendor/undici.cjs'])).toEqual({ 'cli.cjs': 'rejected', 'vendor/undici.cjs': 'none' });
  expect(await cdata(install, ['tenders', '--limit', '3', '-o', 'json'], sandboxEnv(sandbox.current))).toEqual(expected);

  renameSync(join(install, 'dist/code-cache', FOLDER), join(install, 'dist/code-cache/v8-0.0.0-node.0-x64'));
  expect(await cacheUse(install, ['cli.cjs', 'vendor/undici.cjs'])).toEqual({ 'cli.cjs': 'none', 'vendor/undici.cjs': 'none' });
  expect(await cdata(install, ['tenders', '--limit', '3', '-o', 'json'], sandboxEnv(sandbox.current))).toEqual(expected);
});

it('writes nothing at run time: the caches come with the build, and an install may be read-only', async () => {
  const install = copyOfInstall();
  const listing = () => readdirSync(install, { recursive: true }).map(String).sort();
  const before = listing();
  const dir = join(install, 'dist/code-cache', FOLDER);
  const stamps = () => readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs]);
  const stamped = stamps();
  const env = sandboxEnv(sandbox.current);
  for (const args of [['tenders', '-o', 'json'], ['obligations', '-o', 'csv'], ['export', '--dir', mkdtempSync(join(tmpdir(), 'cdata-export-')), '-q']]) {
    expect((await cdata(install, args, env)).code).toBe(0);
  }
  expect(listing()).toEqual(before);
  expect(stamps()).toEqual(stamped);
});
