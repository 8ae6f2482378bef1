import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Every timingSafeEqual call is recorded, to show it only ever compares equal lengths.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const { sign, verify } = await import('../../src/webhook/signature.js');

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const AT = Date.parse('2026-11-22T06:00:00.000Z');
const BODY = '{"type":"ping","timestamp":"2026-11-22T06:00:00.000Z"}';
/** HMAC-SHA256(SECRET, BODY), computed once with `openssl dgst -sha256 -hmac` and fixed here. */
const FIXED_VECTOR = 'a63661d54b80ff51361f80f057d12700f5d56240f306c98b381b73d8b9d7e7da';

const at = (iso: string) => `{"type":"ping","timestamp":"${iso}"}`;
const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
afterEach(() => timingSafeEqual.mockClear());

describe('sign', () => {
  it('matches a fixed vector and openssl, computed independently now', () => {
    expect(sign(SECRET, BODY)).toBe(FIXED_VECTOR);
    const openssl = execFileSync('openssl', ['dgst', '-sha256', '-hmac', 'whsec_another secret, with a space'], {
      input: '{"a":"é"}',
    })
      .toString()
      .trim()
      .split(' ')
      .pop();
    expect(sign('whsec_another secret, with a space', Buffer.from('{"a":"é"}'))).toBe(openssl);
  });

  it('is lowercase hex of 64 characters, over the raw bytes, keyed with the whole secret', () => {
    expect(sign(SECRET, BODY)).toMatch(/^[0-9a-f]{64}$/);
    expect(sign(SECRET, Buffer.from(BODY))).toBe(sign(SECRET, BODY));
    expect(sign(SECRET.slice('whsec_'.length), BODY)).not.toBe(sign(SECRET, BODY)); // the prefix is part of the key
  });
});

describe('verify', () => {
  const check = (body: string | Buffer, signature: string | undefined, now = AT, toleranceSeconds?: number) =>
    verify(SECRET, body, signature, { now, toleranceSeconds });

  it('accepts a correct delivery and returns the event', () => {
    expect(check(BODY, FIXED_VECTOR)).toEqual({
      ok: true,
      event: {
        type: 'ping',
        timestamp: '2026-11-22T06:00:00.000Z',
        body: { type: 'ping', timestamp: '2026-11-22T06:00:00.000Z' },
      },
    });
  });

  it.each([
    ['a wrong secret', (b: string) => verify('whsec_wrong', b, FIXED_VECTOR, { now: AT })],
    ['the secret with a trailing newline', (b: string) => verify(`${SECRET}\n`, b, FIXED_VECTOR, { now: AT })],
    ['one byte of the body changed', (b: string) => check(b.replace('ping', 'pinh'), FIXED_VECTOR)],
    ['the same JSON re-serialised', (b: string) => check(JSON.stringify(JSON.parse(b), null, 1), FIXED_VECTOR)],
    ['a trailing newline added to the body', (b: string) => check(`${b}\n`, FIXED_VECTOR)],
  ])('rejects %s as a bad signature (401)', (_name, attempt) => {
    const verdict = attempt(BODY);
    expect(verdict).toMatchObject({ ok: false, rejection: { reason: 'bad-signature', status: 401 } });
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['63 characters', FIXED_VECTOR.slice(1)],
    ['65 characters', `${FIXED_VECTOR}0`],
    ['uppercase', FIXED_VECTOR.toUpperCase()],
    ['non-hex', `${FIXED_VECTOR.slice(0, 63)}g`],
    ['with a sha256= prefix', `sha256=${FIXED_VECTOR}`],
    ['with spaces around', ` ${FIXED_VECTOR} `],
    ['base64 of the digest', Buffer.from(FIXED_VECTOR, 'hex').toString('base64')],
    ['very long', 'a'.repeat(100_000)],
  ])('rejects a signature %s as malformed (401), before any comparison', (_name, signature) => {
    const verdict = check(BODY, signature);
    expect(verdict).toMatchObject({ ok: false, rejection: { reason: 'malformed-signature', status: 401 } });
    expect(timingSafeEqual).not.toHaveBeenCalled();
  });

  it('compares only buffers of equal length', () => {
    check(BODY, FIXED_VECTOR);
    check(BODY, sign('whsec_other', BODY));
    for (const [a, b] of timingSafeEqual.mock.calls) expect((a as Buffer).length).toBe((b as Buffer).length);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
  });

  it('checks the signature before the JSON: a signed non-JSON body is bad JSON (400), an unsigned one a bad signature', () => {
    for (const body of ['not json', '[1,2]', '"ping"', 'null', '{"type":"ping"']) {
      expect(check(body, sign(SECRET, body))).toMatchObject({
        ok: false,
        rejection: { reason: 'bad-json', status: 400 },
      });
      expect(check(body, FIXED_VECTOR)).toMatchObject({ ok: false, rejection: { reason: 'bad-signature' } });
    }
    expect(
      check('{"timestamp":"2026-11-22T06:00:00.000Z"}', sign(SECRET, '{"timestamp":"2026-11-22T06:00:00.000Z"}')),
    ).toMatchObject({
      rejection: { reason: 'bad-json', message: 'the body has no event type' },
    });
  });

  it.each([
    ['299 s in the past', -299, true],
    ['299 s in the future', 299, true],
    ['exactly 300 s in the past', -300, true],
    ['301 s in the past', -301, false],
    ['301 s in the future', 301, false],
    ['a day old', -86_400, false],
  ])('a timestamp %s is %s', (_name, offsetSeconds, accepted) => {
    const body = at(new Date(AT + offsetSeconds * 1000).toISOString());
    const verdict = check(body, sign(SECRET, body));
    if (accepted) expect(verdict.ok).toBe(true);
    else expect(verdict).toMatchObject({ ok: false, rejection: { reason: 'stale-timestamp', status: 400 } });
  });

  it('a fraction of a second past the tolerance reads as more than it: 300.15 s is said as 301, not 300', () => {
    const body = at(new Date(AT - 300_150).toISOString());
    expect(check(body, sign(SECRET, body))).toMatchObject({
      rejection: { message: 'the timestamp is 301 s from now, more than the 300 s allowed (a replay?)' },
    });
  });

  it('honours another tolerance', () => {
    const body = at(new Date(AT - 60_000).toISOString());
    expect(check(body, sign(SECRET, body), AT, 30)).toMatchObject({ rejection: { reason: 'stale-timestamp' } });
    expect(check(body, sign(SECRET, body), AT, 60).ok).toBe(true);
  });

  it.each([
    ['missing', '{"type":"ping"}'],
    ['a number', '{"type":"ping","timestamp":1763791200}'],
    ['non-numeric text', '{"type":"ping","timestamp":"yesterday"}'],
    ['a date without a time', '{"type":"ping","timestamp":"2026-11-22"}'],
    ['an impossible date', '{"type":"ping","timestamp":"2026-13-45T99:00:00Z"}'],
    ['null', '{"type":"ping","timestamp":null}'],
  ])('rejects a timestamp that is %s (400)', (_name, body) => {
    expect(check(body, sign(SECRET, body))).toMatchObject({
      ok: false,
      rejection: { reason: 'missing-timestamp', status: 400 },
    });
  });

  it('accepts an unknown event type (receivers acknowledge and ignore it)', () => {
    const body = '{"type":"invoice.paid","timestamp":"2026-11-22T06:00:00Z","id":7}';
    expect(check(body, sign(SECRET, body))).toMatchObject({ ok: true, event: { type: 'invoice.paid' } });
  });
});
