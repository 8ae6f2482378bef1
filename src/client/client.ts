// The API client: one GET per call, with the key in X-API-Key, a whole-request deadline, retries
// for what may pass (5xx, timeouts, network errors) and never for what will not (400, 401, 403),
// one wait on 429 when Retry-After is short enough, and no redirects followed.
import { REDACTED_KEY, redactKeys, redactSecretsIn } from '../config/key.js';
import { LIMIT_MAX, type Endpoint } from '../core/endpoints.js';
import { BadResponseError, CliError, type HttpDetail, UnavailableError } from '../core/errors.js';
import type { Io } from '../io/index.js';
import { isJsonObject, JsonLimitError, jsonSyntaxProblem, parseJson } from '../core/json.js';
import type { JsonValue } from '../core/json-value.js';
import { errorFromAnswer, header, httpDetail, type HttpAnswer, type KeyOrigin } from './problem.js';
import { parseRetryAfter, waitsOut } from './retry-after.js';
import { AttemptTimeout, networkFailure } from './network-failure.js';
import { describeFailure } from './cause.js';
import { MAX_ERROR_BODY_BYTES } from './sizes.js';
import { AnswerCutShort, routeOf, type Transport } from './transport.js';
import type { RequestGate } from './gate.js';
import type { WaitObserver } from './waits.js';

export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 8000;

export interface ClientOptions {
  /** Normalised (see normaliseBaseUrl). */
  baseUrl: string;
  key: string;
  timeoutSeconds: number;
  retries: number;
  maxWaitSeconds: number;
  io: Io;
  userAgent: string;
  /** Makes the transport the requests go through (createTransport, or a test's). */
  transport: () => Promise<Transport>;
  /** Called with each trace line under --debug; the key is already redacted. */
  trace?: ((line: string) => void) | undefined;
  /**
   * Who is told of each wait (./waits.ts). Made when the first request is sent, so a display of
   * waits loads only for a command that sends one.
   */
  waits?: (() => Promise<WaitObserver>) | undefined;
  /** The key came from CDATA_API_KEY or a key command: a new one goes there, not through auth login. */
  keyFrom?: KeyOrigin | undefined;
  /** The command that stores a new key in the profile in use, for the hints (loginCommand). */
  login: string;
  /** The base URL came from --base-url: the hints name the flag, not `cdata auth status`. */
  baseUrlFlag?: boolean | undefined;
  /** The transport is shared with other clients (export --profiles): this client does not close it. */
  keepTransport?: boolean | undefined;
  /** Passed before each attempt (./gate.ts); none: every attempt goes at once. */
  gate?: RequestGate | undefined;
}

export interface ApiResult {
  data: JsonValue;
  /**
   * A list longer than the limit asked for (a server that ignores `limit`) is cut to that limit:
   * then how many rows came. The caller says so (a note); the size and value caps still refuse.
   */
  received?: number | undefined;
  correlationId: string | undefined;
  attempts: number;
}

export class ApiClient {
  /** Made on the first request, once for all that follow (export sends its lists at once). */
  private transport: Promise<Transport> | undefined;
  private observer: Promise<WaitObserver> | undefined;

  constructor(private readonly options: ClientOptions) {}

  /**
   * `large`: awaited once an answer's body passes LARGE_BODY_BYTES (sizes.ts), before the rest
   * is read; the time it takes does not count against the request's deadline.
   */
  async get(endpoint: Endpoint, query: Record<string, string>, large?: () => Promise<void>): Promise<ApiResult> {
    const waits = await (this.observer ??= this.options.waits?.() ?? Promise.resolve(() => undefined));
    try {
      return await this.send(endpoint, query, waits, large);
    } finally {
      waits({ kind: 'done', name: endpoint.name });
    }
  }

