// Errors typed by whose fault they are, each carrying its exit code (docs/errors.md).
// Only src/cli.ts turns them into messages and codes.

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  rateLimited: 5,
  unavailable: 6,
  badResponse: 7,
  notFound: 8,
  incomplete: 9,
  profilesFailed: 10,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Each exit code's title (the JSON error line's `title` when no HTTP answer gave one) and meaning. */
export const EXIT_CODES: Record<ExitCode, { title: string; meaning: string }> = {
  [EXIT.ok]: { title: 'OK', meaning: 'success, also an empty list' },
  [EXIT.internal]: { title: 'Internal error', meaning: 'a bug in cdata; please report it' },
  [EXIT.usage]: {
    title: 'Usage error',
    meaning: 'bad flag or value, unknown command, server 400, no base URL, bad config file',
  },
  [EXIT.auth]: { title: 'Not authenticated', meaning: 'no key configured, a key command that failed, or 401' },
  [EXIT.forbidden]: {
    title: 'Forbidden',
    meaning: '403: the key lacks the scope, or the method or endpoint is not open to keys',
  },
  [EXIT.rateLimited]: { title: 'Rate limited', meaning: '429 with a Retry-After longer than --max-wait' },
  [EXIT.unavailable]: {
    title: 'Unavailable',
    meaning: 'connection refused or reset, DNS failure, timeout, 5xx after retries',
  },
  [EXIT.badResponse]: {
    title: 'Bad response',
    meaning: 'a 2xx that is not the promised JSON, or a redirect (never followed)',
  },
  [EXIT.notFound]: {
    title: 'Not found',
    meaning: 'no record with that key among the rows the API returns (at most 200)',
  },
  [EXIT.incomplete]: {
    title: 'Incomplete',
    meaning: 'an export committed, but rows created since the last one were lost at the 200-row cap',
  },
  [EXIT.profilesFailed]: {
    title: 'Some profiles failed',
    meaning: 'export --profiles: a profile failed or was skipped; the others are written',
  },
};

/** Details of an HTTP answer, when the error came from one. */
export interface HttpDetail {
  status: number;
  title: string;
  /** The API's own words (problem+json `detail`), when it sent a problem. */
  detail?: string | undefined;
  correlationId?: string | undefined;
}

export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly http: HttpDetail | undefined;
  /** Lines shown under the message as they are, e.g. an expression with a caret under a column. */
  readonly excerpt: readonly string[];

  constructor(
    exitCode: ExitCode,
    message: string,
    options: { hint?: string; http?: HttpDetail; cause?: unknown; excerpt?: readonly string[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = exitCode;
    this.hint = options.hint;
    this.http = options.http;
    this.excerpt = options.excerpt ?? [];
  }
}

type Options = ConstructorParameters<typeof CliError>[2];

/** A bug in cdata: exit 1, and the message asks for a report. */
export class InternalError extends CliError {
  override name = 'InternalError';
  constructor(message: string, options?: Options) {
    super(EXIT.internal, message, options);
  }
}

/** A bad flag, value or command, a server 400, missing or corrupt configuration: exit 2. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, options?: Options) {
    super(EXIT.usage, message, options);
  }
}

/** No key, or the server answered 401: exit 3. */
export class AuthError extends CliError {
  override name = 'AuthError';
  constructor(message: string, options?: Options) {
    super(EXIT.auth, message, options);
  }
}

/** The server answered 403: exit 4. */
export class ForbiddenError extends CliError {
  override name = 'ForbiddenError';
  constructor(message: string, options?: Options) {
    super(EXIT.forbidden, message, options);
  }
}

/** 429 whose Retry-After exceeds --max-wait (or is unusable): exit 5. */
export class RateLimitError extends CliError {
  override name = 'RateLimitError';
  constructor(message: string, options?: Options) {
    super(EXIT.rateLimited, message, options);
  }
}

/** The service could not be reached or kept failing (network, timeout, 5xx): exit 6. */
export class UnavailableError extends CliError {
  override name = 'UnavailableError';
  constructor(message: string, options?: Options) {
    super(EXIT.unavailable, message, options);
  }
}

/** A 2xx that is not the promised JSON, or any redirect: exit 7. */
export class BadResponseError extends CliError {
  override name = 'BadResponseError';
  constructor(message: string, options?: Options) {
    super(EXIT.badResponse, message, options);
  }
}

/** A record asked for by its key (`cdata tenders OCID`) is not among the rows the API returned: exit 8. */
export class NotFoundError extends CliError {
  override name = 'NotFoundError';
  constructor(message: string, options?: Options) {
    super(EXIT.notFound, message, options);
  }
}

export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof CliError ? error.exitCode : EXIT.internal;
}

/** The message of whatever was thrown: an Error's, else the thrown value as text. */
export function errorMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** The system error code of whatever was thrown (`ENOENT`, `EACCES`...), if it has one. */
export function errorCode(thrown: unknown): string | undefined {
  const code = thrown instanceof Error ? (thrown as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A hint for an error's options, when there is one (`{}` when not). */
export function hintOf(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}

/**
 * `check()`, whose usage error, when the value came from an environment variable (`variable`
 * set), says which: a bad CDATA_BASE_URL read as if typed on the command line left the user
 * looking at their flags.
 */
export function fromVariable<T>(variable: string | undefined, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (variable === undefined || !(error instanceof UsageError)) throw error;
    const where = `The value comes from ${variable}`;
    const hint = error.hint ? `${error.hint} (${where}.)` : `${where}: set it right, or unset it.`;
    throw new UsageError(error.message, { hint, cause: error });
  }
}
