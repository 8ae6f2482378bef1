// The layers of src/ (docs/architecture.md), checked on every import, type-only ones included:
// each folder may import its own layer and the ones below it, never one above; and no import
// circle exists among the modules that load at run time (type-only imports vanish when built).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(new URL('../src', import.meta.url).pathname);

/** Bottom first. A module's layer is its folder's (or, at the top of src/, its file's). */
const LAYERS: readonly (readonly string[])[] = [
  ['core', 'types'],
  ['io'],
  ['config'],
  ['client'],
  ['output'],
  ['export', 'webhook', 'sandbox'],
  ['command-kit'],
  ['completion'],
  ['commands'],
  ['program.ts', 'help.ts', 'argv.ts', 'usage-mistakes.ts', 'cli.ts', 'report.ts', 'run-state.ts', 'docs'],
];

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import and re-export, static or dynamic, of every module under src/. */
function imports(): Import[] {
  const found: Import[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/gm;
  for (const file of sources(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(statement)) {
      const spec = match[3] ?? match[4]!;
      const to = relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      found.push({ from: relative(SRC, file), to, typeOnly: match[2] !== undefined });
    }
  }
  return found;
}

function layerOf(module: string): number {
  const top = module.split('/')[0]!;
  const layer = LAYERS.findIndex((names) => names.includes(top));
  if (layer < 0) throw new Error(`src/${module} is in no layer: add its folder to LAYERS and docs/architecture.md`);
  return layer;
}

/** Strongly connected groups of more than one module (Tarjan), over the given edges. */
function circles(edges: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the architecture', () => {
  const all = imports();

  it('finds the imports it checks', () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all).toContainEqual({ from: 'program.ts', to: 'commands/index.ts', typeOnly: false });
  });

  it('every import points to its own layer or one below', () => {
    const upward = all.filter(({ from, to }) => layerOf(to) > layerOf(from)).map(({ from, to }) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  it('nothing below commands/ imports commands/ or the reporter', () => {
    const below = all.filter(
      ({ from, to }) => layerOf(from) < layerOf('commands') && (to.startsWith('commands/') || to === 'report.ts'),
    );
    expect(below).toEqual([]);
  });

  it('no import circles, type-only imports included', () => {
    expect(circles(all)).toEqual([]);
  });

  it("a command's declaration never imports its handler: src/commands/handlers.ts pairs them", () => {
    const declarations = all.filter(({ from }) => /^commands\/[^/]+\/command\.ts$/.test(from));
    expect(declarations.length).toBeGreaterThanOrEqual(10);
    expect(declarations.filter(({ from, to }) => to.startsWith(from.replace('command.ts', '')) && to !== from)).toEqual(
      [],
    );
  });

  it('the check itself finds a circle and an upward import', () => {
    const made = [
      { from: 'a.ts', to: 'b.ts', typeOnly: false },
      { from: 'b.ts', to: 'c.ts', typeOnly: false },
      { from: 'c.ts', to: 'a.ts', typeOnly: false },
    ];
    expect(circles(made)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(layerOf('config/store.ts') > layerOf('io/atomic.ts')).toBe(true);
    expect(() => layerOf('elsewhere/x.ts')).toThrow(/in no layer/);
  });
});
