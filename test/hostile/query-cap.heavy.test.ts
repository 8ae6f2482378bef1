// --query bounded (issue 29): a query whose memory passes the worker's cap is exit 2 with a
// message, never exit 1 (an internal error), the process under 1 GiB throughout. Heavy (npm run
// test:heavy): the worker fills its heap to the cap first, seconds of CPU by its nature.
import { describe, expect, it } from 'vitest';
import { QUERY_HEAP_MIB } from '../../src/output/query/thread.js';
import { useFolders } from './folders.js';
import { watched } from './watched.js';

const folder = useFolders();

describe(`a query past the worker's memory cap (${QUERY_HEAP_MIB} MiB): exit 2`, () => {
  it('a string of every row times every row, as JSON (to_string)', async () => {
    const run = watched(
      [
        '--sandbox',
        'obligations',
        '--limit',
        '200',
        '--query',
        'let $a = @ in let $b = $a[].{x: $a} in length(to_string($b[].{y: $b}))',
      ],
      folder(),
    );
    const ended = await run.ended;
    expect(ended.code, ended.stderr).toBe(2);
    expect(ended.stderr).toBe(
      `error: --query needed more than ${QUERY_HEAP_MIB} MiB of memory, cdata's cap for a query (docs/limits.md#a---query-expression)\n` +
        'hint: A query that builds very long strings (pad_left, join) or refers to a list inside a projection over it multiplies its size: filter first, or select fewer fields.\n',
    );
    expect(ended.peakMiB).toBeLessThan(1024);
  }, 120_000);
});
