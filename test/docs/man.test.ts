// man/cdata.1 is generated from the registry (src/docs/man.ts), committed, shipped (package.json
// `man`), and renders cleanly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../src/command-kit/globals.js';
import { ENV_VARS } from '../../src/config/env.js';
import { manPage, MAN_PATH } from '../../src/docs/man.js';
import { runnableCommands } from '../../src/docs/synopsis.js';
import { EXIT_CODES } from '../../src/core/errors.js';
import { runProcess } from '../helpers/spawn.js';
import { skipWithout } from '../helpers/tools.js';

const root = new URL('../../', import.meta.url);
const committed = readFileSync(new URL(MAN_PATH, root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  man?: string | string[];
  files: string[];
  version: string;
};

/** The page as a reader sees it: roff's \- as -, fonts dropped. */
const plain = committed
  .replace(/\\-/g, '-')
  .replace(/\\f[BIRP]/g, '')
  .replace(/\\e/g, '\\')
  .replace(/\\&/g, '');

describe('man/cdata.1', () => {
  it('is what the registry generates (run `npm run docs` when this fails)', () => {
    expect(committed, `${MAN_PATH} is stale: run npm run docs`).toBe(manPage());
  });

  it('covers every command, option, environment variable and exit code, and the config file', () => {
    for (const { path, spec } of runnableCommands()) {
      expect(plain).toContain(`.SS "cdata ${path.join(' ')}"`);
      for (const option of Object.values<{ hidden?: boolean; flags: string }>(spec.options ?? {}))
        if (!option.hidden) expect(plain).toContain(/--[a-z][a-z0-9-]*/.exec(option.flags)![0]);
    }
    for (const option of Object.values(GLOBAL_OPTIONS))
      expect(plain).toContain(/--[a-z][a-z0-9-]*/.exec(option.flags)![0]);
    for (const { name } of ENV_VARS) expect(plain).toMatch(new RegExp(`^\\.B ${name}$`, 'm'));
    for (const code of Object.keys(EXIT_CODES)) expect(plain).toMatch(new RegExp(`^\\.TP\\n\\.B ${code}\\n`, 'm'));
    expect(plain).toContain('.I $CDATA_CONFIG_DIR/config.json\n');
    expect(plain).toContain(`"cdata ${pkg.version}"`);
  });

  it('is listed in package.json, so a global install puts it where man looks', () => {
    expect(pkg.man).toEqual([`./${MAN_PATH}`]);
    expect(pkg.files).toContain('man/');
  });

  it.skipIf(skipWithout('groff'))('renders without a warning (groff -man -ww)', async () => {
    const rendered = await runProcess('groff', ['-man', '-Tutf8', '-ww', '-z', new URL(MAN_PATH, root).pathname]);
    expect(rendered).toMatchObject({ code: 0, stderr: '' });
    const text = await runProcess('groff', [
      '-man',
      '-Tutf8',
      '-P-c',
      '-P-b',
      '-P-u',
      new URL(MAN_PATH, root).pathname,
    ]);
    expect(text.stdout).toMatch(/^NAME\n {7}cdata - command-line client/m);
    expect(text.stdout).toContain('cdata tenders [KEY] [--tier TIER] [--decided] [--undecided] [--limit N]');
  });
});
