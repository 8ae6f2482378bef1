// undici, and only here: one request with a deadline and a size cap, redirects never followed
// (a 3xx comes back as an answer). Proxies from HTTPS_PROXY/HTTP_PROXY/NO_PROXY in the Io's env.
// The API client sends GETs through it; webhook ping and check send signed POSTs.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import buildConnector from 'undici/lib/core/connect.js';
import type { Env } from '../config/env.js';
import { isLoopback } from '../core/base-url.js';
import type { HttpAnswer } from './problem.js';
import { errorCode, errorMessage, UsageError } from '../core/errors.js';
import { LARGE_BODY_BYTES, MAX_BODY_BYTES, MAX_ERROR_BODY_BYTES } from './sizes.js';

// undici's HTTP/1 client alone, through two of its internal modules rather than the package
// index (fetch, WebSocket, caches, mocks): ~50 ms of every command's start-up, measured in
// docs/performance.md. undici is pinned to an exact version, and scripts/build.mjs fails with a
// clear message if an upgrade moves or changes these modules (docs/development.md says what to do).

/** A success past MAX_BODY_BYTES: `answer` holds its status and headers, the body left unread. */
export class BodyTooLarge extends Error {
  constructor(
    message: string,
    readonly answer: HttpAnswer,
  ) {
    super(message);
  }
}

/**
 * The headers came, then the body broke off (a reset, a short Content-Length): not "cannot
 * reach". `answer` holds what came, so its status still counts (a 401 is still a 401).
 */
export class AnswerCutShort extends Error {
  constructor(
    readonly answer: HttpAnswer,
    override readonly cause: unknown,
  ) {
    super('the answer was cut short');
  }
}

/**
 * A proxy answered the CONNECT for a tunnel with something other than 200 (undici says only
 * `Proxy response (407) !== 200 when HTTP Tunneling`): which proxy, by the variable that named
 * it and without the credentials it may hold, and for which host. No `cause`: what undici said
 * adds nothing, and describeFailure would reach for it.
 */
