// The build's split of cdata's own code (scripts/build.mjs): dist/cli.cjs holds what most runs
// need, and the modules below, with what only they use, are files of their own in dist/,
// required when a run first needs one. Every start-up loads dist/cli.cjs whole (Node reads it
// and V8 deserialises its compiled code), so what it holds is what every command pays
// (docs/performance.md, "Ninth stop").
//
// esbuild splits code only for ES modules, whose loader costs more than a split saves (build.mjs),
// so the split is made here, in CommonJS:
//   - each file (dist/cli.cjs too) exports a function per module others take from it, which
//     initialises the module, if it had not been, and returns its exports (esbuild's own lazy
//     initialisation of a bundled module);
//   - an import of a module another file holds is a require of that file and a call of that
//     module's function. So every module has one instance, whichever file uses it: one class for
//     `instanceof`, one list of clean-ups;
//   - dist/cli.cjs takes a cold module only by import(): a static import would load its file at
//     every start-up;
//   - a module only one cold file uses goes into it; one that two cold files use goes into
//     dist/cli.cjs (SHARED below), so that neither has a copy of its own.
import { build } from 'esbuild';
import { isBuiltin } from 'node:module';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each cold file of dist/ (without `.cjs`), and the modules it holds. */
export const COLD = {
  // export and changes share the export folder's code.
  export: ['src/commands/export/index.ts', 'src/commands/changes/index.ts'],
  webhook: ['src/commands/webhook/index.ts', 'src/commands/webhook/verify.ts'],
  'sandbox-command': ['src/commands/sandbox/index.ts'],
  // --sandbox, and `cdata sandbox`: the server and its data.
  'sandbox-server': ['src/sandbox/server.ts'],
  completion: ['src/commands/completion/index.ts'],
  login: ['src/commands/auth/login.ts'],
  // A profile's key-command (a password manager): only profiles that have one.
  'key-command': ['src/config/key-command.ts'],
  // --query's parsing, checks and worker thread (the evaluation is dist/query.cjs's).
  'query-compile': ['src/output/query/compile.ts'],
};

/**
 * Modules two cold files share, which dist/cli.cjs holds so that neither has a copy of its own.
 * The build stops and names any other such module.
 */
const SHARED = ['src/core/json-equal.ts', 'src/sandbox/problem.ts'];

const HOLDER = new Map(Object.entries(COLD).flatMap(([file, sources]) => sources.map((source) => [source, file])));
const SKIP = Symbol('cold-code: resolving');

/**
 * The plugin of one file's build: `file` is 'cli' or a cold file's name; `hot`, the modules
 * dist/cli.cjs holds (paths from the project's root), for a cold file. `used` collects the
 * modules taken from dist/cli.cjs.
 */
function splitPlugin(root, { file, hot, used }) {
  const rootPath = fileURLToPath(root);
  // As esbuild's metafile names inputs: from the root, with forward slashes on any system.
  const fromRoot = (path) => relative(rootPath, path).split(sep).join('/');
  return {
    name: 'cold-code',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'elsewhere') return { path: args.path, external: true };
        if (args.pluginData === SKIP || args.kind === 'entry-point' || isBuiltin(args.path)) return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: SKIP,
        });
        if (found.errors.length > 0 || found.external || found.namespace !== 'file') return undefined;
        const path = fromRoot(found.path);
        const holder = HOLDER.get(path);
        if (holder !== undefined && holder !== file) {
          if (file === 'cli' && args.kind !== 'dynamic-import') {
            return {
              errors: [
                {
                  text: `${path} is cold code (scripts/cold-code.mjs), and ${fromRoot(args.importer)}, which dist/cli.cjs holds (hot code, or SHARED), imports it statically: it may load it only by import()`,
                },
              ],
            };
          }
          return { path, namespace: 'elsewhere', pluginData: holder };
        }
        if (holder === undefined && hot?.has(path)) return { path, namespace: 'elsewhere', pluginData: 'cli' };
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'elsewhere' }, (args) => {
        if (args.pluginData === 'cli') used?.add(args.path);
        return {
          contents: `module.exports = require('./${args.pluginData}.cjs').modules[${JSON.stringify(args.path)}]();`,
          loader: 'js',
        };
      });
    },
  };
}

/** The real files a build bundled, from the project's root (a virtual module is named namespace:path). */
const filesOf = (result) => Object.keys(result.metafile.inputs).filter((input) => !input.includes(':'));

/** A file's entry: the exports of `main`, and `modules`, a function per module it lends. */
const entry = (root, file, main, lent) => ({
  stdin: {
    contents: [
      ...(main ? [`export * from ${JSON.stringify(`./${main}`)};`] : []),
      'export const modules = {',
      ...[...lent].sort().map((path) => `  ${JSON.stringify(path)}: () => require(${JSON.stringify(`./${path}`)}),`),
      '};',
    ].join('\n'),
    resolveDir: fileURLToPath(root),
    sourcefile: `entry:${file}`,
    loader: 'ts',
  },
  outfile: `dist/${file}.cjs`,
});

/**
 * Builds dist/cli.cjs and the cold files with `options` (esbuild's; `plugins` go to each build)
 * and returns esbuild's results, dist/cli.cjs's first.
 */
export async function buildSplit(root, { plugins, ...options }) {
  const program = (file, main, lent, { write = true, hot, used } = {}) =>
    build({
      ...options,
      ...entry(root, file, main, lent),
      format: 'cjs',
      write,
      plugins: [...plugins, splitPlugin(root, { file, hot, used })],
    });
  const hot = new Set(filesOf(await program('cli', 'src/cli.ts', SHARED, { write: false })));
  const used = new Set();
  const colds = await Promise.all(
    Object.entries(COLD).map(([file, sources]) => program(file, undefined, sources, { hot, used })),
  );
  const owners = new Map();
  for (const [i, file] of Object.keys(COLD).entries())
    for (const input of filesOf(colds[i])) owners.set(input, [...(owners.get(input) ?? []), file]);
  const twice = [...owners].filter(([, files]) => files.length > 1);
  if (twice.length > 0)
    throw new Error(
      `cold files would each have a copy of a module: add it to SHARED in scripts/cold-code.mjs\n${twice
        .map(([input, files]) => `  ${input}: ${files.join(', ')}`)
        .join('\n')}`,
    );
  return [await program('cli', 'src/cli.ts', used), ...colds];
}
