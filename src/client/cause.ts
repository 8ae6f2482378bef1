// What a failed request was, in the system's words: the error undici wraps, unwrapped. Its own
// module, without undici, so that code which only describes a failure (webhook delivery's
// messages) loads no HTTP client.
import type { Env } from '../config/env.js';

/** What a system error carries: its code and, where it has them, the peer and the name looked up. */
export interface SystemCause {
  message: string;
  code?: string | undefined;
  address?: string | undefined;
  port?: number | undefined;
  hostname?: string | undefined;
}

/** undici wraps the system error (octokit unwraps the same way): the real cause, innermost. */
export function rootCause(error: unknown): SystemCause {
  let current = error as (Partial<SystemCause> & { cause?: unknown }) | undefined;
  while (current?.cause && typeof current.cause === 'object') current = current.cause as typeof current;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return {
    message: text(current?.message) ?? String(error),
    code: text(current?.code),
    address: text(current?.address),
    port: typeof current?.port === 'number' ? current.port : undefined,
    hostname: text(current?.hostname),
  };
}

/** The real cause's message, and its code when the message does not say it. */
export function describeFailure(error: unknown): string {
  const { message, code } = rootCause(error);
  const words = code === undefined ? undefined : (IN_WORDS[code] ?? (code.startsWith('HPE_') ? NOT_HTTP : undefined));
  if (words) return `${words} (${code})`;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** What the system's or undici's codes mean, for those whose own text reads as jargon. */
const IN_WORDS: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while the request was sent',
  UND_ERR_SOCKET: 'the other side closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'the connection was not set up in time',
};
/** llhttp's codes (HPE_…): what came was not an HTTP/1.1 answer. */
const NOT_HTTP = 'what came back is not an HTTP/1.1 answer';

/**
 * A TLS handshake answered by a server speaking plain HTTP: its "HTTP/1.1 400" is read as a TLS
 * record, which OpenSSL calls a wrong version number (or, from some servers, a packet too long).
 */
export function speaksPlainHttp(cause: SystemCause): boolean {
  return (
    cause.code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    cause.code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' ||
    /wrong version number|packet length too long/i.test(cause.message)
  );
}

/** OpenSSL's codes for a certificate this machine does not trust (self-signed, an unknown CA). */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/**
 * A server whose certificate will not do, said in a line and a hint: one this machine does not
 * trust (most often a proxy that inspects TLS, or a receiver under development with a certificate
 * of its own), one for another host, one out of its dates. The same certificate comes at every
 * try, so none is retried.
 */
export function certificateProblem(cause: SystemCause, env: Env): { why: string; hint: string } | undefined {
  const never = 'cdata never turns certificate checks off.';
  if (cause.code === undefined) return undefined;
  // Node reads the file once, as it starts: a CA added to it later, or a file it could not read
  // (Node warns on stderr then), leaves the certificate untrusted although the variable is set.
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (UNTRUSTED.has(cause.code))
    return {
      why: `its certificate is not one this machine trusts (${cause.code})`,
      hint: extra
        ? `NODE_EXTRA_CA_CERTS is set (${extra}), but the CA that signed this certificate is not among those it gave Node: check that the file holds that CA, in PEM. ${never}`
        : `If that is expected (a proxy that inspects TLS, a server of your own), give Node the CA that signed it: NODE_EXTRA_CA_CERTS=/path/to/ca.pem. ${never}`,
    };
  if (cause.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return {
      why: `its certificate is for another host name (${cause.code})`,
      hint: `Check the host in the URL; a proxy that inspects TLS may show a certificate of its own. ${never}`,
    };
  if (cause.code === 'CERT_HAS_EXPIRED' || cause.code === 'CERT_NOT_YET_VALID')
    return {
      why: `its certificate ${cause.code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'} (${cause.code})`,
      hint: `The server's certificate must be renewed, or this machine's clock is wrong (date shows it). ${never}`,
    };
  return undefined;
}
