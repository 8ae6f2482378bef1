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
