// Which profiles `export --profiles SELECTION` exports: names and shell-style patterns
// (`client-*`, `shop-?`, `[ab]-*`), comma-separated, matched against the config file's profiles;
// or every profile (--all-profiles). Then, with --shard I/N, only those whose name hashes to
// shard I (./shard.ts). Everything here is checked before any request: a name that is not a
// profile, or a pattern that matches none, is a usage error (a typo must not export nothing and
// succeed).
import { UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { checkProfileName } from '../../config/schema.js';
import { inShard, type Shard } from './shard.js';

const PATTERN_CHARACTERS = /[*?[]/;

/**
 * The profiles selected, in code-point order of their names, each once. `selection` undefined:
 * every profile (--all-profiles).
 */
export function selectProfiles(
  profiles: readonly string[],
  selection: string | undefined,
  shard: Shard | undefined,
): string[] {
  const known = [...profiles].sort(byCodePoint);
  if (known.length === 0) {
    throw new UsageError('there are no profiles to export: the config file holds none', {
      hint: 'Create one per company with: echo "$KEY" | cdata auth login --profile NAME --base-url URL',
    });
  }
  const chosen = selection === undefined ? known : matching(known, selection);
  return shard === undefined ? chosen : chosen.filter((name) => inShard(name, shard));
}

function matching(known: readonly string[], selection: string): string[] {
  const items = selection.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) {
    throw new UsageError(
      `--profiles takes profile names or patterns separated by commas, with none empty (got '${sanitize(selection)}')`,
    );
  }
  const chosen = new Set<string>();
  for (const item of items) {
    if (!PATTERN_CHARACTERS.test(item)) {
      const name = checkProfileName(item);
      if (!known.includes(name)) throw new UsageError(`no profile '${name}'`, { hint: LIST_HINT });
      chosen.add(name);
      continue;
    }
    const matcher = globMatcher(item);
    const found = known.filter(matcher);
    if (found.length === 0) throw new UsageError(`no profile matches '${sanitize(item)}'`, { hint: LIST_HINT });
    for (const name of found) chosen.add(name);
  }
  return known.filter((name) => chosen.has(name));
}

const LIST_HINT =
  "`cdata profile list` shows the profiles; quote a pattern so the shell leaves it alone: --profiles 'client-*'.";

/** One step of a pattern: a run of `*`, `?`, a set `[...]`, or a character as itself. */
type Token = { kind: 'star' } | { kind: 'one'; test: (c: string) => boolean };

/**
 * A shell pattern as the shell matches a file name: `*` any run of characters, `?` one, `[...]`
 * one of a set or range (`[!...]` or `[^...]`: one not in it; a range backwards, `[z-a]`, holds
 * nothing); anything else as itself. The whole name must match, by code points. Matched in
 * time linear in the name times the pattern, whatever the pattern (`********b`: a regular
 * expression of it backtracked for minutes, deaf to Ctrl-C).
 */
export function globMatcher(glob: string): (name: string) => boolean {
  const tokens = tokensOf(glob);
  return (name) => matches(tokens, [...name]);
}

function tokensOf(glob: string): Token[] {
  const chars = [...glob];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    // A set's `]` comes after at least one character, not counting a `!` or `^` that negates it
    // (`[]a]` and `[!]a]` hold `]`, as in the shell); without one, `[` is itself.
    const first = chars[i + 1] === '!' || chars[i + 1] === '^' ? i + 2 : i + 1;
    const end = c === '[' ? chars.indexOf(']', first + 1) : -1;
    if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one', test: () => true });
    else if (end !== -1) {
      let set = chars.slice(i + 1, end);
      const negated = set[0] === '!' || set[0] === '^';
      if (negated) set = set.slice(1);
      const inSet = setTest(set);
      tokens.push({ kind: 'one', test: (x) => inSet(x) !== negated });
      i = end;
    } else tokens.push({ kind: 'one', test: (x) => x === c });
  }
  return tokens;
}

/** Membership in a set's characters and ranges (`a-z`); a `-` first or last is itself. */
function setTest(set: readonly string[]): (c: string) => boolean {
  const singles = new Set<string>();
  const ranges: [number, number][] = [];
  for (let j = 0; j < set.length; j++) {
    if (set[j + 1] === '-' && j + 2 < set.length) {
      ranges.push([set[j]!.codePointAt(0)!, set[j + 2]!.codePointAt(0)!]);
      j += 2;
    } else singles.add(set[j]!);
  }
  return (c) => {
    if (singles.has(c)) return true;
    const code = c.codePointAt(0)!;
    return ranges.some(([low, high]) => code >= low && code <= high);
  };
}

/** The classic wildcard walk: on a mismatch, the last `*` takes one more character. */
function matches(tokens: readonly Token[], name: readonly string[]): boolean {
  let t = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token?.kind === 'one' && token.test(name[n]!)) {
      t++;
      n++;
    } else if (token?.kind === 'star') {
      star = t++;
      resume = n;
    } else if (star >= 0) {
      t = star + 1;
      n = ++resume;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
