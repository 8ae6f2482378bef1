// Builds dist/ with esbuild. Runtime dependencies are bundled, so the installed package needs no
// node_modules of its own; type checking is tsc's job (npm test).
//
//   dist/cli.cjs        the program: cdata's own code that most runs need, commander and
//                       lossless-json, one CommonJS file. Each command's handler is still
//                       evaluated only when it runs.
//   dist/<cold>.cjs     cdata's own code few runs need (export and changes, webhook, the sandbox,
//                       completion scripts, login, key commands, --query's checks), each file
//                       required when a run first needs it: scripts/cold-code.mjs.
//   dist/vendor/*.cjs   the large packages, each loaded only by the commands that use it: undici
//                       (requests), conf (config writes), csv-stringify, cli-table3 with chalk,
//                       @jmespath-community/jmespath (--query).
//   dist/query.cjs      a --query's evaluation, in a worker thread of its own (src/output/query/
//                       thread.ts): cdata's JSON and query code, requiring dist/vendor/jmespath.cjs.
//   dist/sandbox.js     the sandbox library, an ES module (package.json "exports": cdata/sandbox),
//                       and dist/types/ its declarations.
//
// CommonJS, and few files: Node's ES module loader and each module it resolves cost start-up
// that every command pays (docs/performance.md has the figures: `tenders -o json` 264 ms as 25
// split ES modules, 219 ms like this, with `node -e 0` at 122 ms).
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkDeclarations } from './check-types.mjs';
import { checkUndiciInternals } from './check-undici.mjs';
import { buildSplit } from './cold-code.mjs';
import { neverCalled, neverUsed } from './never-used.mjs';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

/**
 * The large packages, each its own file in dist/vendor/: what it holds, and the imports of
 * cdata's sources it answers (with the property of the file's exports each takes). `whole`: the
 * file is compiled whole where Node's compile cache is on (bin/start-up.cjs, requireWhole), after
 * the Node modules listed, which it requires as it loads.
 */
const VENDORS = {
  undici: {
    source:
      "module.exports = { Agent: require('undici/lib/dispatcher/agent.js'), request: require('undici/lib/api/api-request.js'), buildConnector: require('undici/lib/core/connect.js') };",
    answers: {
      'undici/lib/dispatcher/agent.js': '.Agent',
      'undici/lib/api/api-request.js': '.request',
      'undici/lib/core/connect.js': '.buildConnector',
    },
    // Every request: 4 ms of compiling at each run on Node 24 (bin/start-up.cjs).
    whole: ['node:http', 'node:assert', 'node:stream', 'node:stream/promises'],
  },
  // The whole package, for EnvHttpProxyAgent: only when a proxy is configured.
  'undici-proxy': { source: "module.exports = require('undici');", answers: { undici: '' } },
  conf: {
    source: "export { default } from 'conf';",
    answers: { conf: '.default' },
    // Its schema validation and migrations: cdata passes conf neither.
    neverCalled: { 'ajv/dist/2020.js': ['Ajv2020'], 'ajv-formats': [], semver: [] },
  },
  csv: { source: "export { stringify } from 'csv-stringify/sync';", answers: { 'csv-stringify/sync': '' } },
  table: {
    source:
      "export { default as Table } from 'cli-table3'; export { default as utils } from 'cli-table3/src/utils.js'; export { Chalk } from 'chalk';",
    answers: { 'cli-table3': '.Table', 'cli-table3/src/utils.js': '.utils', chalk: '' },
  },
  // Its CommonJS build, unmodified: only commands given --query load it.
  jmespath: {
    source: "module.exports = require('@jmespath-community/jmespath');",
    answers: { '@jmespath-community/jmespath': '' },
  },
};

