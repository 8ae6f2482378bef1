#!/usr/bin/env node
// The `cdata` command: run main with the real process, set the exit code. Nothing else here
// touches the process. CommonJS (bin/package.json), as dist/cli.cjs is: Node's ES module loader
// never starts (docs/performance.md), and `cdata --version`, which scripts and installers run, is
// answered before even the program loads.
'use strict';

const argv = process.argv.slice(2);

// `cdata ... | head` closes the pipe early: that is the reader's choice, not an error. Any other
// failure to write the output (a full disk: ENOSPC) is said on stderr, exit 2, as for --out.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') {
    process.exitCode = 2;
    process.stderr.write(`error: cannot write the output: ${error.message}\n`);
  }
  process.exit(process.exitCode ?? 0);
});
// stderr that cannot be written (closed, a full disk) has nobody left to tell: the command goes
// on, and its exit code still says how it ended.
process.stderr.on('error', () => undefined);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
  // Installers read the version on any Node; a person checking an install learns the rest refuse.
  const unsupported = require('./start-up.cjs').unsupportedNode(process.versions.node, true);
  if (unsupported) process.stderr.write(unsupported);
} else {
  run();
}

async function run() {
  const startUp = require('./start-up.cjs');
  const unsupported = startUp.unsupportedNode(process.versions.node);
  if (unsupported) {
    process.stderr.write(unsupported);
    process.exitCode = 2;
    return;
  }
  startUp.prepare();
  const { main, processIo, runInterruptCleanups } = startUp.requireWhole(() => require('../dist/cli.cjs'));

  // Ctrl-C, a kill or a hang-up (the terminal closed) during a write: remove temp files (the old
  // file stays whole), stop a pager or key command, then go.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => {
      runInterruptCleanups();
      process.exit(code);
    });
  }

  process.exitCode = await main(argv, processIo(), { beforeWork: startUp.setFlags });
}