  private async send(
    endpoint: Endpoint,
    query: Record<string, string>,
    waits: WaitObserver,
    large: (() => Promise<void>) | undefined,
  ): Promise<ApiResult> {
    const { io, retries, maxWaitSeconds, baseUrl } = this.options;
    const url = `${baseUrl}${endpoint.path}${queryString(query)}`;
    const secrets = [this.options.key];
    // What an error answer's message and hints need, the same for every attempt.
    const { baseUrlFlag } = this.options;
    const errorContext = { keyFrom: this.options.keyFrom, login: this.options.login, secrets, baseUrl, baseUrlFlag };
    // A success is parsed inside the attempt, under its deadline, within the caps on size, values
    // and nesting; a list longer than the limit asked for is then cut to it.
    const read = (answer: HttpAnswer) =>
      isSuccess(answer.status) ? expectShape(endpoint, answer, secrets) : undefined;
    let waitedOn429 = false;
    const { name } = endpoint;
    const { host } = new URL(url);
    const attempts = retries + 1;
    // A retry is said before its wait, with its reason: the display shows it while it lasts.
    const backoff = async (attempt: number, reason: string, askedMs?: number) => {
      const delayMs = askedMs ?? backoffDelay(attempt, io.random());
      this.options.trace?.(`retrying in ${delayMs} ms after: ${reason}`);
      waits({ kind: 'retry', name, reason, delayMs, attempt: attempt + 1, attempts });
      await io.sleep(delayMs);
    };
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = retries - (attempt - 1);
      waits({ kind: 'request', name, host, attempt, attempts });
      let answer: HttpAnswer;
      let data: JsonValue | undefined;
      try {
        ({ answer, data } = await this.attempt(url, read, large));
      } catch (error) {
        // A bad answer (exit 7) is the server's word, not a failure to reach it: never retried.
        if (error instanceof CliError) throw error;
        // A refusal whose body broke off is still a refusal: its status decides (a 401 is not
        // retried towards a lock-out, a 429's Retry-After still counts).
        if (error instanceof AnswerCutShort && !isSuccess(error.answer.status)) {
          answer = error.answer;
        } else {
          const failure = networkFailure(error, url, {
            timeoutSeconds: this.options.timeoutSeconds,
            env: io.env,
            shown: baseUrlFlag ? '--base-url' : undefined,
            secrets,
          });
          // A body past the cap (exit 7) would only come again: only what may pass is retried.
          if (retriesLeft > 0 && failure instanceof UnavailableError) {
            await backoff(attempt, failure.message);
            continue;
          }
          throw withAttempts(failure, attempt);
        }
      }
      const { status } = answer;
      if (data !== undefined) {
        const correlationId = httpDetail(answer, secrets).correlationId;
        const limit = rowLimit(endpoint, query);
        if (limit !== undefined && Array.isArray(data) && data.length > limit) {
          return { data: data.slice(0, limit), received: data.length, correlationId, attempts: attempt };
        }
        return { data, correlationId, attempts: attempt };
      }
      if (status >= 300 && status < 400) {
        const location = header(answer, 'location');
        throw new BadResponseError(
          `the API redirected to ${location === undefined ? '(no location)' : redactKeys(location, secrets)}; cdata never follows redirects, so the key stays with ${host}`,
          {
            http: httpDetail(answer, secrets),
            hint: `Check the base URL (${baseUrlFlag ? '--base-url' : 'cdata auth status'}): it should be the API origin itself, with https://.`,
          },
        );
      }
      if (status === 429) {
        const wait = parseRetryAfter(header(answer, 'retry-after'), io.now());
        if (waitsOut(wait, maxWaitSeconds) && !waitedOn429) {
          waitedOn429 = true;
          waits({ kind: 'rate-limited', name, seconds: wait });
          await io.sleep(wait * 1000);
          attempt--; // a 429 wait is not one of the --retries
          continue;
        }
        throw errorFromAnswer(answer, {
          ...errorContext,
          retryAfter: retryAdvice(wait, maxWaitSeconds, waitedOn429, io.now()),
        });
      }
      if (status >= 500 && retriesLeft > 0) {
        // A 503's Retry-After says when the service expects to be back (RFC 9110): that wait,
        // when --max-wait allows it, in place of the backoff's, which would come back too soon.
        const asked = status === 503 ? parseRetryAfter(header(answer, 'retry-after'), io.now()) : undefined;
        if (waitsOut(asked, maxWaitSeconds)) await backoff(attempt, `HTTP 503, Retry-After ${asked} s`, asked * 1000);
        else await backoff(attempt, `HTTP ${status}`);
        continue;
      }
      throw withAttempts(errorFromAnswer(answer, errorContext), attempt);
    }
  }

  async close(): Promise<void> {
    if (!this.options.keepTransport) await (await this.transport)?.close();
  }

  /**
   * One request under one deadline (--timeout): connecting, the headers, the whole body, and
   * `read` (parsing a success) all count. The parse is synchronous, so no timer can cut it: it
   * is linear in a capped body instead (well under a second), and the deadline is checked after it.
   */
  private async attempt<T>(
    url: string,
    read: (answer: HttpAnswer) => T,
    large: (() => Promise<void>) | undefined,
  ): Promise<{ answer: HttpAnswer; data: T }> {
    const { io, key, timeoutSeconds, trace, gate } = this.options;
    const transport = await (this.transport ??= this.options.transport());
    // Waiting for the gate is not the answer's time: the deadline starts once the attempt may go.
    const leave = await gate?.enter();
    let status: number | undefined;
    const controller = new AbortController();
    const expire = (ms: number) => setTimeout(() => controller.abort(new AttemptTimeout()), ms);
    let deadline = expire(timeoutSeconds * 1000);
    const started = io.now();
    // Time spent waiting for the large turn is the caller's, not the server's: the deadline stops meanwhile.
    let waited = 0;
    const elapsed = () => io.now() - started - waited;
    const turn =
      large &&
      (async () => {
        clearTimeout(deadline);
        const from = io.now();
        try {
          await large();
        } finally {
          waited += io.now() - from;
          deadline = expire(Math.max(0, timeoutSeconds * 1000 - elapsed()));
        }
      });
    trace?.(`> GET ${url}`);
    if (trace) {
      const { proxy, bypassed } = routeOf(io.env, new URL(url));
      if (proxy) trace(`> through the proxy ${proxy.shown} (${proxy.variable})`);
      if (bypassed)
        trace(`> not through the proxy ${bypassed.proxy.shown} (${bypassed.proxy.variable}): ${bypassed.why}`);
    }
    trace?.(`> X-API-Key: ${REDACTED_KEY}`);
    try {
      let answer: HttpAnswer | undefined;
      try {
        answer = await transport.send({
          method: 'GET',
          url,
          headers: this.headers(key),
          signal: controller.signal,
          large: turn,
        });
      } catch (error) {
        if (error instanceof AnswerCutShort) answer = error.answer;
        trace?.(`< failed after ${elapsed()} ms: ${describeFailure(error)}`);
        throw error;
      } finally {
        status = answer?.status;
        leave?.(status, status === 429 ? parseRetryAfter(header(answer!, 'retry-after'), io.now()) : undefined);
      }
      // Shared with other requests: their answers that came in meanwhile are read (and their
      // places given to the next requests) before this one is parsed, rather than after.
      if (gate) await new Promise((resolve) => setImmediate(resolve));
      const size = answer.bodyTooLarge
        ? `a body over ${MAX_ERROR_BODY_BYTES / 1024} KiB, not read`
        : `${answer.body.length} bytes`;
      trace?.(`< HTTP ${answer.status} in ${elapsed()} ms, ${size}`);
      for (const name of ['content-type', 'x-correlation-id', 'retry-after', 'location']) {
        const value = header(answer, name);
        if (value !== undefined) trace?.(`< ${name}: ${redactKeys(value, [key])}`);
      }
      const data = read(answer);
      if (elapsed() > timeoutSeconds * 1000) throw new AttemptTimeout();
      return { answer, data };
    } finally {
      clearTimeout(deadline);
    }
  }

  private headers(key: string): Record<string, string> {
    return { 'X-API-Key': key, Accept: 'application/json', 'User-Agent': this.options.userAgent };
  }
}

