#!/usr/bin/env node
// The `cdata` command: run main with the real process, set the exit code. Nothing else here
// touches the process.
import { main, processIo, runInterruptCleanups } from '../dist/cli.js';

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

process.exitCode = await main(process.argv.slice(2), processIo());
