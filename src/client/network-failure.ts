// A request that got no answer, as one clean line and a hint: the cause told by what it is (a
// deadline, a refused connection, a name that does not resolve, TLS to a server speaking plain
// HTTP), never the raw text of the system or of OpenSSL. Retried only where retrying may help.
import { isIP } from 'node:net';
import { BadResponseError, CliError, EXIT, UnavailableError, UsageError } from '../core/errors.js';
import { describeFailure, rootCause, speaksPlainHttp, certificateProblem } from './cause.js';
import { httpDetail } from './problem.js';
import type { Env } from '../config/env.js';
import { AnswerCutShort, BodyTooLarge, ProxyRefused, routeOf, TunnelClosed } from './transport.js';

export class AttemptTimeout extends Error {
  constructor() {
    super('the --timeout deadline passed');
  }
}

/** What networkFailure says of a failure beside the failure itself. */
export interface FailureContext {
  timeoutSeconds: number;
  /** The environment the request went out with: its proxy, its extra CA certificates. */
  env: Env;
  /**
   * Where the user sees the base URL, for the hints: `cdata auth status shows it`, or
   * `--base-url` when the flag gave it (it is on the command line already).
   */
  shown?: string | undefined;
  /** Redacted from what an answer that came says (its correlation id). */
  secrets?: readonly string[];
}

/** The CliError for a failed attempt at `url`: an UnavailableError (exit 6) is worth retrying. */
export function networkFailure(
  error: unknown,
  url: string,
  { timeoutSeconds, env, shown = 'cdata auth status shows it', secrets = [] }: FailureContext,
): CliError {
  const target = new URL(url);
  const { host } = target;
  // The request went to a proxy, so what refused or failed to resolve may be the proxy.
  const viaProxy = routeOf(env, target).proxy !== undefined;
  if (error instanceof AttemptTimeout) {
    return new UnavailableError(`no complete answer from ${host} within ${timeoutSeconds} s (--timeout)`, {
      cause: error,
    });
  }
  // An answer came: its status (and correlation id) are said, as for any answer refused.
  if (error instanceof BodyTooLarge)
    return new BadResponseError(`${error.message} from ${host}`, {
      cause: error,
      http: httpDetail(error.answer, secrets),
    });
  if (error instanceof ProxyRefused) return proxyRefusal(error, target, shown);
  if (error instanceof TunnelClosed) {
    return new UnavailableError(error.message, {
      cause: error,
      hint: `The proxy may be overloaded, or refuse tunnels to ${target.hostname} without saying so: try again later, or ask its administrator (curl -v -x ${error.proxy.shown} ${target.origin} shows the same).`,
    });
  }
  if (error instanceof AnswerCutShort) {
    return new UnavailableError(`the answer from ${host} broke off before its end: ${describeFailure(error.cause)}`, {
      cause: error,
      http: httpDetail(error.answer, secrets),
      hint: 'The connection was cut mid-answer (the server, a proxy or the network); retrying usually helps.',
    });
  }
  const cause = rootCause(error);
  // The peer that refused or the name that failed, as the system saw them: a proxy's, when one is used.
  const peer =
    cause.address === undefined
      ? host
      : `${isIP(cause.address) === 6 ? `[${cause.address}]` : cause.address}${cause.port ? `:${cause.port}` : ''}`;
  const name = cause.hostname ?? target.hostname;
  const proxy = viaProxy ? ' and the proxy (HTTPS_PROXY, NO_PROXY)' : '';
  switch (cause.code) {
    case 'ECONNREFUSED':
      return new UnavailableError(`connection refused by ${peer}: nothing is listening on that port`, {
        cause: error,
        hint: `Check the host and port of the base URL (${shown})${proxy}, and that the server is running.`,
      });
    case 'ENOTFOUND':
      return new UnavailableError(`cannot resolve ${name}: no such host (DNS)`, {
        cause: error,
        hint: `Check the host name in the base URL for a typo (${shown})${proxy}; if it is right, this network cannot resolve it (a VPN may be needed).`,
      });
    case 'EAI_AGAIN':
      return new UnavailableError(`cannot resolve ${name} just now: the DNS lookup failed (EAI_AGAIN)`, {
        cause: error,
        hint: 'Check the network connection; a failure like this one usually passes.',
      });
  }
  if (speaksPlainHttp(cause)) {
    // Not retried: the same server answers the same way. The base URL is wrong, hence exit 2.
    return new UsageError(
      `${host} answered in plain HTTP, not the TLS that https:// needs: the base URL names a server or port without TLS`,
      {
        cause: error,
        hint: `Check the port (https is usually 443).${target.port ? ` A local server without TLS is reached as http://${host} (http:// is accepted for loopback only).` : ''}`,
      },
    );
  }
  const certificate = certificateProblem(cause, env);
  // Exit 6, but no UnavailableError: not retried, the same certificate comes until its CA is trusted.
  if (certificate)
    return new CliError(EXIT.unavailable, `cannot reach ${host}: ${certificate.why}`, {
      cause: error,
      hint: certificate.hint,
    });
  return new UnavailableError(`cannot reach ${host}: ${describeFailure(error)}`, {
    cause: error,
    hint: 'Check the base URL, your network and any proxy (HTTPS_PROXY, NO_PROXY).',
  });
}

/**
 * A proxy that would not open the tunnel. 407 (credentials) and 403 (its rules) are its settled
 * word on this proxy setting: exit 2, not retried, as a configuration to fix. Anything else (502:
 * it could not reach the host; 503) may pass: exit 6, retried.
 */
function proxyRefusal(error: ProxyRefused, target: URL, shown: string): CliError {
  const { proxy } = error;
  if (error.status === 407) {
    const example = proxy.shown.replace('//', '//USER:PASSWORD@');
    return new UsageError(error.message, {
      cause: error,
      hint: proxy.credentials
        ? `The proxy did not accept the user name and password in ${proxy.variable}: check them (as ${example}, with special characters percent-encoded, %40 for @).`
        : `The proxy wants a user name and password, and ${proxy.variable} holds none: give them as ${example} (special characters percent-encoded, %40 for @).`,
    });
  }
  if (error.status === 403) {
    return new UsageError(error.message, {
      cause: error,
      hint: `The proxy's rules do not let it connect to ${error.target}: ask its administrator to allow it, or, if ${target.hostname} is reachable without the proxy, add it to NO_PROXY.`,
    });
  }
  return new UnavailableError(error.message, {
    cause: error,
    hint: `The proxy could not reach ${target.hostname}: check the host in the base URL (${shown}); if it is right, the proxy's own network may be at fault.`,
  });
}