/** Each vendored import in cdata's sources becomes a require of its file, resolved from dist/ at run time. */
const vendored = {
  name: 'vendored-packages',
  setup(build) {
    const answers = new Map(
      Object.entries(VENDORS).flatMap(([file, { answers }]) =>
        Object.entries(answers).map(([spec, property]) => [spec, [file, property]]),
      ),
    );
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      answers.has(args.path) ? { path: args.path, namespace: 'vendored' } : undefined,
    );
    build.onResolve({ filter: /^\.\/vendor\/|^\.\.\/bin\/start-up\.cjs$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
    // One module per file, which each import takes its property from: a file compiled whole goes
    // through requireWhole once.
    build.onResolve({ filter: /^vendor-file:/ }, (args) => ({ path: args.path, namespace: 'vendored' }));
    build.onLoad({ filter: /^vendor-file:/, namespace: 'vendored' }, (args) => {
      const file = args.path.slice('vendor-file:'.length);
      const load = `require(${JSON.stringify(`./vendor/${file}.cjs`)})`;
      const { whole } = VENDORS[file];
      return {
        contents: whole
          ? `module.exports = require("../bin/start-up.cjs").requireWhole(() => ${load}, ${JSON.stringify(whole)});`
          : `module.exports = ${load};`,
        loader: 'js',
      };
    });
    build.onLoad({ filter: /.*/, namespace: 'vendored' }, (args) => {
      const [file, property] = answers.get(args.path);
      return { contents: `module.exports = require("vendor-file:${file}")${property};`, loader: 'js' };
    });
  },
};

const common = {
  absWorkingDir: root.pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none', // the licences of everything bundled go to dist/THIRD_PARTY_LICENSES.txt
  metafile: true,
  define: { __CDATA_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};

checkUndiciInternals(root, pkg.devDependencies.undici);
rmSync(new URL('dist', root), { recursive: true, force: true });
// The sandbox library's type declarations (package.json "exports"), written while esbuild bundles:
// tsc on tsconfig.sandbox.json. With --typecheck (npm test), tsc checks the whole project instead
// and writes every declaration to node_modules/.cache/cdata/checked/, incrementally, and those
// the sandbox's module reaches are copied from there: the test run type-checks once, not twice.
const TYPECHECK = process.argv.includes('--typecheck');
const checked = fileURLToPath(new URL('node_modules/.cache/cdata/checked/', root));
const tscArgs = TYPECHECK
  ? ['-p', 'tsconfig.json', '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--outDir', checked]
  : ['-p', 'tsconfig.sandbox.json'];
// rootDir pinned: the copy below finds src/ under the cache whatever tsconfig.json includes.
if (TYPECHECK) tscArgs.push('--rootDir', '.', '--incremental', '--tsBuildInfoFile', `${checked}.tsbuildinfo`);
const declarations = promisify(execFile)(
  process.execPath,
  [fileURLToPath(new URL('node_modules/typescript/bin/tsc', root)), ...tscArgs],
  { cwd: fileURLToPath(root) },
);
const results = await Promise.all([
  // dist/cli.cjs and the cold files beside it (scripts/cold-code.mjs).
  buildSplit(root, {
    ...common,
    plugins: [neverUsed, vendored],
    define: { ...common.define, __CDATA_QUERY_WORKER__: 'true' },
  }),
  build({
    ...common,
    entryPoints: { query: 'src/output/query/worker.ts' },
    outdir: 'dist',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    plugins: [vendored],
  }),
  ...Object.entries(VENDORS).map(([file, { source, neverCalled: unused = {} }]) =>
    build({
      ...common,
      stdin: { contents: source, resolveDir: root.pathname, loader: 'js' },
      outfile: `dist/vendor/${file}.cjs`,
      format: 'cjs',
      plugins: [neverUsed, neverCalled(unused)],
    }),
  ),
  build({
    ...common,
    entryPoints: { sandbox: 'src/sandbox/index.ts' },
    outdir: 'dist',
    format: 'esm',
    // A bundled CommonJS dependency would call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __cdataRequire } from 'node:module'; const require = __cdataRequire(import.meta.url);",
    },
  }),
]);
const programs = results[0];
results.splice(0, 1, ...programs);
const programInputs = programs.flatMap((result) => Object.keys(result.metafile.inputs));
const strays = programInputs.filter((input) =>
  Object.values(VENDORS).some(({ answers }) =>
    Object.keys(answers).some((spec) => input.includes(`node_modules/${spec.split('/')[0]}/`)),
  ),
);
if (strays.length > 0)
  throw new Error(`dist/cli.cjs or a cold file bundles what dist/vendor/ holds: ${strays.join(', ')}`);

// The licences of the packages bundled into dist/ (MIT and ISC ask for their notice to travel
// with the code): each package's name, version, licence and the text of its LICENSE file.
const bundled = new Set();
for (const input of results.flatMap((result) => Object.keys(result.metafile.inputs))) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) bundled.add(input.slice(0, match.index + match[0].length));
}
const notices = [...bundled].sort().map((folder) => {
  const dir = new URL(folder, root);
  const info = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
  // LICENSE, LICENCE.md, LICENSE-MIT.txt, COPYING...: every such file (a dual licence has two).
  const files = readdirSync(dir, { withFileTypes: true }).filter(
    (entry) => entry.isFile() && /^(licen[cs]e|copying)/i.test(entry.name),
  );
  const texts = files
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(new URL(name, dir), 'utf8').trim());
  const text = texts.length > 0 ? texts.join('\n\n') : `${info.license} (the package ships no licence file)`;
  return `${info.name} ${info.version} (${info.license})\n${'-'.repeat(72)}\n${sourceNote(info)}${text}\n`;
});
/**
 * The MPL-2.0 (section 3.2) lets its code travel in executable form (as bundled here) when the
 * recipients are told where its source form is: the package's repository and the version.
 */