export class ProxyRefused extends Error {
  constructor(
    readonly status: number,
    readonly proxy: ProxySetting,
    /** `host:port` the tunnel was asked for. */
    readonly target: string,
  ) {
    const answer = `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
    const refused = status === 407 || status === 403;
    super(
      `the proxy ${proxy.shown} (${proxy.variable}) ${refused ? 'refused the tunnel' : 'could not open a tunnel'} to ${target}: ${answer}`,
    );
  }
}

/**
 * The proxy closed the connection before it answered a CONNECT (overloaded, or refusing without
 * saying so). undici takes that for a socket to open again and does at once, in a loop of
 * thousands a second until the deadline: the request fails on the first instead.
 */
export class TunnelClosed extends Error {
  constructor(
    readonly proxy: ProxySetting,
    /** `host:port` the tunnel was asked for. */
    readonly target: string,
  ) {
    super(`the proxy ${proxy.shown} (${proxy.variable}) closed the connection without opening a tunnel to ${target}`);
  }
}

/** The proxy a request goes through, as its variable gives it. */
export interface ProxySetting {
  /** The variable it came from, as spelt in the environment (`HTTPS_PROXY`, `https_proxy`, …). */
  variable: string;
  /** Its scheme, host and port: never a user name or password it holds. */
  shown: string;
  /** Whether it holds a user name or password (sent to the proxy as Proxy-Authorization). */
  credentials: boolean;
}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Aborts the request, whether waiting for headers or reading the body. */
  signal: AbortSignal;
  /** Awaited once a success's body passes LARGE_BODY_BYTES, before more of it is read (the socket waits meanwhile). */
  large?: (() => Promise<void>) | undefined;
  /** The status and headers alone, the body left unread: a webhook delivery counts the status the receiver sent. */
  statusOnly?: boolean;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export interface TransportOptions {
  /**
   * How long a connection may take to be set up (TLS and a proxy's tunnel included), in ms: the
   * requests' own deadline (--timeout; a webhook delivery's 5 s), so that a longer one is not cut
   * at undici's 10 s, and a retry opens a new connection rather than waiting on a stuck one.
   */
  connectTimeoutMs: number;
  /**
   * The most open to one origin (export --profiles sets it to its --concurrency, so a pool of one
   * origin's connections never holds back requests the run lets through).
   */
  connections?: number;
}

/**
 * Makes the transport a command sends its requests through: createTransport (undici) unless a
 * test answers them in-process (test/helpers/http-mock.ts), as gh's httpmock does.
 */
export type TransportFactory = (env: Env, options: TransportOptions) => Transport;

export function createTransport(
  env: Env,
  { connectTimeoutMs, connections = AGENT_OPTIONS.connections }: TransportOptions,
): Transport {
  // undici's HTTP parser is WebAssembly: without it every request would fail as if the network did.
  if (!('WebAssembly' in globalThis))
    throw new UsageError(
      "this Node runs without WebAssembly, which cdata's HTTP client (undici) needs to read answers",
      { hint: 'Run it without --jitless (in NODE_OPTIONS, or on the node command line).' },
    );
  let direct: Agent | undefined;
  let viaProxy: Promise<Dispatcher> | undefined;
  // The proxied requests waiting for their answer's head: failed at once when a tunnel closes.
  const awaitingTunnels = new Set<() => void>();
  // Every socket this transport opened and that is still open: close() ends them all.
  const sockets = new Set<Socket>();
  const options = { ...AGENT_OPTIONS, connections };
  const dispatcherFor = (throughProxy: boolean): Promise<Dispatcher> | Dispatcher => {
    if (!throughProxy)
      return (direct ??= new Agent({ ...options, connect: ownedConnector(connectTimeoutMs, sockets) }));
    return (viaProxy ??= proxyAgent(env, options, { timeout: connectTimeoutMs, sockets }, () => {
      // An aborted request stays queued in undici until a connection is made, so the loop would
      // go on: the agent goes with its connections, and the next attempt gets a new one.
      const closing = viaProxy;
      viaProxy = undefined;
      for (const fail of awaitingTunnels) fail();
      void closing?.then((agent) => agent.destroy()).catch(() => undefined);
    }));
  };
  return {
    async send({ method, url, headers, body, signal, large, statusOnly }) {
      const target = new URL(url);
      const { origin, pathname, search } = target;
      const { proxy } = routeOf(env, target);
      // The variable this request goes through must be a proxy URL (exit 2 if not); one it does
      // not use (a socks5 http_proxy beside an HTTPS_PROXY) is none of its business.
      if (proxy) proxyUrl(env, proxy.variable.toUpperCase());
      const dispatcher = await dispatcherFor(proxy !== undefined);
      const attempt = new AbortController();
      const forward = () => attempt.abort(signal.reason);
      if (signal.aborted) forward();
      else signal.addEventListener('abort', forward, { once: true });
      const fail = () => proxy && attempt.abort(new TunnelClosed(proxy, hostPort(target)));
      if (proxy) awaitingTunnels.add(fail);
      // The deadline holds whatever undici does, should a proxy find another way into a loop.
      return untilAborted(attempt.signal, async () => {
        const response = await request
          .call(dispatcher, { origin, path: `${pathname}${search}`, method, headers, body, signal: attempt.signal })
          .catch((error: unknown) => {
            throw (proxy && tunnelRefusal(error, proxy, target)) ?? error;
          })
          .finally(() => awaitingTunnels.delete(fail));
        if (!statusOnly) return readAnswer(response, attempt.signal, large);
        response.body.on('error', () => undefined).destroy(); // nothing waits for it, nor for how it ends
        return { status: response.statusCode, headers: response.headers, body: '' };
      }).finally(() => signal.removeEventListener('abort', forward));
    },
    // Every answer has been read in full by now: closing abruptly loses nothing and spares the exit a wait.
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([direct?.destroy(), viaProxy?.then((p) => p.destroy())]);
    },
  };
}

/**
 * The whole body, as text: up to MAX_BODY_BYTES for a success (more is BodyTooLarge), up to
 * MAX_ERROR_BODY_BYTES for anything else (more is dropped unread). Decoded chunk by chunk, so each
 * chunk's bytes can go once read, rather than all of them being held until joined and decoded.
 */
async function readAnswer(
  response: Dispatcher.ResponseData,
  signal: AbortSignal,
  large: (() => Promise<void>) | undefined,
): Promise<HttpAnswer> {
  const status = response.statusCode;
  const success = status >= 200 && status < 300;
  const cap = success ? MAX_BODY_BYTES : MAX_ERROR_BODY_BYTES;
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  const answer = (extra: Partial<HttpAnswer> = {}): HttpAnswer => ({
    status,
    headers: response.headers,
    ...extra,
    // What came so far, joined only when it is kept (a body past its cap is dropped unjoined).
    body: extra.body ?? parts.join('') + decoder.end(),
  });
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > cap) {
        response.body.destroy();
        if (success) throw new BodyTooLarge(`the answer is larger than ${cap / 1024 / 1024} MiB`, answer({ body: '' }));
        return answer({ body: '', bodyTooLarge: true });
      }
      if (large && success && size > LARGE_BODY_BYTES) {
        await large();
        large = undefined;
      }
      parts.push(decoder.write(chunk));
    }
  } catch (error) {
    if (error instanceof BodyTooLarge || signal.aborted) throw error;
    throw new AnswerCutShort(answer(), error);
  }
  return answer();
}

/** `work()`, or the signal's reason as soon as it aborts, whichever comes first. */
function untilAborted<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const done = work();
  done.catch(() => undefined); // settled after an abort: nobody is listening any more
  return Promise.race([done, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

type Connector = ReturnType<typeof buildConnector>;

/**
 * undici's connector with `timeout`, keeping each socket it opens in `sockets` until the socket
 * closes. undici's agents destroy only the sockets they hold: one still connecting (a TLS
 * handshake a server never finishes), or a proxy's connection whose tunnel is still being set
 * up, would keep the process alive after the command ended, until its timer fired.
 */
function ownedConnector(timeout: number, sockets: Set<Socket>): Connector {
  const connect = buildConnector({ timeout });
  return (options, callback) => {
    const socket = connect(options, callback);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
}

/** The whole-request deadline is ours (an AbortSignal); undici's own timeouts only back it up. */
const AGENT_OPTIONS = { headersTimeout: 0, bodyTimeout: 0, connections: 8 };

/** The name that sets `upper` (HTTPS_PROXY, NO_PROXY…) in `env`: upper case first, else lower. */
const proxyName = (env: Env, upper: string): string | undefined =>
  env[upper] ? upper : env[upper.toLowerCase()] ? upper.toLowerCase() : undefined;

function proxyVariable(env: Env, upper: string): string {
  const name = proxyName(env, upper);
  return name === undefined ? '' : env[name]!;
}

/** A proxy variable's value as a URL: `host:port` with no scheme is http://, as curl and Go read it. */
function withScheme(value: string): string {
  const url = value.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
}

/**
 * The proxy URL in HTTP_PROXY or HTTPS_PROXY (either case), or '' when unset. Anything but an
 * http:// or https:// URL with a host is exit 2 naming the variable (never its value, which may
 * hold a password): undici would fail each request with an internal error, or (socks5://) print
 * a warning of Node's and try a protocol the docs do not promise.
 */
function proxyUrl(env: Env, upper: string): string {
  const variable = proxyName(env, upper);
  if (variable === undefined) return '';
  const hint = `Set ${variable} to http://HOST:PORT (http://USER:PASSWORD@HOST:PORT when the proxy needs them, special characters percent-encoded), or unset it.`;
  let url: URL;
  try {
    url = new URL(withScheme(env[variable]!));
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new UsageError(`${variable} is not a proxy URL`, { hint });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(
      `${variable} names a ${url.protocol.slice(0, -1)} proxy (${url.protocol}//${url.host}): cdata reaches the API through an HTTP proxy's CONNECT tunnel only`,
      { hint },
    );
  if (url.hostname === '') throw new UsageError(`${variable} is not a proxy URL: it names no host`, { hint });
  return url.href;
}

/**
 * The proxy configured for `url`'s scheme (NO_PROXY and loopback aside: routeOf): for https,
 * HTTPS_PROXY and else HTTP_PROXY; for http, HTTP_PROXY. Each name in upper case first.
 */
function proxySetting(env: Env, url: URL): ProxySetting | undefined {
  const names =
    url.protocol === 'https:'
      ? ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']
      : ['HTTP_PROXY', 'http_proxy'];
  const variable = names.find((name) => env[name]);
  if (variable === undefined) return undefined;
  try {
    const proxy = new URL(withScheme(env[variable]!));
    return {
      variable,
      shown: `${proxy.protocol}//${proxy.host}`,
      credentials: proxy.username !== '' || proxy.password !== '',
    };
  } catch {
    return { variable, shown: '(not a URL)', credentials: false };
  }
}

/** undici's error for a proxy (`proxy`) that would not tunnel, as a ProxyRefused; undefined for any other. */
function tunnelRefusal(error: unknown, proxy: ProxySetting, url: URL): ProxyRefused | undefined {
  const status = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(errorMessage(error))?.[1];
  return status === undefined ? undefined : new ProxyRefused(Number(status), proxy, hostPort(url));
}

/** The proxy URL, or '' where the variable holds none: the request that would use it is refused in send. */
function unlessRefused(url: () => string): string {
  try {
    return url();
  } catch {
    return '';
  }
}

/** A URL's port, its scheme's default when it names none. */
const portOf = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** `host:port` of a URL, the port as a tunnel asks for it. */
const hostPort = (url: URL) => `${url.hostname}:${portOf(url)}`;

/** How a request to `url` goes: through `proxy`, or past the one `bypassed` names, and why. */
export interface Route {
  proxy?: ProxySetting;
  bypassed?: { proxy: ProxySetting; why: string };
}

/**
 * The proxy a request to `url` goes through, if any: the one its scheme's variable names, unless
 * the host is loopback (as Go's net/http and so gh decide: a proxy elsewhere cannot reach this
 * machine's loopback, and plain http to it would hand the key over in clear) or NO_PROXY covers
 * it. Decided here alone: the proxy agent is told of no NO_PROXY, and tunnels all it is given.
 */
export function routeOf(env: Env, url: URL): Route {
  const proxy = proxySetting(env, url);
  if (proxy === undefined) return {};
  if (isLoopback(url.hostname)) return { bypassed: { proxy, why: 'loopback is always reached directly' } };
  const entry = noProxyEntry(env, url);
  if (entry !== undefined) return { bypassed: { proxy, why: `${proxyName(env, 'NO_PROXY')} names ${entry}` } };
  return { proxy };
}

/**
 * The entry of NO_PROXY that covers `url`, as undici's EnvHttpProxyAgent reads it: entries
 * split at commas or spaces; `host` or `host:port`; `.host` and `*.host` the same as `host`,
 * which covers its subdomains too; the whole value `*` covers every host.
 */
function noProxyEntry(env: Env, url: URL): string | undefined {
  const value = proxyVariable(env, 'NO_PROXY');
  if (value.trim() === '*') return '*';
  // The host without its port, IPv6 brackets kept (as NO_PROXY writes one: [::1]:8080).
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = portOf(url);
  return value.split(/[,\s]/).find((entry) => {
    if (entry === '') return false;
    const [, name = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? [];
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    const covered = name.replace(/^\*?\./, '').toLowerCase();
    return host === covered || host.endsWith(`.${covered}`);
  });
}

/**
 * `timeout` for each connection to the proxy, and for the TLS inside each tunnel; `sockets` holds
 * the connections to the proxy (a tunnel is one of them), for close() to end. `tunnelClosed`:
 * called when the proxy closes a connection before answering its CONNECT.
 */
async function proxyAgent(
  env: Env,
  options: typeof AGENT_OPTIONS,
  { timeout, sockets }: { timeout: number; sockets: Set<Socket> },
  tunnelClosed: () => void,
): Promise<Dispatcher> {
  // The package index, not the module alone: ProxyAgent tunnels with Dispatcher#connect, which
  // the index attaches to the prototype. Only runs when a proxy is configured. Through `default`:
  // esbuild's chunk for a CommonJS package exports only that (Node's own loader gives both).
  const { EnvHttpProxyAgent, Pool } = (await import('undici')).default;
  return new EnvHttpProxyAgent({
    ...options,
    // The connections to the proxy, each a tunnel once it answers the CONNECT.
    clientFactory: (origin: URL, clientOptions: UndiciPool.Options) =>
      new Pool(origin, { ...clientOptions, connect: ownedConnector(timeout, sockets) }),
    requestTls: { timeout },
    // The pools of tunnelled origins are those whose connect is the proxy agent's own function.
    // A socket closed while it connects is, to undici, one to open again at once: here it is
    // the proxy's answer to the CONNECT, and the request fails on it (TunnelClosed).
    factory: (origin: string | URL, poolOptions: UndiciPool.Options) => {
      const pool = new Pool(origin, poolOptions);
      if (typeof poolOptions.connect === 'function')
        pool.on('connectionError', (_origin, _targets, error) => {
          if (errorCode(error) === 'UND_ERR_SOCKET') tunnelClosed();
        });
      return pool;
    },
    // Checked where used (send): one no request uses is left out, not refused.
    httpProxy: unlessRefused(() => proxyUrl(env, 'HTTP_PROXY')),
    httpsProxy: unlessRefused(() => proxyUrl(env, 'HTTPS_PROXY')),
    // routeOf has applied NO_PROXY: what comes here goes through the proxy.
    noProxy: '',
  });
}
