// Which profiles `export --profiles` / `--all-profiles` exports, and `--shard I/N`
// (src/export/profiles/select.ts, shard.ts): the selection's names and shell patterns, its
// usage errors, and the FNV-1a shard with docs/many-profiles.md's worked values. In-process and
// without a sandbox; test/export/profiles.test.ts runs the same through `export`.
import { describe, expect, it } from 'vitest';
import { globMatcher, selectProfiles } from '../../src/export/profiles/select.js';
import { fnv1a32, inShard, MAX_SHARDS, parseShard, shardOf } from '../../src/export/profiles/shard.js';

const LIST_HINT =
  "`cdata profile list` shows the profiles; quote a pattern so the shell leaves it alone: --profiles 'client-*'.";
const SHARD_HINT =
  'I counts from 1. A Kubernetes Indexed Job counts JOB_COMPLETION_INDEX from 0: pass --shard "$((JOB_COMPLETION_INDEX + 1))/N".';

/** A usage error (exit 2) with exactly this message and hint. */
const usageError = (message: string, hint?: string) =>
  expect.objectContaining({ name: 'UsageError', exitCode: 2, message, hint });

/** The names of `names` that `glob` matches. */
const matched = (glob: string, names: string[]) => names.filter(globMatcher(glob));

describe('parseShard', () => {
  it('I/N with 1 <= I <= N <= 10000, blanks around either number allowed', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 3 /\t4 ')).toEqual({ index: 3, count: 4 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('4/4')).toEqual({ index: 4, count: 4 });
    expect(parseShard('12/345')).toEqual({ index: 12, count: 345 });
    expect(parseShard('10000/10000')).toEqual({ index: 10_000, count: 10_000 });
    expect(MAX_SHARDS).toBe(10_000);
  });

  it('anything else: a usage error quoting it (made safe), and the hint for a 0-based index', () => {
    for (const raw of [
      '0/4',
      '5/4',
      '1/0',
      '0/0',
      '1/10001',
      '4',
      '/4',
      '2/',
      'a/b',
      '-1/4',
      '1.5/4',
      '2/4x',
      'x2/4',
      '2 4',
      '',
    ]) {
      expect(() => parseShard(raw), raw).toThrow(
        usageError(`--shard must be I/N with 1 <= I <= N <= 10000, e.g. 2/4 (got '${raw}')`, SHARD_HINT),
      );
    }
    expect(() => parseShard('1/4\n\u001b[2J')).toThrow(
      usageError("--shard must be I/N with 1 <= I <= N <= 10000, e.g. 2/4 (got '1/4\\n\\x1b[2J')", SHARD_HINT),
    );
  });
});

describe('the shard hash (docs/many-profiles.md, "The hash")', () => {
  it('the documented worked values: FNV-1a 32-bit of the name, its shard of 4 and of 3', () => {
    const table: [string, number, number, number][] = [
      ['acme', 1174237615, 4, 2],
      ['client-a', 1794648824, 1, 3],
      ['client-b', 1844981681, 2, 3],
      ['default', 2470140894, 3, 1],
    ];
    for (const [name, hash, four, three] of table) {
      expect([fnv1a32(name), shardOf(name, 4), shardOf(name, 3)], name).toEqual([hash, four, three]);
    }
  });

  it("the hash of no bytes is FNV's offset basis; a name's UTF-8 bytes are hashed, not its UTF-16 units", () => {
    expect(fnv1a32('')).toBe(2166136261);
    // 'é' is two bytes in UTF-8 (c3 a9), one in Latin-1 (e9).
    expect(fnv1a32('é')).toBe(513665217);
  });

  it('one shard of N holds a name: 1-based, so shard 1 of 1 holds every name', () => {
    expect(shardOf('acme', 1)).toBe(1);
    expect(shardOf('acme', 7)).toBe(6);
    expect(inShard('acme', { index: 4, count: 4 })).toBe(true);
    expect(inShard('acme', { index: 3, count: 4 })).toBe(false);
    expect(inShard('default', { index: 1, count: 1 })).toBe(true);
  });
});

