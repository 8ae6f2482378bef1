// The flag parsers and the base-URL rules, for arbitrary input: they accept exactly what the
// contract says, and refuse everything else with a usage error (never a crash, never a request).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopback, normaliseBaseUrl } from '../../src/core/base-url.js';
import { parseLimit, parseTier } from '../../src/core/params.js';
import { parseFields } from '../../src/output/fields.js';
import { ENDPOINTS, fieldNames, LIMIT_MAX, LIMIT_MIN, TIERS } from '../../src/core/endpoints.js';
import { UsageError } from '../../src/core/errors.js';
import { seed, trials } from '../helpers/soak.js';

const RUNS = { numRuns: trials(150, 1000), seed: seed(20261125) };
const usageError = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return error instanceof UsageError;
  }
  return false;
};

describe('--limit', () => {
  const integers = fc.oneof(
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
    fc.integer({ min: -5, max: 260 }).map(String),
  );
  const anything = fc.oneof(
    fc.string(),
    integers.map((s) => ` ${s} `),
    integers.map((s) => `+${s}`),
    fc.constantFrom('1.5', '1e2', '0x10', '', ' ', '١٢', '5abc', 'Infinity', 'NaN'),
  );

  it('accepts exactly optionally signed whole numbers, clamped into 1..200 with a note', () => {
    fc.assert(
      fc.property(anything, (raw) => {
        const text = raw.trim();
        if (!/^[+-]?\d+$/.test(text)) {
          expect(usageError(() => parseLimit(raw))).toBe(true);
          return;
        }
        const n = BigInt(text);
        const limit = parseLimit(raw);
        const clamped = n < BigInt(LIMIT_MIN) || n > BigInt(LIMIT_MAX);
        expect(limit.value).toBe(clamped ? (n < 1n ? LIMIT_MIN : LIMIT_MAX) : Number(n));
        expect(limit.clampedFrom !== undefined).toBe(clamped);
      }),
      RUNS,
    );
  });
});

describe('--tier', () => {
  const spelled = fc.tuple(fc.constantFrom(...TIERS), fc.boolean(), fc.boolean()).map(([tier, lower, dashes]) => {
    const cased = lower ? tier.toLowerCase() : tier;
    return dashes ? cased.replace(/_/g, '-') : cased;
  });

  it('accepts the three tiers in any case with - for _, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.oneof(spelled, fc.string(), fc.constantFrom('RECOMMENDED ', 'STRETCHY', 'worth a look', 'WORTH__A_LOOK')),
        (raw) => {
          const canonical = raw.trim().toUpperCase().replace(/-/g, '_');
          if ((TIERS as readonly string[]).includes(canonical)) expect(parseTier(raw)).toBe(canonical);
          else expect(usageError(() => parseTier(raw))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

describe('--fields', () => {
  it('accepts any order of any subset of the fields, without repeats; refuses unknown, empty and repeated names', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINTS),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.oneof(fc.constant(undefined), fc.string(), fc.constant('')),
        (endpoint, seed, intruder) => {
          const names = fieldNames(endpoint);
          const chosen = fc.sample(fc.shuffledSubarray(names, { minLength: 1 }), { seed, numRuns: 1 })[0]!;
          expect(parseFields(endpoint, chosen.join(','))).toEqual(chosen);
          if (intruder !== undefined && !names.includes(intruder.trim())) {
            expect(usageError(() => parseFields(endpoint, [...chosen, intruder].join(',')))).toBe(true);
          }
          expect(usageError(() => parseFields(endpoint, [...chosen, chosen[0]].join(',')))).toBe(true);
        },
      ),
      { numRuns: trials(100, 600), seed: seed(20261125) },
    );
  });
});

describe('base URLs', () => {
  it('https://H, https://H/, https://H/api/v1 and https://H/api/v1/ are the same API', () => {
    fc.assert(
      fc.property(fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), (host, port) => {
        const origin = `https://${host}${port ? `:${port}` : ''}`;
        // Runs of slashes are one: //api/v1 once sent every request to //api/v1/..., refused as
        // not open to keys (exit 4, blaming the key).
        const forms = ['', '/', '/api/v1', '/api/v1/', '//api/v1', '//api//v1//'].map((path) =>
          normaliseBaseUrl(`${origin}${path}`),
        );
        expect(new Set(forms).size).toBe(1);
      }),
      RUNS,
    );
  });

  it('plain http is refused for every name that is not loopback, however it looks', () => {
    const lookalikes = fc.oneof(
      fc.domain(),
      fc.constantFrom(
        'localhost.',
        'localhost.evil.com',
        '127.0.0.1.nip.io',
        '127.0.0.1.evil.com',
        'localhost.localdomain.evil',
        'localhostx',
        '128.0.0.1',
        '0.0.0.0',
        '[::2]',
        '[::ffff:127.0.0.1]',
        '10.0.0.1',
      ),
      fc.domain().map((d) => `127.0.0.1.${d}`),
      fc.domain().map((d) => `localhost.${d}`),
    );
    fc.assert(
      fc.property(lookalikes, (host) => {
        expect(usageError(() => normaliseBaseUrl(`http://${host}/`))).toBe(true);
      }),
      RUNS,
    );
  });

  it('loopback is any 127.0.0.0/8 address however written, [::1] or localhost', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)), ([b, c, d]) => {
        for (const host of [
          `127.${b}.${c}.${d}`,
          String(0x7f000000 + b * 65536 + c * 256 + d),
          `0x7f.${b}.${c}.${d}`,
        ]) {
          expect(isLoopback(new URL(`http://${host}/`).hostname)).toBe(true);
          expect(normaliseBaseUrl(`http://${host}:4010/`)).toBe(`http://127.${b}.${c}.${d}:4010`);
        }
      }),
      RUNS,
    );
    for (const host of ['localhost', 'LOCALHOST', '[::1]', '[0:0:0:0:0:0:0:1]']) {
      expect(() => normaliseBaseUrl(`http://${host}:4010`)).not.toThrow();
    }
  });

  it('user information never makes a URL loopback, and is refused', () => {
    fc.assert(
      fc.property(fc.domain(), fc.constantFrom('127.0.0.1', 'localhost', 'user', 'u:p'), (host, userinfo) => {
        expect(usageError(() => normaliseBaseUrl(`http://${userinfo}@${host}/`))).toBe(true);
        expect(usageError(() => normaliseBaseUrl(`https://${userinfo}@${host}/`))).toBe(true);
      }),
      RUNS,
    );
    for (const url of [
      'http://127.0.0.1@evil.com/',
      'http://localhost:80@evil.com/',
      'http://evil.com#@127.0.0.1/',
      'http://evil.com\\@127.0.0.1/',
    ]) {
      expect(usageError(() => normaliseBaseUrl(url))).toBe(true);
    }
  });
});
