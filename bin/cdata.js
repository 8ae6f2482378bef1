#!/usr/bin/env node
// The `cdata` command: run main with the real process, set the exit code. Nothing else here
// touches the process. CommonJS (bin/package.json), as dist/cli.cjs is: Node's ES module loader
// never starts (docs/performance.md), and `cdata --version`, which scripts and installers run, is
// answered before even the program loads.
'use strict';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  run();
}

async function run() {
  const startUp = require('./start-up.cjs');
  startUp.prepare();
  const { main, processIo, runInterruptCleanups } = require('../dist/cli.cjs');

  // `cdata ... | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

  // Ctrl-C or a kill during a write: remove temp files (the old file stays whole), then go.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.once(signal, () => {
      runInterruptCleanups();
      process.exit(code);
    });
  }

  process.exitCode = await main(argv, processIo(), { beforeWork: startUp.setFlags });
}
