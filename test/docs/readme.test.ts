// The README's generated parts are current, and it documents what users rely on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../src/config/env.js';
import { commandsTable, END, START } from '../../src/docs/commands-table.js';
import { EXIT_CODES } from '../../src/errors.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README.md', () => {
  it('has the command table generated from the registry (run `npm run docs` when this fails)', () => {
    const table = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    expect(table).toBe(commandsTable());
  });

  it('documents every environment variable and every exit code', () => {
    for (const { name } of ENV_VARS) expect(readme).toContain(`\`${name}\``);
    for (const code of Object.keys(EXIT_CODES)) expect(readme).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  });

  it('starts with the two quick-start commands', () => {
    expect(readme).toContain('```sh\nnpm install && npm run demo\nnpm test\n```');
  });
});
