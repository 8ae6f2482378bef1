// Loads dist/'s CommonJS files with V8's code cache: the bytecode of cdata's bundle and of the
// vendored packages it loads, made once at build time (scripts/code-cache.mjs), instead of
// compiled again at every start. That is ~10-15 ms of a `cdata tenders -o json` that takes
// ~125 (docs/performance.md). Node 22 has this built in (module.enableCompileCache); Node 20, which
// cdata supports, does not, and writes nothing at run time: the caches ship in dist/code-cache/.
//
// A cache is used only when all of these hold, and otherwise the file compiles as usual:
//   - it was made by this V8 on this architecture (its folder is named after both, so another
//     Node reads nothing);
//   - it was made from exactly this text: the cache file begins with the text it was made from
//     (the file in the module wrapper below), compared byte for byte (memcmp: a hash would cost
//     more than the rest of the loading, and node:crypto ~5 ms to load), so a dist/ file edited
//     by hand or by patch-package is compiled from its new text (V8 itself checks only the
//     length);
//   - V8 accepts it: same V8 flags as when it was made (useV8Flags() runs first in both), and
//     its checksum holds (--verify-snapshot-checksum: V8 skips that check by default, and a
//     damaged cache it accepts crashes Node; the check costs well under a millisecond).
'use strict';

// Few and cheap modules: node:module and node:crypto would cost more to load than they save.
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const { Script } = require('node:vm');

/**
 * --liftoff-only: undici parses HTTP with llhttp compiled to WebAssembly. By default V8 compiles
 * it twice, the second time (optimised) in the background, and the process cannot exit until
 * that finishes: ~80 ms added to every command that sends a request, for code that parses a few
 * kilobytes. The baseline compiler alone is plenty.
 *
 * --interrupt-budget, 8 times V8's default (67584): the same for JavaScript. V8 hands a function
 * to TurboFan, on a background thread, once it has run through that budget three times; in a
 * run of a fraction of a second that happens late, the exit waits for the compile, and each
 * compile holds megabytes. With 8 times the budget only really long loops get there (the
 * megabytes of a large answer). Measured (docs/performance.md): `obligations -o csv` 169 ->
 * 138 ms, `export` 500 -> 438 ms and 68 -> 61 MiB, a 15.9 MiB answer 408 -> 363 ms.
 *
 * --verify-snapshot-checksum: see above.
 *
 * Set by the process's entry point (bin/cdata.js, and the build when it makes the caches),
 * before any code is compiled: V8 accepts a code cache only under the flags it was made with.
 * The library modules (the sandbox, the client) leave V8 alone.
 */
const V8_FLAGS = '--liftoff-only --interrupt-budget=540672 --verify-snapshot-checksum';

function useV8Flags() {
  require('node:v8').setFlagsFromString(V8_FLAGS);
}

/** Node's CommonJS module wrapper, around each file's text (one line: lines keep their numbers). */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'].map((text) => Buffer.from(text));

class CodeCacheLoader {
  /**
   * @param {string} dist the dist/ folder
   * @param {{ record?: boolean }} [options] record: compile without caches, for writeCaches()
   */
  constructor(dist, options = {}) {
    this.folder = join(dist, 'code-cache', `v8-${process.versions.v8}-${process.arch}`);
    this.record = options.record === true;
    /** @type {Map<string, { module: { exports: unknown }, script?: Script, parts?: Buffer[], cacheFile?: string }>} */
    this.loaded = new Map();
  }

  /** The exports of a CommonJS file of dist/; its own `./vendor/` requires load the same way. */
  require(file) {
    const known = this.loaded.get(file);
    if (known) return known.module.exports;
    const parts = [WRAPPER[0], readFileSync(file), WRAPPER[1]];
    const cacheFile = join(this.folder, `${basename(file)}.bin`);
    const cachedData = this.record ? undefined : cacheOf(parts, cacheFile);
    // columnOffset: the first line's columns as in the file itself, not shifted by the wrapper.
    // Whether V8 took the cache is script.cachedDataRejected (tests watch it through node:vm).
    const script = new Script(parts.map(String).join(''), { filename: file, columnOffset: -WRAPPER[0].length, cachedData });
    const module = { exports: {} };
    // The script and its text are kept only to write the cache: otherwise ~1 MB held for nothing.
    this.loaded.set(file, this.record ? { module, script, parts, cacheFile } : { module });
    // The bundles require Node's own modules, which resolve the same from anywhere, and each
    // other as ./vendor/NAME.cjs; nothing else (scripts/build.mjs bundles everything else).
    /** @param {string} id */
    const requireFromFile = (id) => (id.startsWith('./vendor/') ? this.require(join(dirname(file), id)) : require(id));
    try {
      script.runInThisContext().call(module.exports, module.exports, requireFromFile, module, file, dirname(file));
    } catch (error) {
      // As Node's loader does: a file that failed to load is not half-loaded for the next require.
      this.loaded.delete(file);
      throw error;
    }
    return module.exports;
  }

  /**
   * Writes each loaded file's cache, with the bytecode of every function that has run so far
   * (the build runs the common commands first). Atomic: a reader sees a whole cache or none.
   */
  writeCaches() {
    mkdirSync(this.folder, { recursive: true });
    for (const { script, parts, cacheFile } of this.loaded.values()) {
      const text = Buffer.concat(parts);
      const header = Buffer.alloc(4);
      header.writeUInt32LE(text.length);
      writeFileSync(`${cacheFile}.tmp`, Buffer.concat([header, text, script.createCachedData()]));
      renameSync(`${cacheFile}.tmp`, cacheFile);
    }
  }
}

/**
 * The V8 cache in `cacheFile` when that file was made from exactly the text `parts` make: it
 * holds the text's length (4 bytes), the text, then the cache.
 */
function cacheOf(parts, cacheFile) {
  let bytes;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  if (bytes.length <= 4 + length || bytes.readUInt32LE(0) !== length) return undefined;
  let at = 4;
  for (const part of parts) {
    if (!part.equals(bytes.subarray(at, at + part.length))) return undefined;
    at += part.length;
  }
  return bytes.subarray(at);
}

module.exports = { CodeCacheLoader, useV8Flags };
