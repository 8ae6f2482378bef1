// The sandbox library's declarations (dist/types, from tsconfig.sandbox.json) must name nothing
// an integrator's project lacks: the package installs with no dependencies (everything runtime
// is bundled into dist/), so a declaration reached from the public module may import only Node's
// own modules and other declarations here. Used by scripts/build.mjs after it writes them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export function checkDeclarations(entry) {
  const seen = new Set();
  const foreign = [];
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!existsSync(file)) throw new Error(`the sandbox's declarations are incomplete: ${file} is missing`);
    // Either quote: tsc writes an import's own quotes, and double quotes in `import("...")` types.
    for (const [, , spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*(['"])([^'"]+)\1/g)) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.d.ts')));
      else if (!spec.startsWith('node:')) foreign.push(`${relative(dirname(entry), file)} imports '${spec}'`);
    }
  };
  visit(entry);
  if (foreign.length > 0) {
    throw new Error(
      `the sandbox's public types reach a package an integrator does not install (cdata has no dependencies): ${foreign.join('; ')}. Import its types from a module of types only (as core/json-value.ts is).`,
    );
  }
  return [...seen];
}