/** Full-jitter exponential backoff: a random wait up to min(cap, base * 2^(attempt-1)). */
function backoffDelay(attempt: number, random: number): number {
  return Math.round(random * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)));
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** The most rows a list may hold: the limit asked for (where the list takes one), else the API's own cap. */
function rowLimit(endpoint: Endpoint, query: Record<string, string>): number | undefined {
  if (endpoint.shape !== 'list') return undefined;
  const asked = endpoint.params.some((param) => param.kind === 'limit') ? Number(query.limit) : NaN;
  return Number.isInteger(asked) && asked > 0 ? Math.min(asked, LIMIT_MAX) : LIMIT_MAX;
}

function queryString(query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search ? `?${search}` : '';
}

/**
 * The promised JSON shape, without the secrets the request carried, or a bad-response error
 * saying what came instead (what it quotes of the body redacted before it is cut to a preview).
 */
function expectShape(endpoint: Endpoint, answer: HttpAnswer, secrets: readonly string[]): JsonValue {
  const http = httpDetail(answer, secrets);
  const type = header(answer, 'content-type') ?? '';
  // Redacted whole, then cut: a key cut in two by the preview's end would no longer be found.
  const preview = () => JSON.stringify(redactKeys(answer.body, secrets).slice(0, PREVIEW_LENGTH));
  if (type !== '' && !/\bjson\b/i.test(type)) {
    throw new BadResponseError(
      `expected JSON from ${endpoint.path} but got ${redactKeys(type, secrets)}: ${preview()}`,
      {
        http,
        hint: 'A proxy or captive portal may be answering instead of the API; check the base URL and proxy settings.',
      },
    );
  }
  let data: JsonValue;
  try {
    data = parseJson(answer.body);
  } catch (error) {
    if (error instanceof JsonLimitError) throw tooMuch(endpoint, error, http);
    throw new BadResponseError(
      `the answer from ${endpoint.path} is not valid JSON (${jsonSyntaxProblem(error, answer.body)}): ${preview()}`,
      { http },
    );
  }
  const ok = endpoint.shape === 'list' ? Array.isArray(data) && data.every(isJsonObject) : isJsonObject(data);
  if (!ok) {
    throw new BadResponseError(
      `the answer from ${endpoint.path} is not ${endpoint.shape === 'list' ? 'a JSON array of objects' : 'a JSON object'} as the API promises: ${preview()}`,
      { http },
    );
  }
  return redactSecretsIn(data, secrets);
}

