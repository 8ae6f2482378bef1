// changes.ndjson's order when several rows go at once: removed rows by key, like the added and the
// changed ones, so two exports over the same answers write the same file (docs/exports.md,
// "changes.ndjson").
import { describe, expect, it } from 'vitest';
import { compareRows } from '../../src/export/changes.js';
import { changesText } from '../../src/export/changes-file.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';

const rows = (json: string) => parseJson(json) as JsonObject[];

describe('compareRows: several rows removed', () => {
  it('each by key, whatever order the previous answer had them in', () => {
    const before = rows('[{"id":"z","n":1},{"id":"b","n":2},{"id":"m","n":3},{"id":"a","n":4}]');
    const { changes, counts } = compareRows(
      { name: 'obligations', key: 'id' },
      before,
      rows('[{"id":"m","n":3}]'),
      false,
    );
    expect(counts).toEqual({ added: 0, changed: 0, removed: 3 });
    expect(changesText(changes)).toBe(
      [
        '{"resource":"obligations","key":"a","change":"removed","row":{"id":"a","n":4}}',
        '{"resource":"obligations","key":"b","change":"removed","row":{"id":"b","n":2}}',
        '{"resource":"obligations","key":"z","change":"removed","row":{"id":"z","n":1}}',
        '',
      ].join('\n'),
    );
  });
});
