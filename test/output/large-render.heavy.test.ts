// Large answers render in every format in time linear in rows, with no stack limit reached.
// Heavy (npm run test:heavy): seconds of CPU by their nature (the 150,000-row table alone ~3 s).
// Beside them, test/property/hostile-bodies.test.ts draws a table in chunks as one table.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { renderCsv } from '../../src/output/csv.js';
import { renderJson, renderNdjson } from '../../src/output/json.js';
import { renderTable } from '../../src/output/table.js';
import { renderTsv } from '../../src/output/tsv.js';
import { columnsOf } from '../helpers/columns.js';

describe('large answers render in time linear in rows', () => {
  const emptyRows = (n: number): JsonObject[] => Array.from({ length: n }, () => ({}));

  it('150,000 rows: every format prints every row, no stack limit reached', () => {
    // The table drew its widths with Math.max(...rows): "Maximum call stack size exceeded".
    const n = 150_000;
    const rows = emptyRows(n);
    expect(renderTable(rows, columnsOf(['a']), { header: true, color: 0, width: undefined })).toBe(
      `a\n${'\n'.repeat(n)}`,
    );
    expect(renderJson(rows, undefined)).toBe(`[\n${Array.from({ length: n }, () => '  {}').join(',\n')}\n]\n`);
    expect(renderNdjson(rows, undefined)).toBe('{}\n'.repeat(n));
    expect(renderCsv(rows, ['a', 'b'], { header: true, bom: false })).toBe(`a,b\r\n${',\r\n'.repeat(n)}`);
    expect(renderTsv(rows, ['a', 'b'], { header: true })).toBe(`a\tb\n${'\t\n'.repeat(n)}`);
  });

  it('20,000 rows as a table: seconds at most (cli-table3 alone took 27 s, quadratic in rows)', () => {
    const rows = Array.from(
      { length: 20_000 },
      (_, i): JsonObject => ({ ocid: `ocds-${i}`, title: `Tender ${i}`, score: i }),
    );
    // CPU time, not the clock: on a busy machine the clock runs on while this waits its turn.
    const started = process.cpuUsage();
    const text = renderTable(rows, columnsOf(['ocid', 'title', 'score'], [false, true, false]), {
      header: true,
      color: 0,
      width: 80,
    });
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(15_000);
    const lines = text.split('\n');
    expect(lines).toHaveLength(20_002);
    expect(lines[0]).toBe('ocid        title         score');
    expect(lines[20_000]).toBe('ocds-19999  Tender 19999  19999');
  });
});
