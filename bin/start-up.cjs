// What the runtime does for cdata's start-up (bin/cdata.js calls it).
// docs/performance.md has the figures behind each choice.
//
// - Node's own compile cache (module.enableCompileCache, Node >= 22.1): V8's bytecode of
//   dist/*.cjs, kept in the OS temp folder (node-compile-cache/, as tsc does) and checked by Node
//   against each file's content. NODE_COMPILE_CACHE chooses the folder, NODE_DISABLE_COMPILE_CACHE=1
//   turns it off, and a folder that cannot be written is passed over by Node in silence. Node 20
//   has none and compiles at each start.
// - V8 flags, each measured on the lines it is set for and known to them (an unknown flag makes
//   V8 print an error at every run: test/install/start-up.test.ts, run on each line by CI), set
//   by setFlags just before the first request, not at start: Node's own modules (node:net,
//   node:http...) come with code compiled at Node's build, which V8 refuses once any flag
//   differs, so each one loaded after a flag was set is compiled again (docs/performance.md):
//   --liftoff-only (every line): undici parses HTTP with llhttp, compiled to WebAssembly, and
//     TurboFan's compile of it costs more than a short run ever wins back (~80 ms at exit).
//   --interrupt-budget (Node 20 only: V8 12 dropped it): 8 times V8 11's default, so that
//     TurboFan's background compiles, which the exit waits for and which hold megabytes, come
//     only for really long loops (`export` at 200 ms latency: 500 -> 438 ms, 68 -> 61 MiB).
//   --invocation-count-for-maglev, --invocation-count-for-turbofan (Node 24 only: V8 13): the same
//     for the compilers that replaced that budget, 8 times their defaults (400 and 3000). Reading
//     an answer (json-scan.ts, redaction, printing) made V8 13 compile a dozen functions in the
//     background, ~30 ms of CPU in a run of 150; Node 22 (V8 12) compiles no more than the floor.
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

const V8 = process.versions.v8.split('.')[0];
const FLAGS = [
  '--liftoff-only',
  '--semi-space-growth-factor=1',
  ...(V8 === '11' ? ['--interrupt-budget=540672'] : []),
  ...(V8 === '13' ? ['--invocation-count-for-maglev=3200', '--invocation-count-for-turbofan=24000'] : []),
];

function prepare() {
  const module = require('node:module');
  if (typeof module.enableCompileCache === 'function') module.enableCompileCache();
}

let flagsSet = false;

/** Once, before the first request: after undici and the Node modules it needs have loaded. */
function setFlags() {
  if (flagsSet) return;
  flagsSet = true;
  require('node:v8').setFlagsFromString(FLAGS.join(' '));
}

module.exports = { prepare, setFlags, FLAGS };
