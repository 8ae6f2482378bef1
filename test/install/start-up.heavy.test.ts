// How the binary starts on every supported Node line (bin/start-up.cjs): an older Node refused,
// Node's own compile cache where the runtime has it, only V8 flags the line knows, and what they
// do (WebAssembly kept on Liftoff, the young generation kept small). CI runs the whole suite on
// Node 20, 22, 24 and 26 (.ci/run), so each case here is checked on each line. Heavy (npm run
// test:heavy): a dozen Node start-ups, some traced. Silence on stderr, and when the flags are
// asked for: start-up.test.ts, in npm test.
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BIN, runBin, runBinAsUser, runProcess } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';

const folder = scratch('cdata-start-up');
/** The module whose setFlags the scripts below call, as bin/cdata.js does. */
const START_UP = join(import.meta.dirname, '../../bin/start-up.cjs');

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** NODE_COMPILE_CACHE, the compile cache turned on by its variable: Node 22.1 and later. */
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);

/**
 * The compilers V8 says it compiled each WebAssembly function with (--trace-wasm-compilation-times,
 * on stdout), one for each whole trace line. V8 writes these lines itself, from more than one
 * thread; one CI run on Node 24 got a line that began as one but named no compiler, which a
 * line-by-line reading counted as a compiler of its own. Such a line is passed over. A TurboFan
 * compile's line is written when the compile ends, which the exit waits for.
 */
const wasmCompilers = (stdout: string) =>
  [...stdout.matchAll(/Compiled function \S+ using (\w+)/g)].map((match) => match[1]);

// A Node older than the engines fails later in ways that read as a bug in cdata (Node 18 has no
// process.getBuiltinModule): it is said at once, exit 2, whatever the command. --version, which
// installers run, still answers.
it("on a Node older than package.json's engines: says which Node it needs, exit 2", async () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
    engines: { node: string };
  };
  const engines = pkg.engines.node;
  const { MIN_NODE } = (await import(START_UP)) as { MIN_NODE: string };
  expect(engines).toBe(`>=${MIN_NODE}`);
  const preload = join(folder(), 'old-node.cjs');
  const env = { CDATA_CONFIG_DIR: folder(), PATH: process.env.PATH ?? '' };
  for (const version of ['18.20.8', '20.18.0']) {
    writeFileSync(preload, `Object.defineProperty(process.versions, 'node', { value: '${version}' });\n`);
    expect(await runProcess(process.execPath, ['-r', preload, BIN, '--sandbox', 'tenders'], { env })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: cdata needs Node ${MIN_NODE} or later; this is Node ${version}\nhint: Install Node 24 or 26 (long-term support lines), then run cdata again.\n`,
    });
  }
  for (const version of ['20.18.1', '20.19.0', '21.0.0', '26.1.0']) {
    writeFileSync(preload, `Object.defineProperty(process.versions, 'node', { value: '${version}' });\n`);
    const result = await runProcess(process.execPath, ['-r', preload, BIN, 'config', 'path'], { env });
    expect([result.code, result.stderr]).toEqual([0, '']);
  }
  // --version answers on any Node (installers read it), and a person checking the install is told.
  writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '18.20.8' });\n");
  for (const flag of ['--version', '-V'])
    expect(await runProcess(process.execPath, ['-r', preload, BIN, flag], { env })).toMatchObject({
      code: 0,
      stdout: `${pkg.version}\n`,
      stderr: `warning: cdata needs Node ${MIN_NODE} or later; this is Node 18.20.8: every other command refuses to run\nhint: Install Node 24 or 26 (long-term support lines), then run cdata again.\n`,
    });
  writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '20.18.1' });\n");
  expect(await runProcess(process.execPath, ['-r', preload, BIN, '--version'], { env })).toMatchObject({
    code: 0,
    stdout: `${pkg.version}\n`,
    stderr: '',
  });
});

it(`keeps compiled code in Node's compile cache ${hasCompileCache ? '(this Node has one)' : '(none on this Node: nothing is written)'}`, async () => {
  const cache = join(folder(), 'cache');
  const result = await runBin(['--sandbox', 'me', '-o', 'json'], {
    env: { CDATA_CONFIG_DIR: folder(), NODE_COMPILE_CACHE: cache },
  });
  expect([result.code, result.stderr]).toEqual([0, '']);
  let entries: string[] = [];
  try {
    entries = readdirSync(cache, { recursive: true }) as string[];
  } catch {
    // No folder: nothing was cached.
  }
  // Node names each entry by a hash of the file's path and content; cli.cjs and undici at least.
  if (hasCompileCache) expect(entries.length).toBeGreaterThanOrEqual(2);
  else expect(entries).toEqual([]);
});

