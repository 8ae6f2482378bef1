// Makes dist/code-cache/ (bin/code-cache.cjs reads it): runs the commands users run most, in
// this process, against a sandbox, then writes V8's cache of dist/cli.cjs and of each vendored
// file they loaded, holding the bytecode of every function that ran. Run by scripts/build.mjs in
// a Node process of its own, so that nothing else has changed V8's flags. Fails the build when a
// command fails: a cache made from an error path would hold the wrong functions.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tempFolder } from './temp-folder.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const { CodeCacheLoader, useV8Flags } = createRequire(import.meta.url)('../bin/code-cache.cjs');

useV8Flags();
const loader = new CodeCacheLoader(dist, { record: true });
const { main } = loader.require(join(dist, 'cli.cjs'));
const { startSandbox, demoKey } = await import(pathToFileURL(join(dist, 'sandbox.js')).href);

const work = tempFolder('cdata-code-cache-');
const sandbox = await startSandbox();
const env = { PATH: process.env.PATH, HOME: work, CDATA_CONFIG_DIR: work, CDATA_BASE_URL: sandbox.url, CDATA_API_KEY: demoKey('all') };
// What scripts and cron run most. Every function in the cache is deserialised by every command,
// used or not: with the table, help and completion paths added too, `tenders -o json` took ~3 ms
// longer (docs/performance.md), so those compile as they run, as everything did before.
const RUNS = [
  ['tenders', '-o', 'json'],
  ['obligations', '--limit', '200', '-o', 'csv'],
  ['export', '--dir', join(work, 'export'), '-q'],
];
try {
  for (const argv of RUNS) {
    const output = { text: '' };
    const code = await main(argv, io(env, output));
    if (code !== 0) throw new Error(`scripts/code-cache.mjs: cdata ${argv.join(' ')} exited ${code}:\n${output.text}`);
  }
} finally {
  await sandbox.close();
}
loader.writeCaches();

/** An Io (src/io/index.ts) whose output is kept only to explain a failure. */
function io(env, output) {
  const stream = { isTTY: false, write: (text) => (output.text += text) };
  return {
    stdout: stream,
    stderr: stream,
    stdin: { isTTY: false, async *[Symbol.asyncIterator]() {} },
    env,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    onInterrupt: () => () => {},
    runPager: async () => false,
  };
}
