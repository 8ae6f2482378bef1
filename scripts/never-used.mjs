// An esbuild plugin shared by the build and the bench's floors (bundled the same way).
// Two Node modules the bundle would load on every command yet can never use: undici's HTTP/2
// client loads node:http2 (and with it TLS) at import though cdata never enables HTTP/2, and
// commander loads node:child_process for executable subcommands, which cdata does not have.
// Measured together at ~8 ms of every start-up; replaced by empty modules.
export const neverUsed = {
  name: 'never-used-node-modules',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(http2|child_process)$/ }, (args) => ({
      path: args.path,
      namespace: 'never-used',
    }));
    build.onLoad({ filter: /.*/, namespace: 'never-used' }, (args) => ({
      contents: `module.exports = { constants: {} }; // ${args.path}: never used by cdata`,
      loader: 'js',
    }));
  },
};

/**
 * Packages a vendored package imports at its top but calls only for options cdata never passes:
 * conf validates a `schema` with ajv and ajv-formats and runs `migrations` with semver, and
 * src/config/store.ts gives it neither. Bundled, they were 86% of dist/vendor/conf.cjs (299 KB)
 * and ~25 ms of every config write's start-up (docs/performance.md, "Sixteenth stop"). Each is
 * replaced by a stand-in that throws when anything of it is called, so a conf that began to need
 * one fails the config tests, not silently. `packages`: each specifier and the names it exports.
 */
export function neverCalled(packages) {
  const specifiers = Object.keys(packages).map((spec) => spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return {
    name: 'never-called-packages',
    setup(build) {
      if (specifiers.length === 0) return;
      build.onResolve({ filter: new RegExp(`^(${specifiers.join('|')})$`) }, (args) => ({
        path: args.path,
        namespace: 'never-called',
      }));
      build.onLoad({ filter: /.*/, namespace: 'never-called' }, ({ path }) => {
        const why = `${path} was left out of the build: no option cdata passes calls it (scripts/never-used.mjs)`;
        const names = packages[path].map((name) => `export { standIn as ${name} };`);
        return {
          contents: [
            `function called() { throw new Error(${JSON.stringify(why)}); }`,
            'const standIn = new Proxy(called, { get: () => called });',
            'export default standIn;',
            ...names,
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}
