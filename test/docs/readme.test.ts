// The README is a short path (what cdata is, install, five minutes, commands, exit codes,
// environment, links) and docs/ the manual behind it: the generated parts are current, every
// page is linked, and every relative link, #anchor included, lands somewhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES } from '../../src/sandbox/fault-names.js';
import { GLOBAL_OPTIONS } from '../../src/command-kit/globals.js';
import { ENV_VARS } from '../../src/config/env.js';
import { commandsTable, END, START } from '../../src/docs/commands-table.js';
import { optionParts } from '../../src/docs/synopsis.js';
import { EXIT_CODES } from '../../src/core/errors.js';

const root = new URL('../../', import.meta.url).pathname;
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
const pages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** Relative links of a Markdown file, outside code: [text](target). */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe('README.md', () => {
  it('has the command table generated from the registry (run `npm run docs` when this fails)', () => {
    const table = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    expect(table).toBe(commandsTable());
  });

  it('documents every environment variable, every exit code and every global option', () => {
    for (const { name } of ENV_VARS) expect(readme).toContain(`\`${name}\``);
    for (const option of Object.values(GLOBAL_OPTIONS)) {
      const { short, long } = optionParts(option);
      expect(readme).toContain(`\`${short ?? long}\``);
    }
    for (const code of Object.keys(EXIT_CODES)) expect(readme).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  });

  it('starts with the two quick-start commands, then the line that puts cdata on the PATH', () => {
    const quickStart = readme.indexOf('```sh\nnpm install && npm run demo\nnpm test\n```');
    expect(quickStart).toBeGreaterThan(0);
    const [nextBlock] = readme.slice(quickStart + 10).match(/```sh\n[^`]*```/) ?? [];
    expect(nextBlock).toBe('```sh\nnpm link --ignore-scripts\n```');
  });

  it('is a path, not the manual: at most 250 lines, in this order, every docs/ page linked', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual([
      'Install',
      'Five minutes with cdata',
      'Commands',
      'Exit codes',
      'Environment variables',
      'The manual',
    ]);
    const linked = links(readme);
    for (const page of pages) expect(linked, `README links ${page}`).toContain(page);
    expect(linked).toContain('man/cdata.1');
  });
});

describe('docs/', () => {
  it.each(['README.md', ...pages])('%s: every relative link and #anchor resolves', (file) => {
    const broken: string[] = [];
    for (const target of links(read(file))) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : relative(root, join(root, dirname(file), path));
      if (!existsSync(join(root, resolved))) broken.push(`${target}: no ${resolved}`);
      else if (
        anchor !== undefined &&
        statSync(join(root, resolved)).isFile() &&
        resolved.endsWith('.md') &&
        !anchors(read(resolved)).has(anchor)
      ) {
        broken.push(`${target}: no heading #${anchor} in ${resolved}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('each page links back to the README', () => {
    for (const page of pages) expect(links(read(page)), page).toContain('../README.md');
  });

  it('no page keeps a placeholder for text still to be written', () => {
    for (const page of pages) expect(read(page), page).not.toMatch(/PLACEHOLDER|To be written/);
  });

  it('the sandbox page names every fault `cdata sandbox --fault` takes', () => {
    for (const name of FAULT_NAMES) expect(read('docs/sandbox.md')).toContain(`\`${name}\``);
  });
});
