// The words of an error, as every report of one uses them: its message, the `(HTTP …)` suffix,
// and the JSON line for -o json/ndjson. src/report.ts reports the error that ends a command;
// export reports each failed list with the same words.
import { redactKeys } from '../config/key.js';
import { CliError, errorMessage, EXIT_CODES, type ExitCode } from '../core/errors.js';
import { sanitizeJson } from '../core/sanitize.js';

/**
 * The error as one JSON line, for -o json/ndjson; `resource` names the list an export failed
 * on. Without the key, and with control characters escaped. Each text is redacted before the
 * line is serialised: redacting the JSON text instead would miss a key as JSON escapes it (a
 * `"` in the key) and could cut an escape in two, leaving a line that no longer parses.
 */
export function errorJsonLine(
  error: unknown,
  exitCode: ExitCode,
  secrets: readonly string[],
  resource?: string,
): string {
  const http = error instanceof CliError ? error.http : undefined;
  const text = (value: string | undefined) => (value === undefined ? null : redactKeys(value, secrets));
  const line = {
    error: {
      ...(resource === undefined ? {} : { resource: text(resource) }),
      status: http?.status ?? null,
      // A success that was not what it promised (too deep, too large) is no "OK": the exit code's title.
      title: text(
        (http && !(http.status >= 200 && http.status < 300) ? http.title : undefined) ?? EXIT_CODES[exitCode].title,
      ),
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
  return error instanceof CliError ? error.message : `internal error: ${errorMessage(error) ?? String(error)}`;
}
