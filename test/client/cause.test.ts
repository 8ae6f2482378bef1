// How a failure to reach a server is said (src/client/cause.ts): the system's and undici's codes
// that read as jargon in words, the code kept; any other as the system wrote it, with its code.
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/client/cause.js';

/** An error as undici throws it: its own, with the system's underneath as the cause. */
const failed = (message: string, code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

describe('describeFailure', () => {
  it.each([
    ['read ECONNRESET', 'ECONNRESET', 'the connection was reset (ECONNRESET)'],
    ['other side closed', 'UND_ERR_SOCKET', 'the other side closed the connection (UND_ERR_SOCKET)'],
    ['write EPIPE', 'EPIPE', 'the connection was closed while the request was sent (EPIPE)'],
    [
      'Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)',
      'HPE_INVALID_CONSTANT',
      'what came back is not an HTTP/1.1 answer (HPE_INVALID_CONSTANT)',
    ],
    ['getaddrinfo EAI_AGAIN api.example.com', 'EAI_AGAIN', 'getaddrinfo EAI_AGAIN api.example.com'],
    ['something new', 'E_NEW', 'something new (E_NEW)'],
  ])('%s (%s)', (message, code, said) => {
    expect(describeFailure(failed(message, code))).toBe(said);
  });
});
