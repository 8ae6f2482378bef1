// The sandbox library's declarations may import only Node's modules and each other: cdata
// installs with no dependencies (scripts/check-types.mjs, run by every build). tsc writes an
// import in the quotes of its source, and an inline type's `import("...")` in double quotes, so
// the check reads both.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script, without types
import { checkDeclarations } from '../../scripts/check-types.mjs';
import { scratch } from '../faults/scratch.js';

const check = checkDeclarations as (entry: string) => string[];
const folder = scratch('cdata-types');

/** A folder of declarations; returns the path of each file by its name. */
function declarations(files: Record<string, string>): (name: string) => string {
  const dir = folder();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return (name) => join(dir, name);
}

describe("the build's check of the sandbox's declarations", () => {
  it('keeps every declaration the entry reaches, in either quote, and passes Node modules', () => {
    const path = declarations({
      'index.d.ts': `import type { A } from './a.js';\nexport declare const b: import("./b.js").B;\nexport type { A };\n`,
      'a.d.ts': `import type { Server } from 'node:http';\nexport type A = Server;\n`,
      'b.d.ts': `export type B = import("node:stream").Readable;\n`,
      'unreached.d.ts': `export type C = 1;\n`,
    });
    expect(check(path('index.d.ts')).sort()).toEqual([path('a.d.ts'), path('b.d.ts'), path('index.d.ts')].sort());
  });

  it.each([
    ['an import in single quotes', `import type { Agent } from 'undici';\nexport type A = Agent;\n`],
    ['an import in double quotes', `import type { Agent } from "undici";\nexport type A = Agent;\n`],
    ['an inline import type', `export declare const agent: import("undici").Agent;\n`],
  ])('stops at a package an integrator lacks: %s', (_, text) => {
    const path = declarations({ 'index.d.ts': text });
    expect(() => check(path('index.d.ts'))).toThrow(
      "the sandbox's public types reach a package an integrator does not install (cdata has no dependencies): index.d.ts imports 'undici'.",
    );
  });

  it('says which declaration is missing', () => {
    const path = declarations({ 'index.d.ts': `export * from "./gone.js";\n` });
    expect(() => check(path('index.d.ts'))).toThrow(
      `the sandbox's declarations are incomplete: ${path('gone.d.ts')} is missing`,
    );
  });
});
