// undici, and only here: one request with a deadline and a size cap, redirects never followed
// (a 3xx comes back as an answer). Proxies from HTTPS_PROXY/HTTP_PROXY/NO_PROXY in the Io's env.
// The API client sends GETs through it; webhook ping and check send signed POSTs.
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import type { Env } from '../config/env.js';
import type { HttpAnswer } from './problem.js';

// undici parses HTTP with llhttp compiled to WebAssembly. By default V8 compiles it twice, the
// second time (optimised) in the background, and the process cannot exit until that finishes:
// ~80 ms added to every command for code that parses a few kilobytes. The baseline compiler
// alone is plenty. Measured in README "Performance".
setFlagsFromString('--liftoff-only');

/** Bodies above this are refused: the largest real answer (200 rows) is far below it. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Aborts the request, whether waiting for headers or reading the body. */
  signal: AbortSignal;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export function createTransport(env: Env): Transport {
  let dispatcher: Promise<Dispatcher> | undefined;
  return {
    async send({ method, url, headers, body, signal }) {
      dispatcher ??= dispatcherFor(env);
      const { origin, pathname, search } = new URL(url);
      const response = await request.call(await dispatcher, { origin, path: `${pathname}${search}`, method, headers, body, signal });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          response.body.destroy();
          throw new BodyTooLarge(`the answer is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
        }
        chunks.push(chunk);
      }
      return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
    },
    // Every answer has been read in full by now: closing abruptly loses nothing and spares the exit a wait.
    close: async () => (dispatcher ? (await dispatcher).destroy() : undefined),
  };
}

async function dispatcherFor(env: Env): Promise<Dispatcher> {
  // The whole-request deadline is ours (an AbortSignal); undici's own timeouts only back it up.
  const options = { headersTimeout: 0, bodyTimeout: 0, connections: 8 };
  const proxy = (upper: string) => env[upper] || env[upper.toLowerCase()] || '';
  const httpProxy = proxy('HTTP_PROXY');
  const httpsProxy = proxy('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return new Agent(options);
  // The package index, not the module alone: ProxyAgent tunnels with Dispatcher#connect, which
  // the index attaches to the prototype. Only runs when a proxy is configured.
  const { EnvHttpProxyAgent } = await import('undici');
  return new EnvHttpProxyAgent({ ...options, httpProxy, httpsProxy, noProxy: proxy('NO_PROXY') });
}
