// The README's first screen shows the table a newcomer gets at an 80-column terminal: the real
// output of `cdata --sandbox tenders --tier RECOMMENDED`, without colour. The demo data moves
// with the sandbox's day (closing dates, runway days), so the block is the output on one fixed
// day (NOW, 2026-11-22), and this test renders it again on that day, at 80 columns, through a
// sandbox started on that day (what --sandbox starts, with the clock fixed), and compares it
// whole: a change to the table's layout or to the demo data shows here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOW } from '../helpers/api.js';
import { run } from '../helpers/run.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const COMMAND = '$ cdata --sandbox tenders --tier RECOMMENDED\n';

describe("the README's first screen", () => {
  it('is the 80-column table of cdata --sandbox tenders --tier RECOMMENDED and its note, as rendered on its day', async () => {
    const start = readme.indexOf(`\`\`\`console\n${COMMAND}`);
    expect(start, 'the README has the block').toBeGreaterThan(0);
    expect(readme.slice(0, start).split('\n').length, 'within the first 30 lines').toBeLessThan(30);
    const block = readme.slice(start + `\`\`\`console\n${COMMAND}`.length, readme.indexOf('```\n', start + 10));
    const result = await run(['tenders', '--tier', 'RECOMMENDED', '--color', 'never'], {
      env: sandboxEnv(sandbox.current),
      stdoutTTY: true,
      stderrTTY: true,
      columns: 80,
      now: () => NOW,
    });
    // What a person sees at the terminal: the table, then the note on what 80 columns left out.
    expect(result).toMatchObject({
      code: 0,
      stderr: 'Not shown at 80 columns: score, buyer, runwayDays (--fields brings them back).\n',
    });
    expect(block).toBe(result.stdout + result.stderr);
    expect(Math.max(...block.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
