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
    const pattern = globPattern(item);
    const found = known.filter((name) => pattern.test(name));
    if (found.length === 0) throw new UsageError(`no profile matches '${sanitize(item)}'`, { hint: LIST_HINT });
    for (const name of found) chosen.add(name);
  }
  return known.filter((name) => chosen.has(name));
}

const LIST_HINT =
  "`cdata profile list` shows the profiles; quote a pattern so the shell leaves it alone: --profiles 'client-*'.";

/**
 * A shell pattern as the shell matches a file name: `*` any run of characters, `?` one, `[...]`
 * one of a set or range (`[!...]` or `[^...]`: one not in it); anything else as itself. The
 * whole name must match.
 */
export function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        source += '\\[';
        continue;
      }
      let set = glob.slice(i + 1, end);
      const negated = set.startsWith('!') || set.startsWith('^');
      if (negated) set = set.slice(1);
      source += `[${negated ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
