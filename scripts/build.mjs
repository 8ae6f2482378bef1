// Builds dist/ with esbuild: one bundle per entry, split into chunks so each command loads only
// what it uses (start-up is measured by `npm run bench`). Runtime dependencies are bundled, so the
// installed package needs no node_modules of its own. Type checking is tsc's job (npm test).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

rmSync(new URL('dist', root), { recursive: true, force: true });
await build({
  absWorkingDir: root.pathname,
  entryPoints: { cli: 'src/cli.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'linked',
  define: { __CDATA_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies (undici, cli-table3) call require() for Node's own modules.
  banner: { js: "import { createRequire as __cdataRequire } from 'node:module'; const require = __cdataRequire(import.meta.url);" },
  logLevel: 'warning',
});
