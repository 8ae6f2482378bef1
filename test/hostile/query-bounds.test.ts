// --query bounded (issue 29): an expression nested past the cap, a result past its cap: exit 2
// with a message, never exit 1 (an internal error); and a query that would run for hours ends at
// Ctrl-C or SIGTERM, the process under 1 GiB throughout. The built binary where the point is the
// worker thread (signals). A query past the worker's memory cap: query-cap.heavy.test.ts.
import { describe, expect, it } from 'vitest';
import { MAX_EXPRESSION_DEPTH } from '../../src/output/query/compile.js';
import { MAX_RESULT_BYTES, MAX_RESULT_VALUES } from '../../src/output/query/evaluate.js';
import { NOW } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { runBin } from '../helpers/spawn.js';
import { useFolders } from './folders.js';
import { watched } from './watched.js';

const sandbox = useSandbox({ now: () => NOW });
const folder = useFolders();

const TOO_DEEP = `error: --query is nested too deeply: more than ${MAX_EXPRESSION_DEPTH} levels (docs/limits.md#a---query-expression)\n`;
const DEEP_HINT =
  'hint: A long chain of . | [] or nested brackets; name a part with let, or split the query across two runs.\n';

describe('an expression nested past the cap: exit 2 before any request, never a stack overflow', () => {
  it.each([
    ['@[][]…[], 1,000 levels', `@${'[]'.repeat(1_000)}`],
    ['2,000 pipes', Array.from({ length: 2_001 }, () => '@').join('|')],
    ['a.a.a…, 2,000 deep', Array.from({ length: 2_000 }, () => 'a').join('.')],
    ['5,000 parentheses (the parser itself recurses)', `${'('.repeat(5_000)}a${')'.repeat(5_000)}`],
    ['5,000 nested function calls', `${'abs('.repeat(5_000)}a${')'.repeat(5_000)}`],
    ['a literal nested 100,000 deep', `\`${'['.repeat(100_000)}${']'.repeat(100_000)}\``],
  ])('%s', async (_what, expression) => {
    const result = await cdata(['tenders', '--query', expression], { env: sandboxEnv(sandbox.current) });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: TOO_DEEP + DEEP_HINT });
    expect(sandbox.current.requests.length).toBe(0);
  });

  it(`${MAX_EXPRESSION_DEPTH} levels are evaluated`, async () => {
    // `a.a` is three levels (a Subexpression over two Fields): 127 dots make 255.
    const result = await cdata(['me', '--query', Array.from({ length: 128 }, () => 'a').join('.'), '-o', 'json'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(result).toMatchObject({ code: 0, stdout: 'null\n', stderr: '' });
  });

  it('the built binary: the same message, exit 2', async () => {
    const result = await runBin(['--sandbox', 'tenders', '--query', `@${'[]'.repeat(1_000)}`], {
      env: { CDATA_CONFIG_DIR: folder() },
    });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: TOO_DEEP + DEEP_HINT });
  });
});

const MULTIPLIES =
  'hint: A query that refers to a list inside a projection over it (let $a = @ in $a[].{x: $a}) multiplies its size: select fewer fields, or filter first.\n';

describe('a result past its cap: exit 2, measured before it is built', () => {
  it(`three strings of 200 MB (pad_left): larger than ${MAX_RESULT_BYTES / 1024 / 1024} MiB`, async () => {
    const pad = (char: string) => `pad_left('${char}', \`200000000\`)`;
    const result = await runBin(
      ['--sandbox', 'tenders', '--query', `[${pad('x')}, ${pad('y')}, ${pad('z')}]`, '-o', 'json'],
      { env: { CDATA_CONFIG_DIR: folder() }, timeoutMs: 60_000 },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: --query's result is larger than 32 MiB as JSON, past cdata's cap for a query \(docs\/limits\.md#a---query-expression\)\n/,
    );
  }, 60_000);

  it(`a list referred to inside a projection over it, twice: more than ${MAX_RESULT_VALUES.toLocaleString('en')} values, under 1 GiB throughout`, async () => {
    const run = watched(
      [
        '--sandbox',
        'obligations',
        '--limit',
        '200',
        '-o',
        'json',
        '--query',
        'let $a = @ in let $b = $a[].{x: $a} in $b[].{y: $b}',
      ],
      folder(),
    );
    const ended = await run.ended;
    expect(ended.code, ended.stderr).toBe(2);
    expect(ended.stderr.split('\n')[0]).toBe(
      `error: --query's result holds more than ${MAX_RESULT_VALUES.toLocaleString('en')} values, past cdata's cap for a query (docs/limits.md#a---query-expression)`,
    );
    expect(ended.stderr.split('\n')[1]).toBe(MULTIPLIES.trimEnd());
    expect(ended.peakMiB).toBeGreaterThan(0);
    expect(ended.peakMiB).toBeLessThan(1024);
  }, 60_000);

  it('within the caps, the same shape prints (one level of it)', async () => {
    const result = await cdata(['obligations', '--limit', '20', '--query', 'let $a = @ in length($a[].{x: $a})'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(result).toMatchObject({ code: 0, stdout: '20\n', stderr: '' });
  });
});

describe('a query that would run for hours: Ctrl-C and SIGTERM end it', () => {
  // 200 rows filtered by a filter of 200 rows, four deep: 1.6 billion steps, and little memory.
  const HOURS = 'let $a = @ in length($a[?length($a[?length($a[?length($a[?id > `""`]) > `0`]) > `0`]) > `0`])';

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: exit %i, promptly, under 1 GiB',
    async (signal, code) => {
      const run = watched(['--sandbox', 'obligations', '--limit', '200', '--query', HOURS, '--debug'], folder());
      await run.answered;
      // The query is under way in its worker: the main thread is idle, waiting for it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sent = Date.now();
      run.child.kill(signal);
      const ended = await run.ended;
      expect(ended.code ?? ended.signal, ended.stderr).toBe(code);
      expect(ended.stdout).toBe('');
      // About 50 ms on a quiet machine; deaf would be SIGKILL at 100 s (watched). The bound is the
      // issue's 2 s with room for a loaded machine.
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(ended.peakMiB).toBeLessThan(1024);
    },
    60_000,
  );
});
