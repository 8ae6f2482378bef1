// docs/query.md's examples run as written: each `console` block is a command (`$ cdata …`) and
// what it prints, and each is run against the sandbox at the page's fixed date, at a 100-column
// terminal without colour, as the page says. The page cannot drift from what cdata does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const page = readFileSync(new URL('../../docs/query.md', import.meta.url), 'utf8');
const sandbox = useSandbox({ now: () => NOW });

interface Example {
  command: string;
  printed: string;
}

/** Every `console` block: its `$ ` line and the lines after it. */
function examples(markdown: string): Example[] {
  return [...markdown.matchAll(/^```console\n([^]*?)^```$/gm)].map((match) => {
    const [command, ...printed] = match[1]!.split('\n').slice(0, -1);
    expect(command, 'a console block starts with a $ line').toMatch(/^\$ cdata /);
    expect(
      printed.some((line) => line.startsWith('$ ')),
      'one command per block',
    ).toBe(false);
    return { command: command!.slice(2), printed: printed.map((line) => `${line}\n`).join('') };
  });
}

/**
 * Words as sh splits them. The page quotes with single quotes only; a character sh would treat
 * specially outside them (another quote, `$`, a glob, a pipe) fails here rather than run otherwise.
 */
function words(line: string): string[] {
  const found: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === ' ') {
      if (word !== undefined) found.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      expect(end, `an unclosed quote in ${line}`).toBeGreaterThan(i);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else {
      expect('"\\$`;&|<>(){}[]*?!~#', `'${char}' outside single quotes in ${line}`).not.toContain(char);
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) found.push(word);
  return found;
}

describe('docs/query.md', () => {
  const all = examples(page);

  it('has its recipes: at least the four the issue asks for, and an error', () => {
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it.each(all.map((example) => [example.command, example] as const))('%s', async (_command, { command, printed }) => {
    const [cdataWord, ...argv] = words(command);
    expect(cdataWord).toBe('cdata');
    const result = await cdata(argv, {
      env: { ...sandboxEnv(sandbox.current), NO_COLOR: '1' },
      stdoutTTY: true,
      columns: 100,
    });
    // CSV ends its lines with CRLF, which a page shows as line ends like any other.
    expect((result.stdout + result.stderr).replaceAll('\r\n', '\n')).toBe(printed);
    expect(result.code).toBe(result.stderr.startsWith('error:') ? 2 : 0);
  });
});
