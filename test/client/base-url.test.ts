// Base URL normalisation, and http:// only to loopback (by address, never by a look-alike name).
import { describe, expect, it } from 'vitest';
import { isLoopback, normaliseBaseUrl } from '../../src/core/base-url.js';
import { UsageError } from '../../src/core/errors.js';

describe('normaliseBaseUrl', () => {
  it('treats the origin and the /api/v1 prefix, with or without a slash, as the same API', () => {
    for (const url of [
      'https://api.example.com',
      'https://api.example.com/',
      'https://api.example.com/api/v1',
      'https://api.example.com/api/v1/',
      ' https://API.example.com//',
    ]) {
      expect(normaliseBaseUrl(url)).toBe('https://api.example.com');
    }
  });

  it('keeps a path prefix before /api/v1, and the port', () => {
    expect(normaliseBaseUrl('https://example.com:8443/data/api/v1/')).toBe('https://example.com:8443/data');
    expect(normaliseBaseUrl('https://example.com:443/')).toBe('https://example.com');
  });

  it.each([
    ['http://127.0.0.1', 'http://127.0.0.1'],
    ['http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010'],
    ['http://127.8.9.10/', 'http://127.8.9.10'],
    ['http://[::1]:4010', 'http://[::1]:4010'],
    ['http://[::1]', 'http://[::1]'],
    ['http://localhost', 'http://localhost'],
    ['http://LOCALHOST:80/', 'http://localhost'],
  ])('allows plain http to loopback: %s', (url, normalised) => {
    expect(normaliseBaseUrl(url)).toBe(normalised);
  });

  it.each([
    [
      'http://localhost.evil.com',
      'refusing plain http:// to localhost.evil.com: the API key would cross the network in clear; use https://',
    ],
    [
      'http://127.0.0.1.nip.io',
      'refusing plain http:// to 127.0.0.1.nip.io: the API key would cross the network in clear; use https://',
    ],
    [
      'http://api.example.com/api/v1',
      'refusing plain http:// to api.example.com: the API key would cross the network in clear; use https://',
    ],
    [
      'http://10.0.0.1',
      'refusing plain http:// to 10.0.0.1: the API key would cross the network in clear; use https://',
    ],
    ['http://[::2]', 'refusing plain http:// to [::2]: the API key would cross the network in clear; use https://'],
    ['http://user:pw@127.0.0.1', 'the base URL must not contain a user name or password: the key is sent in a header'],
    [
      'https://user@api.example.com',
      'the base URL must not contain a user name or password: the key is sent in a header',
    ],
    ['ftp://api.example.com', "base URL 'ftp://api.example.com' must start with https://"],
    ['api.example.com', "base URL 'api.example.com' is not a URL: use https://host or https://host/api/v1"],
    ['https://api.example.com/?key=1', "base URL 'https://api.example.com/?key=1' must not have a query or fragment"],
  ])('refuses %s', (url, message) => {
    let error: unknown;
    try {
      normaliseBaseUrl(url);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(message);
    expect((error as UsageError).exitCode).toBe(2);
  });
});

describe('isLoopback', () => {
  it('goes by address', () => {
    expect(['localhost', '127.0.0.1', '127.255.255.254', '[::1]'].map(isLoopback)).toEqual([true, true, true, true]);
    // `localhost.` is a fully qualified name a resolver may send to DNS: not loopback by address.
    expect(
      ['localhost.', 'localhost.evil.com', '127.0.0.1.nip.io', '128.0.0.1', '[::2]', 'evil-localhost', '::1'].map(
        isLoopback,
      ),
    ).toEqual([false, false, false, false, false, false, false]);
  });
});
