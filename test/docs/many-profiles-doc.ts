// docs/many-profiles.md, read by the tests that check it: its text, and its fenced blocks.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

export const docs = readFileSync(new URL('../../docs/many-profiles.md', import.meta.url), 'utf8');

/** The text of the first fenced block of `language` under the heading. */
export function block(heading: string, language: string): string {
  const start = docs.indexOf(`\n### ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  return new RegExp(`\`\`\`${language}\\n([^]*?)\`\`\``).exec(docs.slice(start))![1]!;
}
