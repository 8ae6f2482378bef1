// Replaced at build time by esbuild (and by vitest's `define` in tests) with package.json's version.
declare const __CDATA_VERSION__: string;

export const VERSION: string = __CDATA_VERSION__;
