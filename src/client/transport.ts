// undici, and only here: one GET with a deadline and a size cap, redirects never followed (a
// 3xx comes back as an answer). Proxies from HTTPS_PROXY/HTTP_PROXY/NO_PROXY in the Io's env.
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { Env } from '../config/env.js';
import type { HttpAnswer } from './problem.js';

/** Bodies above this are refused: the largest real answer (200 rows) is far below it. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export interface Transport {
  get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export function createTransport(env: Env): Transport {
  const dispatcher = dispatcherFor(env);
  return {
    async get(url, headers, signal) {
      const response = await request(url, { method: 'GET', headers, signal, dispatcher });
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
    close: () => dispatcher.close(),
  };
}

function dispatcherFor(env: Env): Dispatcher {
  // The whole-request deadline is ours (an AbortSignal); undici's own timeouts only back it up.
  const options = { headersTimeout: 0, bodyTimeout: 0, connections: 8 };
  const proxy = (upper: string) => env[upper] || env[upper.toLowerCase()] || '';
  const httpProxy = proxy('HTTP_PROXY');
  const httpsProxy = proxy('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return new Agent(options);
  return new EnvHttpProxyAgent({ ...options, httpProxy, httpsProxy, noProxy: proxy('NO_PROXY') });
}
