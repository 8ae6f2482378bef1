// The one function that turns an HTTP error answer into a typed error (as stripe-node's
// generateV1Error does), keeping the problem+json detail and the correlation id.
import { STATUS_CODES } from 'node:http';
import {
  AuthError,
  BadResponseError,
  type CliError,
  ForbiddenError,
  RateLimitError,
  UnavailableError,
  UsageError,
  type HttpDetail,
} from '../core/errors.js';
import { redactKeys } from '../config/key.js';
import { isJsonObject, parseJson } from '../core/json.js';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** An error answer's body past MAX_ERROR_BODY_BYTES, left unread (`body` is then empty). */
  bodyTooLarge?: boolean;
}

/**
 * `keyFrom`: where the key came from when not stored by auth login, so the hints say where to
 * change it: CDATA_API_KEY (which wins over a stored one), or the password manager a profile's
 * key command reads. `secrets`: what the request carried, redacted from all the answer says.
 * `baseUrl`: where the request went (normalised), for the errors a wrong one causes.
 */
/** Where a key came from, when not from auth login's store. */
export type KeyOrigin = 'env' | 'key-command';

const NEW_KEY_GOES: Record<KeyOrigin, string> = {
  env: 'put it in CDATA_API_KEY',
  'key-command': "put it where the profile's key command reads it",
};

export function errorFromAnswer(
  answer: HttpAnswer,
  extra: {
    retryAfter?: string;
    keyFrom?: KeyOrigin | undefined;
    /** The command that stores a new key in the profile in use (loginCommand). */
    login: string;
    secrets?: readonly string[];
    baseUrl?: string;
    /** The base URL came from --base-url (ApiClientOptions). */
    baseUrlFlag?: boolean | undefined;
  },
): CliError {
  const { login } = extra;
  const http = httpDetail(answer, extra.secrets);
  const detail = http.detail ?? http.title;
  const { status } = answer;
  if (status === 400) {
    return new UsageError(`the API rejected the request: ${detail}`, {
      http,
      hint: 'Fix the request; retrying it unchanged gives the same answer.',
    });
  }
  if (status === 401) {
    const hint =
      extra.keyFrom === 'env'
        ? 'Check the key in CDATA_API_KEY, or replace it there: it wins over any key stored with auth login.'
        : extra.keyFrom === 'key-command'
          ? "Check the key the profile's key command prints (the entry in your password manager), or replace it there."
          : `Check the key, or replace it: ${login} (or set CDATA_API_KEY).`;
    return new AuthError(detail, { http, hint });
  }
  if (status === 403) {
    const scope = /\b(graph|tenders|workspaces)\.read\b/.exec(detail)?.[0];
    const misplaced = scope ? undefined : misplacedBase(extra.baseUrl, extra.baseUrlFlag);
    if (misplaced)
      return new UsageError(`the base URL ${extra.baseUrl} does not lead to the API root: ${detail}`, {
        http,
        hint: misplaced,
      });
    return new ForbiddenError(detail, {
      http,
      hint: scope
        ? `A key's scopes are fixed when it is created: ask a company owner or admin for a new key with ${scope}, then ${extra.keyFrom ? NEW_KEY_GOES[extra.keyFrom] : `run ${login}`}.`
        : 'This method or endpoint is not open to API keys.',
    });
  }
  if (status === 404) {
    const base = extra.baseUrl === undefined ? 'the base URL' : `the base URL ${extra.baseUrl}`;
    return new UsageError(`${detail}: ${base} does not look like this API`, {
      http,
      hint: extra.baseUrlFlag ? 'Check the base URL given with --base-url.' : 'Check the base URL: cdata auth status.',
    });
  }
  if (status === 429) {
    return new RateLimitError(detail, {
      http,
      hint: extra.retryAfter ?? 'The server asked to wait but did not say how long: retry later.',
    });
  }
  if (status >= 500) {
    return new UnavailableError(detail, {
      http,
      hint: http.correlationId
        ? 'The service failed; if this persists, report the correlation id.'
        : 'The service (or a proxy before it) failed; if this persists, report the time it happened: the answer carried no correlation id.',
    });
  }
  return new BadResponseError(`unexpected answer: ${detail}`, { http });
}

/**
 * The advice when a base URL with a path is refused as "not open to API keys": cdata asks only for
 * the endpoints the reference lists, by GET, so under the API root no such refusal can come; it
 * means the path before /api/v1 is not the API's. (With no path, the refusal is the API's own
 * word about an endpoint, exit 4.)
 */
function misplacedBase(baseUrl: string | undefined, flag: boolean | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  const { origin, pathname } = new URL(baseUrl);
  if (pathname === '/' || pathname === '') return undefined;
  const from = flag ? 'It came from --base-url.' : 'cdata auth status shows where the base URL comes from.';
  return `The base URL is the API's origin (such as ${origin}), or that with /api/v1; the path ${pathname} before it is not the API's. ${from}`;
}

/**
 * What an answer says about itself: status, title, the problem's detail, the correlation id;
 * each without the `secrets` (a server may echo the key it was sent, in any of them).
 */
export function httpDetail(answer: HttpAnswer, secrets: readonly string[] = []): HttpDetail {
  const problem = answer.status >= 400 ? readProblem(answer) : {};
  const text = (value: string | undefined) => (value === undefined ? undefined : redactKeys(value, secrets));
  return {
    status: answer.status,
    // A body that is not problem+json (a proxy's HTML 502, a web server's 404): the reason phrase.
    title: text(problem.title) ?? STATUS_CODES[answer.status] ?? `HTTP ${answer.status}`,
    detail: text(problem.detail),
    correlationId: text(problem.correlationId ?? header(answer, 'x-correlation-id')),
  };
}

function readProblem(answer: HttpAnswer): { title?: string; detail?: string; correlationId?: string } {
  try {
    const body = parseJson(answer.body);
    if (!isJsonObject(body)) return {};
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    return { title: text(body.title), detail: text(body.detail), correlationId: text(body.correlationId) };
  } catch {
    return {};
  }
}

export function header(answer: Pick<HttpAnswer, 'headers'>, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
