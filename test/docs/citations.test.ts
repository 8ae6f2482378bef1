// Comments and docs cite files that are in the repository (docs/development.md, "Lint and format"):
// every path of ours named in src/, test/, scripts/, bin/, docs/ and README.md exists (an import's
// `.js` stands for its `.ts`), and none cites the product's contract files, which live outside
// the repository. A file moved or removed without its citations fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const SCANNED = ['src', 'test', 'scripts', 'bin', 'docs', 'README.md'];
const TEXT = /\.(ts|mjs|cjs|js|md|json|sh)$/;

/**
 * A path of ours as text: one of the repository's top folders, then a file name with an
 * extension; not inside a longer path (`cli-table3/src/utils.js` is a package's own file).
 */
const CITED =
  /(?<![\w./@-])((?:src|test|scripts|bin|docs|completions|man|\.ci)\/[\w./-]*\w\.(?:ts|mjs|cjs|js|md|json|sh|bash|zsh|fish|1))\b/g;

/** Removed in an earlier wave; docs/performance.md tells why, by name. */
const HISTORY = new Set(['bin/code-cache.cjs']);

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (TEXT.test(path)) return [full];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && TEXT.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each cited path that is not in the repository, as `file: path`. */
function missing(texts: readonly { file: string; text: string }[]): string[] {
  return texts.flatMap(({ file, text }) =>
    [...text.matchAll(CITED)]
      .map((match) => match[1]!)
      .filter((path) => !HISTORY.has(path) && !existsSync(join(ROOT, path)))
      .filter((path) => !(path.endsWith('.js') && existsSync(join(ROOT, path.replace(/\.js$/, '.ts')))))
      .map((path) => `${file}: ${path}`),
  );
}

describe('citations', () => {
  const texts = SCANNED.flatMap(files).map((full) => ({
    file: relative(ROOT, full),
    text: readFileSync(full, 'utf8'),
  }));

  it('reads the files it checks', () => {
    expect(texts.length).toBeGreaterThan(300);
    expect(texts.map(({ file }) => file)).toContain('src/commands/index.ts');
  });

  it('every path of ours that a comment or doc names is in the repository', () => {
    expect(missing(texts)).toEqual([]);
  });

  it("nothing cites the contract's own files, which are not in the repository", () => {
    const outside = texts.filter(({ text }) => /\b(PRODUCT|STYLE)\.md\b/.test(text)).map(({ file }) => file);
    expect(outside).toEqual([]);
  });

  it('the check finds a moved file, and passes over a package path and an import of a .ts', () => {
    // Spelled in parts, so that this file cites neither.
    const [moved, gone] = [['src', 'commands', 'registry', 'resource.ts'].join('/'), ['docs', 'nowhere.md'].join('/')];
    const text = [
      `// see ${moved} and ${gone}`,
      "import cliTableUtils from 'cli-table3/src/utils.js';",
      "import { main } from '../../src/cli.js'; // src/cli.js",
    ].join('\n');
    expect(missing([{ file: 'x.ts', text }])).toEqual([`x.ts: ${moved}`, `x.ts: ${gone}`]);
  });
});