describe('selectProfiles', () => {
  const PROFILES = ['zeta', 'client-b', 'acme', 'shop-22', 'client-a', 'shop-1', 'client-c'];

  it('--all-profiles: every profile, in code-point order of the names, not the locale order', () => {
    expect(selectProfiles(PROFILES, undefined, undefined)).toEqual([
      'acme',
      'client-a',
      'client-b',
      'client-c',
      'shop-1',
      'shop-22',
      'zeta',
    ]);
    // '-' < '1' < '_' by code point; a locale's collation puts '_' first.
    expect(selectProfiles(['client_b', 'client1', 'client-a'], undefined, undefined)).toEqual([
      'client-a',
      'client1',
      'client_b',
    ]);
  });

  it('leaves the list it is given as it was', () => {
    const profiles = ['b', 'a'];
    selectProfiles(profiles, undefined, undefined);
    expect(profiles).toEqual(['b', 'a']);
  });

  it('names and patterns, comma-separated and trimmed: each profile once, in the order of the names', () => {
    expect(selectProfiles(PROFILES, 'client-*', undefined)).toEqual(['client-a', 'client-b', 'client-c']);
    expect(selectProfiles(PROFILES, 'zeta,client-[ac],shop-?', undefined)).toEqual([
      'client-a',
      'client-c',
      'shop-1',
      'zeta',
    ]);
    expect(selectProfiles(PROFILES, 'client-[!a]', undefined)).toEqual(['client-b', 'client-c']);
    expect(selectProfiles(PROFILES, ' acme , acme,a*', undefined)).toEqual(['acme']);
    expect(selectProfiles(PROFILES, 'shop-1', undefined)).toEqual(['shop-1']);
  });

  it('--shard I/N keeps, of those selected, the names that hash to shard I', () => {
    const names = ['acme', 'client-a', 'client-b', 'default'];
    expect(selectProfiles(names, undefined, { index: 1, count: 3 })).toEqual(['default']);
    expect(selectProfiles(names, undefined, { index: 2, count: 3 })).toEqual(['acme']);
    expect(selectProfiles(names, undefined, { index: 3, count: 3 })).toEqual(['client-a', 'client-b']);
    expect(selectProfiles(names, 'client-*,default', { index: 3, count: 3 })).toEqual(['client-a', 'client-b']);
    // A shard may hold none of them: not an error, the shard has nothing to do.
    expect(selectProfiles(names, 'acme', { index: 1, count: 3 })).toEqual([]);
  });

  it('a config without profiles: a usage error saying how to create one', () => {
    for (const selection of [undefined, '*']) {
      expect(() => selectProfiles([], selection, undefined)).toThrow(
        usageError(
          'there are no profiles to export: the config file holds none',
          'Create one per company with: echo "$KEY" | cdata auth login --profile NAME --base-url URL',
        ),
      );
    }
  });

  it('an empty item, a name that is no profile, or a pattern that matches none: a usage error', () => {
    for (const selection of ['acme,,zeta', 'acme,', ',acme', ' ', 'acme, ,zeta']) {
      expect(() => selectProfiles(PROFILES, selection, undefined), selection).toThrow(
        usageError(
          `--profiles takes profile names or patterns separated by commas, with none empty (got '${selection}')`,
        ),
      );
    }
    expect(() => selectProfiles(PROFILES, 'client-a,nosuch', undefined)).toThrow(
      usageError("no profile 'nosuch'", LIST_HINT),
    );
    expect(() => selectProfiles(PROFILES, 'shop-*,client-x*', undefined)).toThrow(
      usageError("no profile matches 'client-x*'", LIST_HINT),
    );
    expect(() => selectProfiles(PROFILES, '[z-a]*', undefined)).toThrow(
      usageError("no profile matches '[z-a]*'", LIST_HINT),
    );
    expect(() => selectProfiles(PROFILES, 'x?\u001b', undefined)).toThrow(
      usageError("no profile matches 'x?\\x1b'", LIST_HINT),
    );
    // A name, unlike a pattern, must be one a profile can have.
    expect(() => selectProfiles(PROFILES, 'Acme', undefined)).toThrow(
      usageError(
        "invalid profile name \"Acme\": use lowercase letters, digits, '-' and '_' (at most 64, starting with a letter or digit)",
      ),
    );
  });
});