function sourceNote(info) {
  if (!/\bMPL\b/.test(info.license)) return '';
  const repository = String(info.repository?.url ?? info.repository ?? '')
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/\.git$/, '');
  if (!repository)
    throw new Error(
      `${info.name} is under ${info.license} but names no repository: say where its source is obtainable`,
    );
  const tarball = `https://registry.npmjs.org/${info.name}/-/${info.name.split('/').pop()}-${info.version}.tgz`;
  return `Source Code Form: ${repository} (version ${info.version}); the package as published: ${tarball}.\ncdata bundles it into dist/vendor/ with no change but esbuild's minification.\n\n`;
}

writeFileSync(
  new URL('dist/THIRD_PARTY_LICENSES.txt', root),
  `cdata bundles these packages into dist/. Their licences follow.\n\n${[...new Set(notices)].join('\n')}`,
);
if (!existsSync(new URL('LICENSE', root))) throw new Error('LICENSE is missing');

// Only the declarations the public module reaches are kept, and none may name a package an
// integrator's install lacks.
await declarations.catch((error) => {
  const what = TYPECHECK ? 'the type check failed' : "the sandbox's type declarations did not build";
  throw new Error(`${what}:\n${error.stdout}${error.stderr}`);
});
const typesDir = fileURLToPath(new URL('dist/types/', root));
if (TYPECHECK) {
  // Every declaration of the project is in the cache: only those the public module reaches come.
  const emitted = `${checked}src/`;
  for (const file of checkDeclarations(`${emitted}sandbox/index.d.ts`))
    cpSync(file, `${typesDir}${relative(emitted, file)}`);
} else {
  const kept = new Set(checkDeclarations(`${typesDir}sandbox/index.d.ts`));
  for (const entry of readdirSync(typesDir, { recursive: true, withFileTypes: true })) {
    const path = `${entry.parentPath ?? entry.path}/${entry.name}`;
    if (entry.isFile() && !kept.has(path)) rmSync(path);
  }
  for (const folder of readdirSync(typesDir))
    if (readdirSync(`${typesDir}${folder}`).length === 0) rmSync(`${typesDir}${folder}`, { recursive: true });
}
