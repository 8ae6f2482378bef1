// How an error reaches the user: one `error:` line (sanitised, the key redacted), a `hint:` line
// where one helps, the stack under --debug, and under -o json/ndjson the same as one JSON line.
// Only src/cli.ts calls it; the words of an error (output/error-text.ts) are shared with export,
// which reports each failed list itself.
import type { RunState } from './run-state.js';
import { CliError, exitCodeOf, type ExitCode } from './core/errors.js';
import type { Io } from './io/index.js';
import { redactKeys } from './config/key.js';
import { sanitize } from './core/sanitize.js';
import { errorJsonLine, httpSuffix, messageOf } from './output/error-text.js';

export function report(error: unknown, io: Io, run: RunState): ExitCode {
  const exitCode = exitCodeOf(error);
  const redact = (text: string) => sanitize(redactKeys(text, run.secrets));
  const known = error instanceof CliError;
  const message = messageOf(error);
  const lines = [`error: ${redact(message)}${redact(httpSuffix(error))}`];
  if (known) lines.push(...error.excerpt.map(redact));
  if (known && error.hint) lines.push(`hint: ${redact(error.hint)}`);
  if (!known)
    lines.push('hint: this is a bug in cdata; please report it with the command you ran and its --debug output.');
  if (run.debug && error instanceof Error && error.stack) lines.push(...error.stack.split('\n').slice(1).map(redact));
  io.stderr.write(`${lines.join('\n')}\n`);
  if (run.jsonErrors) io.stderr.write(errorJsonLine(error, exitCode, run.secrets));
  return exitCode;
}