// V8 compiles a function when first called, and Node's cache keeps only what was compiled as a file
// loaded: dist/cli.cjs and undici are compiled whole (--no-lazy while each loads), so later runs
// compile none of their functions (bin/start-up.cjs, requireWhole). A flag set makes V8 refuse the
// code Node's own modules were built with, so none may load in that window.
/** module.enableCompileCache, which turns the cache on from inside: Node 22.8 and later. */
const enables = 'enableCompileCache' in nodeModule;
const DIST = join(import.meta.dirname, '../../dist');

/**
 * Each window requireWhole opened in a `--sandbox tenders -o json` run: how many modules Node
 * had loaded as it opened, and as it closed. A preload records each setFlagsFromString.
 */
async function windows(env: Record<string, string>, runner = runBin): Promise<[number, number][]> {
  const probe = join(folder(), 'flags.cjs');
  writeFileSync(
    probe,
    `const v8 = require('node:v8');
const set = v8.setFlagsFromString;
const seen = [];
v8.setFlagsFromString = (flags) => { seen.push([flags, process.moduleLoadList.length]); set(flags); };
process.on('exit', () => process.stderr.write(JSON.stringify(seen)));
`,
  );
  const result = await runner(['--sandbox', 'tenders', '-o', 'json'], {
    env: { CDATA_CONFIG_DIR: folder(), NODE_OPTIONS: `--require ${probe}`, ...env },
  });
  expect(result.code).toBe(0);
  // The preload's record is all stderr holds: the run itself says nothing there.
  const flags = JSON.parse(result.stderr) as [string, number][];
  // A window not closed by the next call counts -1 modules at its close.
  return flags.flatMap(([flag, loaded], at): [number, number][] => {
    const [next, closed = -1] = flags[at + 1] ?? [];
    return flag === '--no-lazy' ? [[loaded, next === '--lazy' ? closed : -1]] : [];
  });
}

