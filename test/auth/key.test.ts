import { describe, expect, it } from 'vitest';
import { keyProblem, maskKey, redactKeys } from '../../src/config/key.js';
import { demoKey } from '../../src/sandbox/keys.js';

describe('maskKey', () => {
  it('shows the first twelve characters of a key and …, as the Developers page lists keys', () => {
    expect(maskKey(demoKey('all'))).toBe(`${demoKey('all').slice(0, 12)}…`);
  });

  it('never shows more than half of a short key', () => {
    expect(maskKey('svc_abcdefgh')).toBe('svc_ab…');
    expect(maskKey('svc_a')).toBe('sv…');
  });
});

describe('keyProblem', () => {
  it('accepts every demo key', () => {
    for (const id of ['all', 'graph', 'tenders', 'workspaces', 'revoked'] as const)
      expect(keyProblem(demoKey(id))).toBeUndefined();
  });

  it('says what is wrong, never quoting the key', () => {
    for (const [bad, reason] of [
      ['', 'the key is empty'],
      ['sk_live_abcdef', "an API key starts with 'svc_'; this one does not"],
      ['svc_', "the key holds nothing after 'svc_'"],
      ['svc_ab cd', 'the key holds whitespace (was more than one line pasted?)'],
      ['svc_ab\u2028cd', 'the key holds whitespace (was more than one line pasted?)'],
      ['svc_ab\u0000cd', 'the key holds control characters'],
      ['svc_ab\u0085cd', 'the key holds control characters'],
      ['svc_ab\u009bcd', 'the key holds control characters'],
      ['svc_abé', 'the key holds characters other than printable ASCII'],
    ] as const) {
      expect(keyProblem(bad)).toBe(reason);
      if (bad.length > 4) expect(reason).not.toContain(bad.slice(4));
    }
  });
});

describe('redactKeys', () => {
  it('replaces every occurrence of every key, and leaves text without one as it was', () => {
    const [a, b] = [demoKey('all'), demoKey('graph')];
    expect(redactKeys(`${a} and ${b}, again ${a}`, [a, b])).toBe('svc_*** and svc_***, again svc_***');
    expect(redactKeys('no key here', [a])).toBe('no key here');
  });

  it('hides anything shaped like a key or a signing secret, known or not', () => {
    expect(redactKeys('unknown command svc_NeverIssuedNeverIssuedNeverIss', [])).toBe('unknown command svc_***');
    expect(redactKeys("'whsec_TypedOnTheCommandLine0123456789'", [])).toBe("'whsec_***'");
    expect(redactKeys('svc_live.AbCdEf0123456789xyz and svc_AbCdEf0123456789+xyz/Q=', [])).toBe('svc_*** and svc_***');
    // After a backslash escape too: printf '\nsvc_…' prints the key on a line of its own.
    expect(redactKeys("printf '\\nsvc_AbCdEf0123456789xyz\\n'", [])).toBe("printf '\\nsvc_***'");
  });

  it('keeps a long name that holds svc_ inside a word: a folder, an item in a password manager', () => {
    for (const text of [
      'cannot write /x/etl_svc_exports_nightly/out.csv: ENOTDIR',
      'op read op://Private/cdata_svc_production_apikey/credential',
    ])
      expect(redactKeys(text, [])).toBe(text);
  });

  it('keeps short svc_ names a user chose: a profile, a folder, the hint about the key format', () => {
    for (const text of [
      'profile svc_prod',
      'cannot write /srv/svc_etl/out.csv: EACCES',
      'the key is svc_ followed by letters and digits',
      'svc_***',
    ]) {
      expect(redactKeys(text, [])).toBe(text);
    }
  });

  it('ignores an empty key rather than splicing svc_*** between every character', () => {
    expect(redactKeys('abc', [''])).toBe('abc');
  });
});
