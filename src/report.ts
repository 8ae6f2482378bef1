// How an error reaches the user: one `error:` line (sanitised, the key redacted), a `hint:` line
// where one helps, the stack under --debug, and under -o json/ndjson the same as one JSON line.
import type { RunState } from './cli.js';
import { CliError, EXIT_CODES, exitCodeOf, type ExitCode } from './errors.js';
import type { Io } from './io.js';
import { redactKeys } from './config/key.js';
import { sanitize, sanitizeJson } from './output/sanitize.js';

export function report(error: unknown, io: Io, run: RunState): ExitCode {
  const exitCode = exitCodeOf(error);
  const redact = (text: string) => sanitize(redactKeys(text, run.secrets));
  const known = error instanceof CliError;
  const message = messageOf(error);
  const lines = [`error: ${redact(message)}${redact(httpSuffix(error))}`];
  if (known && error.hint) lines.push(`hint: ${redact(error.hint)}`);
  if (!known) lines.push('hint: this is a bug in cdata; please report it with the command you ran and its --debug output.');
  if (run.debug && error instanceof Error && error.stack) lines.push(...error.stack.split('\n').slice(1).map(redact));
  io.stderr.write(`${lines.join('\n')}\n`);
  if (run.jsonErrors) io.stderr.write(errorJsonLine(error, exitCode, run.secrets));
  return exitCode;
}

/**
 * The error as one JSON line, for -o json/ndjson; `resource` names the list an export failed
 * on. Without the key, and with control characters escaped. Each text is redacted before the
 * line is serialised: redacting the JSON text instead would miss a key as JSON escapes it (a
 * `"` in the key) and could cut an escape in two, leaving a line that no longer parses.
 */
export function errorJsonLine(error: unknown, exitCode: ExitCode, secrets: readonly string[], resource?: string): string {
  const http = error instanceof CliError ? error.http : undefined;
  const text = (value: string | undefined) => (value === undefined ? null : redactKeys(value, secrets));
  const line = {
    error: {
      ...(resource === undefined ? {} : { resource: text(resource) }),
      status: http?.status ?? null,
      title: text(http?.title ?? EXIT_CODES[exitCode].title),
      // The API's own detail when it sent a problem (what its documentation and support quote).
      detail: text(http?.detail ?? messageOf(error)),
      correlationId: text(http?.correlationId),
      exitCode,
    },
  };
  return `${sanitizeJson(JSON.stringify(line))}\n`;
}

/** What follows an error's message when an HTTP answer caused it: ` (HTTP 503, correlation id …)`. */
export function httpSuffix(error: unknown): string {
  const http = error instanceof CliError ? error.http : undefined;
  return http ? ` (HTTP ${http.status}${http.correlationId ? `, correlation id ${http.correlationId}` : ''})` : '';
}

/** What an error says: a CliError's message, or anything else as an internal error. */
export function messageOf(error: unknown): string {
  return error instanceof CliError ? error.message : `internal error: ${(error as Error)?.message ?? String(error)}`;
}
