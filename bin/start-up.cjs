// What the runtime does for cdata's start-up (bin/cdata.js calls it).
// docs/performance.md has the figures behind each choice.
//
// - Node's own compile cache (module.enableCompileCache, Node >= 22.8): V8's bytecode of
//   dist/*.cjs, kept in the OS temp folder (node-compile-cache/, as tsc does) and checked by Node
//   against each file's content. NODE_COMPILE_CACHE chooses the folder, NODE_DISABLE_COMPILE_CACHE=1
//   turns it off, and a folder that cannot be written is passed over by Node in silence (and
//   cdata's files then load as they are: cacheOn below). Node 20 has none and compiles at each
//   start.
// - Files compiled whole (requireWhole), where that cache is on: V8 compiles a function when it is
//   first called, and Node keeps in its cache only what was compiled as the file loaded, so every
//   run compiled again each function it called (~400 of dist/cli.cjs's, ~190 of undici's: 8 ms
//   of a 62 ms `tenders -o json` on Node 24). With --no-lazy set while dist/cli.cjs and
//   dist/vendor/undici.cjs load (only then), V8 compiles all their functions at once, the cache
//   keeps them, and later runs compile none: `tenders -o json` 65.5 -> 57.3 ms on Node 24,
//   against the commander + undici floor 1.20x -> 1.05x; peak RSS +1.2-1.7 MiB (the cache holds
//   every function, used or not: 135 + 16 KB -> 750 + 590 KB; setFlags lets Node's copy go).
//   The first run, which fills the cache, compiles more (+10 ms). A flag makes V8 refuse Node's
//   own modules' code compiled at Node's build (below), so no Node module may load in that
//   window: those a file needs are loaded just before it (test/install/start-up.heavy.test.ts
//   checks none loads in it, on each line). Node 20, with no cache, would compile the whole file
//   at every run: it loads them as before.
// - V8 flags, each measured on the lines it is set for and known to them (an unknown flag makes
//   V8 print an error at every run: test/install/start-up.test.ts and start-up.heavy.test.ts,
//   run on each line by CI), set by setFlags just before the first request, not at start:
//   Node's own modules (node:net, node:http...) come with code compiled at Node's build, which
//   V8 refuses once any flag differs, so each one loaded after a flag was set is compiled again
//   (docs/performance.md):
//   --liftoff-only (every line): undici parses HTTP with llhttp, compiled to WebAssembly, and
//     TurboFan's compile of it costs more than a short run ever wins back (~80 ms at exit).
//   --no-wasm-tier-up --no-wasm-dynamic-tiering (every line): what --liftoff-only implies, spelled
//     out. V8 works --liftoff-only through these two, and derives them itself only from a command
//     line; set at run time, V8 11 and 12 (Node 20, 22) keep to Liftoff all the same, but V8 13
//     and later (Node 24; 25 and 26 too) still moved llhttp's parser up to TurboFan in every export
//     of the sandbox's lists: a compile of ~160-220 ms on a background thread, which the exit waits
//     for, holding 23 MB of the compiler's memory (export at 200 ms latency on Node 24: 624 -> 542
//     ms, 562 -> 393 ms of CPU, peak RSS 94 -> 75 MiB). Both are needed: --no-wasm-dynamic-tiering
//     alone makes V8 tier every function up, not one.
//   --interrupt-budget (Node 20 only: V8 12 dropped it), --invocation-count-for-maglev and
//     --invocation-count-for-turbofan (V8 12 to 14: Node 22 to 26, the counts that replaced it;
//     Node 22 has Maglev off, so there the second acts alone), each 128 times its default (66 KiB;
//     400 and 3000): V8's optimising compilers, whose background compiles the exit waits for and
//     which hold megabytes, come only for work of seconds, where they pay. At the defaults,
//     reading and writing a few hundred rows compiled dozens of functions (json-scan.ts,
//     redaction, cells, CSV) in a run of half a second. 8 times the defaults was the first step
//     (Node 20's export at 200 ms latency 500 -> 438 ms, 68 -> 61 MiB; Node 24's `tenders -o json`
//     ~30 ms less CPU). 128 times against 8, on Node 24 (Node 22 and 20 the same way, less): the
//     export at 200 ms latency 343 -> 306 ms of CPU, 75 -> 65 MiB; `obligations --limit 200 -o
//     table` 66 -> 60 MiB; `tenders -o json` the same; the work of seconds no slower (`changes`
//     over a 375 MB changes.ndjson: 9.2-9.7 s at 8 times, 9.0-9.3 s at 128; the export of eight
//     15.6 MB lists: 4.0 s, 3.8 s). With no optimising compiler at all, that `changes` took
//     11.3-11.7 s. V8 14 knows all these flags (checked on Node 25.9 and 26.10); a line whose V8
//     is not named here gets only the flags set on every line.
//   --semi-space-growth-factor=1 (every line): the young generation keeps its first size (a few
//     MiB) instead of doubling while large answers survive collections. V8 13 (Node 24) lets it
//     grow to 128 MiB where V8 11 and 12 stop at 32 (its --scavenger-max-new-space-capacity-mb
//     went from 8 to 32, doubled without pointer compression, as Node builds): with it, Node 24's
//     large export peaked at ~320 MiB, and ~410 for the diffing one. The ceiling itself
//     (--max-semi-space-size) is fixed when the isolate starts, so a bin script cannot lower it;
//     the growth factor is read at each growth, and set here it holds (on the command line V8
//     raises a factor below 2 to 2). Ordinary commands never grow the young generation (1-2
//     scavenges), so they run as before. docs/limits.md, "Memory".
'use strict';

