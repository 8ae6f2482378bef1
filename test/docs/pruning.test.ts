// The docs' commands that prune a --stamp history (docs/exports.md): each deletes old names in the
// export folder and never a file of the live generation under ..data/, which its manifest lists.
// Run as written, on a folder of stamped exports made 40 days old.
import { execFileSync } from 'node:child_process';
import { lstatSync, lutimesSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratch } from '../faults/scratch.js';
import { NOW, useSandboxes } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv } from '../helpers/sandbox.js';

const makeSandbox = useSandboxes();
const folder = scratch('cdata-pruning');
const DOCS = new URL('../../docs/', import.meta.url);
const HOUR_MS = 3_600_000;

/** Every `find /srv/exports ... -delete` in docs/, as written. */
const commands = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .flatMap((name) =>
    [
      ...readFileSync(new URL(name, DOCS), 'utf8')
        .replace(/\n\s*/g, ' ')
        .matchAll(/`(find \/srv\/exports [^`]*-delete)`/g),
    ].map((match) => [name, match[1]!] as const),
  );

/** Every path under `dir`, files and links (not folders), relative to it. */
function paths(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => !lstatSync(join(dir, path)).isDirectory())
    .sort();
}

describe('pruning a --stamp history, as the docs write it', () => {
  it('the docs hold such commands', () => {
    expect(commands.map(([name]) => name)).toEqual(['exports.md', 'exports.md']);
  });

  it.each(commands)('%s: %s removes the old names and leaves the live generation whole', async (_doc, command) => {
    const dir = join(folder(), 'exports');
    const env = sandboxEnv(await makeSandbox());
    for (const hours of [2, 1])
      expect(
        (await run(['export', 'tenders', 'agents', '--stamp', '--dir', dir], { env, now: () => NOW - hours * HOUR_MS }))
          .code,
      ).toBe(0);
    const old = new Date(NOW - 40 * 24 * HOUR_MS);
    for (const path of paths(dir)) lutimesSync(join(dir, path), old, old);
    const before = paths(dir);
    const generation = before.filter((path) => path.startsWith('..2'));
    const stamped = before.filter((path) => !path.includes('/') && /-20\d\d-.*Z\./.test(path));
    expect(stamped.length).toBe(4); // two lists, two exports

    execFileSync('sh', ['-c', command.replaceAll('/srv/exports', dir)]);
    const after = paths(dir);
    expect(after.filter((path) => path.startsWith('..2'))).toEqual(generation);
    expect(after).toEqual(before.filter((path) => !stamped.includes(path)));
  });
});
