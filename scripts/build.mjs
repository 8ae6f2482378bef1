// Builds dist/ with esbuild: one bundle per entry, split into chunks so each command loads only
// what it uses (start-up is measured by `npm run bench`). Runtime dependencies are bundled, so the
// installed package needs no node_modules of its own. Type checking is tsc's job (npm test).
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkDeclarations } from './check-types.mjs';
import { checkUndiciInternals } from './check-undici.mjs';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

// Two Node modules the bundle would load on every command yet can never use: undici's HTTP/2
// client loads node:http2 (and with it TLS) at import though cdata never enables HTTP/2, and
// commander loads node:child_process for executable subcommands, which cdata does not have.
// Measured together at ~8 ms of every start-up; replaced by empty modules.
const neverUsed = {
  name: 'never-used-node-modules',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(http2|child_process)$/ }, (args) => ({ path: args.path, namespace: 'never-used' }));
    build.onLoad({ filter: /.*/, namespace: 'never-used' }, (args) => ({
      contents: `module.exports = { constants: {} }; // ${args.path}: never used by cdata`,
      loader: 'js',
    }));
  },
};

checkUndiciInternals(root, pkg.devDependencies.undici);
rmSync(new URL('dist', root), { recursive: true, force: true });
// The sandbox library's type declarations (package.json "exports"), written while esbuild bundles.
const declarations = promisify(execFile)(process.execPath, [fileURLToPath(new URL('node_modules/typescript/bin/tsc', root)), '-p', 'tsconfig.sandbox.json'], {
  cwd: fileURLToPath(root),
});
const { metafile } = await build({
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
  legalComments: 'none', // the licences of everything bundled go to dist/THIRD_PARTY_LICENSES.txt
  metafile: true,
  define: { __CDATA_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies (undici, cli-table3) call require() for Node's own modules.
  banner: { js: "import { createRequire as __cdataRequire } from 'node:module'; const require = __cdataRequire(import.meta.url);" },
  plugins: [neverUsed],
  logLevel: 'warning',
});

// The licences of the packages bundled into dist/ (MIT and ISC ask for their notice to travel
// with the code): each package's name, version, licence and the text of its LICENSE file.
const bundled = new Set();
for (const input of Object.keys(metafile.inputs)) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) bundled.add(input.slice(0, match.index + match[0].length));
}
const notices = [...bundled].sort().map((folder) => {
  const dir = new URL(folder, root);
  const info = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
  // LICENSE, LICENCE.md, LICENSE-MIT.txt, COPYING...: every such file (a dual licence has two).
  const files = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile() && /^(licen[cs]e|copying)/i.test(entry.name));
  const texts = files.map((entry) => entry.name).sort().map((name) => readFileSync(new URL(name, dir), 'utf8').trim());
  const text = texts.length > 0 ? texts.join('\n\n') : `${info.license} (the package ships no licence file)`;
  return `${info.name} ${info.version} (${info.license})\n${'-'.repeat(72)}\n${text}\n`;
});
writeFileSync(
  new URL('dist/THIRD_PARTY_LICENSES.txt', root),
  `cdata bundles these packages into dist/. Their licences follow.\n\n${[...new Set(notices)].join('\n')}`,
);
if (!existsSync(new URL('LICENSE', root))) throw new Error('LICENSE is missing');

// Only the declarations the public module reaches are kept, and none may name a package an
// integrator's install lacks.
await declarations.catch((error) => {
  throw new Error(`the sandbox's type declarations did not build:\n${error.stdout}${error.stderr}`);
});
const typesDir = fileURLToPath(new URL('dist/types/', root));
const kept = new Set(checkDeclarations(`${typesDir}sandbox/index.d.ts`));
for (const entry of readdirSync(typesDir, { recursive: true, withFileTypes: true })) {
  const path = `${entry.parentPath ?? entry.path}/${entry.name}`;
  if (entry.isFile() && !kept.has(path)) rmSync(path);
}
for (const folder of readdirSync(typesDir)) if (readdirSync(`${typesDir}${folder}`).length === 0) rmSync(`${typesDir}${folder}`, { recursive: true });

