// main(argv, io): the whole CLI as a function returning its exit code. The only catch-all:
// every error becomes one message on stderr (plus a JSON line when the output is JSON) and an
// exit code from the table in errors.ts. bin/cdata.js alone touches the process.
import { CliError, EXIT, EXIT_CODES, exitCodeOf, type ExitCode } from './errors.js';
import type { Io } from './io.js';
import { sanitize, sanitizeJson } from './output/sanitize.js';
import { VERSION } from './version.js';

export { processIo, runInterruptCleanups } from './io.js';

/** What main learns while a command runs, for reporting its error. */
export interface RunState {
  jsonErrors: boolean;
  debug: boolean;
  /** Values never to print (the key in use), replaced by `svc_***` in any message. */
  secrets: string[];
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const run: RunState = { jsonErrors: false, debug: false, secrets: [] };
  try {
    // `--version` alone needs nothing else: answered before loading commander (start-up budget).
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      io.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    const { runProgram } = await import('./program.js');
    return await runProgram(argv, io, run);
  } catch (error) {
    return report(error, io, run);
  }
}

function report(error: unknown, io: Io, run: RunState): ExitCode {
  const exitCode = exitCodeOf(error);
  const redact = (text: string) => sanitize(run.secrets.reduce((out, secret) => out.split(secret).join('svc_***'), text));
  const known = error instanceof CliError;
  const message = known ? error.message : `internal error: ${(error as Error)?.message ?? String(error)}`;
  const http = known ? error.http : undefined;
  const where = http ? ` (HTTP ${http.status}${http.correlationId ? `, correlation id ${http.correlationId}` : ''})` : '';
  const lines = [`error: ${redact(message)}${redact(where)}`];
  if (known && error.hint) lines.push(`hint: ${redact(error.hint)}`);
  if (!known) lines.push('hint: this is a bug in cdata; please report it with the command you ran and its --debug output.');
  if (run.debug && error instanceof Error && error.stack) lines.push(...error.stack.split('\n').slice(1).map(redact));
  io.stderr.write(`${lines.join('\n')}\n`);
  if (run.jsonErrors) {
    const line = {
      error: {
        status: http?.status ?? null,
        title: http?.title ?? EXIT_CODES[exitCode].title,
        detail: message,
        correlationId: http?.correlationId ?? null,
        exitCode,
      },
    };
    const json = run.secrets.reduce((out, secret) => out.split(secret).join('svc_***'), JSON.stringify(line));
    io.stderr.write(`${sanitizeJson(json)}\n`);
  }
  return exitCode;
}
