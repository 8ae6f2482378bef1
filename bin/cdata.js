#!/usr/bin/env node
// The `cdata` command: run main with the real process, set the exit code. Nothing else here
// touches the process. CommonJS (bin/package.json) so that `cdata --version`, run by scripts and
// installers, is answered before Node starts its ES module loader: ~1.1x `node -e 0` instead of
// ~1.5x (npm run bench). Everything else is dist/cli.js, an ES module.
'use strict';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  run();
}

async function run() {
  // undici parses HTTP with llhttp compiled to WebAssembly. By default V8 compiles it twice, the
  // second time (optimised) in the background, and the process cannot exit until that finishes:
  // ~80 ms added to every command for code that parses a few kilobytes. The baseline compiler
  // alone is plenty (docs/performance.md). Set here, by the program, for the program: never as a
  // side effect of importing a module (the sandbox library, tests).
  require('node:v8').setFlagsFromString('--liftoff-only');
  const { main, processIo, runInterruptCleanups } = await import('../dist/cli.js');

  // `cdata ... | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

  // Ctrl-C or a kill during a write: remove temp files (the old file stays whole), then go.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.once(signal, () => {
      runInterruptCleanups();
      process.exit(code);
    });
  }

  process.exitCode = await main(argv, processIo());
}
