// Taking over a folder written before generations (layout.ts): plain files tenders.csv,
// manifest.json. They become the current generation first, content unchanged, and only then
// does the export write its own: so no reader sees a new file beside the old manifest, even
// during the one run that changes the layout.
//
// What is and is not atomic in that run: the plain files go into a generation (hard links, so
// the same content) that ..data is swapped to; then each plain file is replaced by its link, one
// rename per name. Between those renames some names are plain files and some links, but every
// one shows the content it showed before, so a reader sees the old export throughout; a kill
// there leaves it so, and the next export links the rest. Files no manifest names and that this
// export does not write (an older --stamp file) are not cdata's to move: they stay plain.
import { join } from 'node:path';
import type { Io } from '../io/index.js';
import { Generation } from './generation.js';
import { currentGeneration, isFileName, visible } from './layout.js';

/** Adopts the plain files among `names`; returns the current generation afterwards. */
export function adoptPlainFiles(
  dir: string,
  names: Iterable<string>,
  io: Pick<Io, 'onInterrupt'>,
  held: () => boolean,
): string | undefined {
  const current = currentGeneration(dir);
  const plain = [...new Set(names)].filter((name) => isFileName(name) && visible(dir, name) === 'file');
  if (plain.length === 0) return current;
  const generation = Generation.open(dir, current, io, held);
  try {
    for (const name of plain) generation.carry(name, join(dir, name));
    generation.carryRest(new Set());
    generation.commit(plain);
  } catch (error) {
    generation.abandon();
    throw error;
  }
  return generation.name;
}