it(`compiles dist/cli.cjs and undici whole, with no Node module loaded meanwhile ${enables ? '(this Node turns its compile cache on)' : '(none on this Node: no flag)'}`, async () => {
  const opened = await windows({ NODE_COMPILE_CACHE: join(folder(), 'cache') });
  if (enables) {
    expect(opened).toHaveLength(2);
    for (const [before, after] of opened) expect(after).toBe(before);
  } else expect(opened).toEqual([]);
  // No cache, no flag: each function would be compiled twice over at every run.
  expect(await windows({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual([]);
});

it(`opens no window where the cache's folder cannot be written: nothing would be kept ${enables ? '' : '(no cache on this Node: no window anyway)'}`, async () => {
  const cache = join(folder(), 'read-only');
  if (!enables) {
    expect(await windows({ NODE_COMPILE_CACHE: cache }, runBinAsUser)).toEqual([]);
    return;
  }
  // The folder Node keeps this line's entries in, made by a first run, then emptied and shut.
  expect(
    (await runBin(['--sandbox', 'me'], { env: { CDATA_CONFIG_DIR: folder(), NODE_COMPILE_CACHE: cache } })).code,
  ).toBe(0);
  const made = readdirSync(cache).map((name) => join(cache, name));
  for (const entry of made) {
    for (const file of readdirSync(entry)) rmSync(join(entry, file));
    chmodSync(entry, 0o555);
  }
  let opened: [number, number][];
  try {
    opened = await windows({ NODE_COMPILE_CACHE: cache }, runBinAsUser);
  } finally {
    for (const entry of made) chmodSync(entry, 0o755);
  }
  expect(opened).toEqual([]);
  expect(made.flatMap((entry) => readdirSync(entry))).toEqual([]);
});

it(`takes cdata's whole compiled code from the cache on the second run, none refused ${enables ? '(this Node has one)' : '(none on this Node)'}`, async () => {
  const cache = join(folder(), 'second');
  const env = { CDATA_CONFIG_DIR: folder(), NODE_COMPILE_CACHE: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
  const first = await runBin(['--sandbox', 'tenders', '-o', 'json'], { env });
  const second = await runBin(['--sandbox', 'tenders', '-o', 'json'], { env });
  expect([first.code, second.code]).toEqual([0, 0]);
  if (!enables) {
    expect(second.stderr).toBe('');
    return;
  }
  const accepted = (file: string) => new RegExp(`cache for (CommonJS )?\\S*${file} was accepted`).test(second.stderr);
  expect([accepted('dist/cli\\.cjs'), accepted('dist/vendor/undici\\.cjs'), /rejected/.test(second.stderr)]).toEqual([
    true,
    true,
    false,
  ]);
  // Node's copy of the cache, which it would keep to the exit, is let go before the request
  // (module.flushCompileCache: Node 22.10 and later).
  if ('flushCompileCache' in nodeModule)
    expect(second.stderr).toMatch(
      /Clear deserialized cache\.\n\[compile cache\] module\.flushCompileCache\(\) finished/,
    );
  // Whole, each file's compiled code is larger than its source; as it loads, V8 compiles a part
  // (dist/cli.cjs: 135 KB of cache for 283 KB; undici's: 16 KB for 361 KB).
  for (const file of ['cli.cjs', 'vendor/undici.cjs']) {
    const source = join(DIST, file);
    const read = [...second.stderr.matchAll(/reading cache from (\S+) for CommonJS (\S+?)(?:\.\.\.|\s)/g)].find(
      ([, , from]) => from === source,
    );
    expect(read, `the cache read for ${file}`).toBeDefined();
    expect(statSync(read![1]!).size).toBeGreaterThan(statSync(source).size);
  }
});

it('sets only V8 flags this Node knows', async () => {
  const script = 'require(process.argv[1]).setFlags()';
  const result = await runProcess(process.execPath, ['-e', script, START_UP]);
  expect([result.code, result.stderr]).toEqual([0, '']);
});

it('keeps WebAssembly on Liftoff once the flags are set at run time, where V8 would tier it up', async () => {
  // --liftoff-only works through two flags it implies, which V8 derives from a command line only:
  // set at run time alone, V8 13 and later (Node 24) still tier a hot function up to TurboFan.
  // A loop of its own, hot enough that V8 does so without the flags (checked first, on this line).
  const script = `
    if (process.argv[2] === 'flags') require(process.argv[1]).setFlags();
    // (func (export "loop") (param i32) (result i32) (local i32): loop { acc += n; n -= 1; br_if n }; acc)
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 7, 8, 1, 4,
      108, 111, 111, 112, 0, 0, 10, 27, 1, 25, 1, 1, 127, 3, 64, 32, 1, 32, 0, 106, 33, 1, 32, 0, 65, 1, 107, 34,
      0, 13, 0, 11, 32, 1, 11]);
    const { loop } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
    let sum = 0;
    for (let i = 0; i < 200; i++) sum = (sum + loop(1e6)) | 0;`;
  const traced = (mode: string) =>
    runProcess(process.execPath, ['--trace-wasm-compilation-times', '-e', script, START_UP, mode]);
  const [plain, flagged] = await Promise.all([traced('none'), traced('flags')]);
  expect([plain.code, plain.stderr, flagged.code, flagged.stderr]).toEqual([0, '', 0, '']);
  expect(wasmCompilers(plain.stdout)).toEqual(['Liftoff', 'TurboFan']);
  expect(wasmCompilers(flagged.stdout)).toEqual(['Liftoff']);
});

it("keeps undici's WebAssembly HTTP parser on V8's baseline compiler through a whole export", async () => {
  // Without the two flags, Node 24 moved llhttp's parser up to TurboFan in this very export: a
  // compile of ~160-220 ms on a background thread, which the exit waits for, holding 23 MB of the
  // compiler's memory.
  const result = await runProcess(
    process.execPath,
    ['--trace-wasm-compilation-times', BIN, '--sandbox', 'export', '--dir', join(folder(), 'traced'), '-q'],
    { env: { CDATA_CONFIG_DIR: folder() } },
  );
  expect([result.code, result.stderr]).toEqual([0, '']);
  const compilers = wasmCompilers(result.stdout);
  expect(compilers.length).toBeGreaterThan(0);
  expect(compilers.filter((compiler) => compiler !== 'Liftoff')).toEqual([]);
});

it('keeps the young generation at its first size once the flags are set at run time', async () => {
  // Objects that survive collection after collection (as a large answer's rows do) make V8 double
  // the young generation up to its ceiling: 32 MiB on Node 20 and 22, 128 MiB on Node 24. Set at
  // run time, as bin/start-up.cjs sets it, --semi-space-growth-factor=1 holds it where it starts.
  const script = `
    const v8 = require('node:v8');
    require(process.argv[1]).setFlags();
    let largest = 0;
    let kept = [];
    for (let i = 0; i < 5e5; i++) {
      kept.push({ i, text: 'row ' + i });
      if (kept.length > 2e5) kept = [];
      if (i % 1e4 === 0) {
        const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
        largest = Math.max(largest, young.space_size);
      }
    }
    process.stdout.write(String(largest / 1024 / 1024));`;
  const result = await runProcess(process.execPath, ['-e', script, START_UP]);
  expect([result.code, result.stderr]).toEqual([0, '']);
  // Measured: 2 MiB on Node 20 and 22, 3 on Node 24 (32, 32 and 64 without the flag). Half a
  // million rows show it as well as the 2 million this made before, at a quarter of the CPU (~0.7 s).
  expect(Number(result.stdout)).toBeLessThanOrEqual(16);
});
