// main(argv, io): the whole CLI as a function returning its exit code. The only catch-all:
// every error becomes one message on stderr (plus a JSON line when the output is JSON) and an
// exit code from the table in errors.ts (see report.ts). bin/cdata.js alone touches the process.
// This module imports almost nothing: the program and the reporter load only when needed, and
// `cdata __complete` (every TAB) is answered without either. (`--version` is answered by
// bin/cdata.js before any of this loads.)
import type { Io } from './io/index.js';
import type { TransportFactory } from './client/transport.js';
import type { RunState } from './run-state.js';

export type { RunState } from './run-state.js';

export { processIo, runInterruptCleanups } from './io/index.js';

/** What a caller of main may replace: the transport requests go through (tests answer in-process). */
export interface Seams {
  transport?: TransportFactory;
  /**
   * Called before a command's work: its first request, once the modules that send it have loaded,
   * or the folder `cdata changes` reads. bin/cdata.js sets V8's flags there (bin/start-up.cjs
   * says why then); a command that does neither never calls it.
   */
  beforeWork?: () => void;
}

export async function main(argv: readonly string[], io: Io, seams: Seams = {}): Promise<number> {
  // The key from the environment is a secret from the start: a usage error may quote any argument.
  const envKey = io.env.CDATA_API_KEY;
  const run: RunState = {
    transport: seams.transport,
    beforeWork: seams.beforeWork,
    jsonErrors: false,
    debug: false,
    secrets: envKey ? [envKey, envKey.trim()] : [],
  };
  try {
    // Completion scripts ask for profile names on every TAB: answered without loading commander.
    if (argv[0] === '__complete') return (await import('./completion/dynamic.js')).completeDynamic(argv.slice(1), io);
    const { runProgram } = await import('./program.js');
    return await runProgram(argv, io, run);
  } catch (error) {
    const { report } = await import('./report.js');
    return report(error, io, run);
  }
}