const V8 = Number(process.versions.v8.split('.')[0]);
/** llhttp on Liftoff alone: also what the bench's floor sets (scripts/floor/get.mjs). */
const LIFTOFF_ONLY = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
const FLAGS = [
  ...LIFTOFF_ONLY,
  '--semi-space-growth-factor=1',
  ...(V8 === 11 ? ['--interrupt-budget=8650752'] : []),
  ...(V8 >= 12 && V8 <= 14 ? ['--invocation-count-for-maglev=51200', '--invocation-count-for-turbofan=384000'] : []),
];

/** The oldest Node cdata runs on: package.json's engines (test/install/start-up.heavy.test.ts keeps them one). */
const MIN_NODE = '20.18.1';

/**
 * What to say when `version` is older than MIN_NODE, else undefined: a Node that old fails later
 * in ways that read as a bug in cdata (Node 18 has no process.getBuiltinModule, which key
 * commands use). `answered`: --version, which still answers (installers read it), gets a warning.
 */
function unsupportedNode(version, answered = false) {
  const have = version.split('.').map(Number);
  const need = MIN_NODE.split('.').map(Number);
  const older = have[0] !== need[0] ? have[0] < need[0] : have[1] !== need[1] ? have[1] < need[1] : have[2] < need[2];
  if (!older) return undefined;
  const said = `cdata needs Node ${MIN_NODE} or later; this is Node ${version}`;
  return `${answered ? `warning: ${said}: every other command refuses to run` : `error: ${said}`}\nhint: Install Node 24 or 26 (long-term support lines), then run cdata again.\n`;
}

/**
 * Whether Node's compile cache is on for this run and its folder can be written (prepare): where
 * requireWhole pays. Node reports a folder that exists but cannot be written (another owner, a
 * read-only mount) as on, and writes nothing at the exit: each run would compile whole for
 * nothing (139.5 against 126.1 ms, measured as another user).
 */
let cacheOn = false;

function prepare() {
  const module = require('node:module');
  if (typeof module.enableCompileCache === 'function') {
    const { status } = module.enableCompileCache();
    const { ENABLED, ALREADY_ENABLED } = module.constants.compileCacheStatus;
    cacheOn = (status === ENABLED || status === ALREADY_ENABLED) && writable(module.getCompileCacheDir());
  }
  loadAssertQuietly(process.env);
}

function writable(folder) {
  const fs = require('node:fs');
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A requireWhole under way: one inside it (a file that requires another) loads as it is. */
let inWindow = false;

/**
 * `load()`, a require of one of cdata's files, with V8 compiling every function of it at once
 * where the compile cache is on (above); `builtins`, the Node modules the file requires as it
 * loads, loaded first. The flag is unset again however the load ends.
 */
function requireWhole(load, builtins = []) {
  if (!cacheOn || inWindow) return load();
  for (const name of builtins) require(name);
  const v8 = require('node:v8');
  v8.setFlagsFromString('--no-lazy');
  inWindow = true;
  try {
    return load();
  } finally {
    inWindow = false;
    v8.setFlagsFromString('--lazy');
  }
}

/**
 * Node 22 and later warn on stderr, as node:assert loads (undici and conf require it), that
 * NO_COLOR is ignored when FORCE_COLOR is set too. Not so in cdata: NO_COLOR wins
 * (src/output/color.ts), and the runtime says nothing. So with both set, node:assert is loaded
 * here with FORCE_COLOR out of sight for that moment; later requires take it from the cache.
 */
function loadAssertQuietly(env) {
  if (env.FORCE_COLOR === undefined || (env.NO_COLOR === undefined && env.NODE_DISABLE_COLORS === undefined)) return;
  const force = env.FORCE_COLOR;
  delete env.FORCE_COLOR;
  try {
    require('node:assert');
  } finally {
    env.FORCE_COLOR = force;
  }
}

let flagsSet = false;

/**
 * Once, before the first request: after undici and the Node modules it needs have loaded. The
 * files compiled whole are loaded by then, and Node's copy of their cache (1.3 MB), which it
 * would keep to the exit, is let go: written first if it is new (module.flushCompileCache,
 * Node 22.10 and later). Peak RSS 1.1 MiB lower on Node 24, for `tenders -o json` and an export.
 */
function setFlags() {
  if (flagsSet) return;
  flagsSet = true;
  require('node:v8').setFlagsFromString(FLAGS.join(' '));
  if (cacheOn) require('node:module').flushCompileCache?.();
}

module.exports = { prepare, requireWhole, setFlags, unsupportedNode, FLAGS, LIFTOFF_ONLY, MIN_NODE };
