// "Did you mean …?" for a value typed wrong: the closest of the values it could have been, by
// edit distance (two letters swapped count as one edit), as commander suggests a command or an
// option. Case, and - against _, aside: `--tier recomended` finds RECOMMENDED.

/** Past this many edits a value is no longer a typo of another. */
const MAX_EDITS = 2;

/** The hint for `typed`: the candidates within two edits that share most of its letters; none, undefined. */
export function didYouMean(typed: string, candidates: readonly string[]): string | undefined {
  const found = closest(typed, candidates);
  if (found.length === 0) return undefined;
  return `Did you mean ${found.length === 1 ? found[0] : `one of ${found.join(', ')}`}?`;
}

/** The candidates nearest to `typed` (the fewest edits, ties all kept), in the order given. */
export function closest(typed: string, candidates: readonly string[]): string[] {
  const word = fold(typed);
  let best = MAX_EDITS + 1;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    const folded = fold(candidate);
    if (folded.length <= 1) continue; // no guessing from one letter
    const edits = editDistance(word, folded);
    const length = Math.max(word.length, folded.length);
    // As commander: more than 40% of the letters alike.
    if ((length - edits) / length <= 0.4) continue;
    if (edits < best) {
      best = edits;
      found = [candidate];
    } else if (edits === best) found.push(candidate);
  }
  return found;
}

const fold = (text: string) => text.toLowerCase().replaceAll('-', '_');

/** Insertions, deletions, substitutions and swaps of two neighbours, each one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_EDITS) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let edits = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        edits = Math.min(edits, d[i - 2]![j - 2]! + 1);
      d[i]![j] = edits;
    }
  return d[a.length]![b.length]!;
}

/**
 * Whether `typed` reads as `existing` with a slip of the fingers: two neighbouring letters
 * swapped (`prdo`), or one letter added or dropped (`prodd`, `stagin`). Not a letter or digit
 * changed, or a digit added: `client-b` beside `client-a`, `prod2` beside `prod` are names of
 * their own.
 */
export function isSlipOf(typed: string, existing: string): boolean {
  if (existing.length < 3 || typed === existing) return false;
  if (typed.length === existing.length) {
    const at = [...typed].flatMap((char, i) => (char === existing[i] ? [] : [i]));
    return (
      at.length === 2 &&
      at[1] === at[0]! + 1 &&
      typed[at[0]!] === existing[at[1]!] &&
      typed[at[1]!] === existing[at[0]!]
    );
  }
  const [longer, shorter] = typed.length > existing.length ? [typed, existing] : [existing, typed];
  if (longer.length !== shorter.length + 1) return false;
  for (let i = 0; i < longer.length; i++)
    if (longer.slice(0, i) + longer.slice(i + 1) === shorter) return /[a-z]/i.test(longer[i]!);
  return false;
}