describe('globMatcher: a shell pattern against a whole name', () => {
  it('a character as itself, the whole name: no regular-expression meaning, no partial match', () => {
    expect(matched('acme', ['acme', 'acme2', 'xacme', 'acm', ''])).toEqual(['acme']);
    expect(matched('a.c', ['a.c', 'abc'])).toEqual(['a.c']);
    expect(matched('', ['', 'a'])).toEqual(['']);
  });

  it('* any run of characters, none too; several in a row as one', () => {
    expect(matched('*', ['', 'a', 'client-a'])).toEqual(['', 'a', 'client-a']);
    expect(matched('a*', ['a', 'ab', 'abc', 'ba'])).toEqual(['a', 'ab', 'abc']);
    expect(matched('*a', ['a', 'ba', 'bab', 'aa'])).toEqual(['a', 'ba', 'aa']);
    expect(matched('a*b*c', ['abc', 'aXbYc', 'abbbc', 'acb', 'abcx', 'ab'])).toEqual(['abc', 'aXbYc', 'abbbc']);
    expect(matched('**b', ['b', 'ab', 'aab', 'aba'])).toEqual(['b', 'ab', 'aab']);
    expect(matched('a**', ['a', 'ab', 'b'])).toEqual(['a', 'ab']);
  });

  it('? exactly one character: a code point, not a UTF-16 unit', () => {
    expect(matched('a?', ['a', 'ab', 'abc', 'a😀'])).toEqual(['ab', 'a😀']);
    expect(matched('??', ['a', 'ab', 'abc', '😀'])).toEqual(['ab']);
  });

  it('[...] one of a set or a range, bounds included; [!...] or [^...] one not in it', () => {
    expect(matched('[a]', ['a', 'b', '[a]'])).toEqual(['a']);
    expect(matched('[ab]x', ['ax', 'bx', 'cx', 'x', 'abx'])).toEqual(['ax', 'bx']);
    // Each character of a set without a - is itself: not a range from the first to the last.
    expect(matched('[acz]', ['a', 'b', 'c', 'y', 'z'])).toEqual(['a', 'c', 'z']);
    expect(matched('[b-d]', ['a', 'b', 'c', 'd', 'e'])).toEqual(['b', 'c', 'd']);
    // The ! says "not": it is not one of the set.
    expect(matched('[!b-d]', ['!', 'a', 'b', 'c', 'd', 'e', ''])).toEqual(['!', 'a', 'e']);
    expect(matched('[^ab]', ['a', 'b', 'c'])).toEqual(['c']);
    expect(matched('[a-bx-y]', ['a', 'b', 'c', 'w', 'x', 'y', 'z'])).toEqual(['a', 'b', 'x', 'y']);
  });

  it('a range backwards holds nothing; a - first or last is itself; a ] first is in the set', () => {
    expect(matched('[z-a]', ['a', 'm', 'z', '-'])).toEqual([]);
    expect(matched('[-a]', ['-', 'a', 'b'])).toEqual(['-', 'a']);
    expect(matched('[a-]', ['-', 'a', 'b'])).toEqual(['-', 'a']);
    expect(matched('[]a]', [']', 'a', 'b'])).toEqual([']', 'a']);
    // After the ! or ^ of a set that negates, as bash and fnmatch read it.
    expect(matched('[!]a]', [']', 'a', 'b', '^'])).toEqual(['b', '^']);
    expect(matched('[^]a]', [']', 'a', 'b', '^'])).toEqual(['b', '^']);
  });

  it('a [ that opens no set is itself: none closes it, or only the ] right after it', () => {
    expect(matched('a[', ['a[', 'a'])).toEqual(['a[']);
    expect(matched('[a', ['[a', 'a'])).toEqual(['[a']);
    expect(matched('[]', ['[]', ']'])).toEqual(['[]']);
    expect(matched('[!]', ['[!]', 'x', '!'])).toEqual(['[!]']);
    expect(matched('x[]', ['x[]'])).toEqual(['x[]']);
    // The ] closes the set of the [ before it, not one of a character before that.
    expect(matched('a[bc]', ['ab', 'ac', 'a[bc]'])).toEqual(['ab', 'ac']);
  });

  it('a pattern of many stars against a long name that it does not match: at once', () => {
    const long = 'a'.repeat(64);
    expect(globMatcher(`${'*'.repeat(100_000)}x`)(long)).toBe(false);
    expect(globMatcher(`${'*a'.repeat(20)}x`)(long)).toBe(false);
    expect(globMatcher(`${'*a'.repeat(20)}`)(long)).toBe(true);
  });
});