/** How much of a body an error quotes. */
const PREVIEW_LENGTH = 60;

/** A body past one of the parse limits: refused before it was built, saying which. */
function tooMuch(endpoint: Endpoint, error: JsonLimitError, http: HttpDetail): BadResponseError {
  return new BadResponseError(
    `the answer from ${endpoint.path} ${error.message}, far past any answer of this API: refused unread`,
    { http },
  );
}

function withAttempts(error: CliError, attempts: number): CliError {
  if (attempts > 1) error.message += ` (gave up after ${attempts} attempts)`;
  return error;
}

/** Ten years, in seconds: the longest Retry-After given a date in the hint. */
const MAX_DATED_WAIT = 10 * 366 * 86_400;

function retryAdvice(wait: number | undefined, maxWaitSeconds: number, waitedAlready: boolean, now: number): string {
  if (wait === undefined)
    return 'The API gave no usable Retry-After: wait before retrying, and check the key (failed authentication locks an address out).';
  // A wait past any sensible horizon (a broken server's 9999999999999) is neither dated nor
  // printed as a figure that could read 1e+23.
  const when =
    wait <= MAX_DATED_WAIT
      ? `${wait} s (at ${new Date(now + wait * 1000).toISOString().replace(/\.\d+Z$/, 'Z')})`
      : 'more than ten years, it says';
  const why = waitedAlready ? 'still rate limited after waiting once' : `longer than --max-wait ${maxWaitSeconds} s`;
  return `Retry after ${when}; ${why}. Too many failed authentications lock an address out for up to 15 minutes.`;
}
