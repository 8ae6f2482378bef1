// One list's rows compared with the previous export's (src/export/changes.ts), as docs/exports.md
// ("What counts as a change") says: by key, added / changed / removed in that order and each by
// key; each changed field with its sides (a side left out: no such field); values compared as JSON
// values; computed fields not compared; no removals from a truncated list; rows that cannot be
// followed (no key, a repeated key) left out.
import { describe, expect, it } from 'vitest';
import { compareRows } from '../../src/export/changes.js';
import { changesText } from '../../src/export/changes-file.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';

const rows = (json: string) => parseJson(json) as JsonObject[];
const list = { name: 'tenders', key: 'ocid', computed: ['runwayDays'] };

describe('compareRows', () => {
  it('added, changed and removed rows, each group by key, every changed field with from and to', () => {
    const before = rows(
      '[{"ocid":"c","decision":null,"score":52},{"ocid":"a","decision":"BID","score":80},{"ocid":"z","decision":null,"score":10}]',
    );
    const after = rows(
      '[{"ocid":"b","decision":null,"score":90},{"ocid":"c","decision":"BID","score":40},{"ocid":"a","decision":"BID","score":80},{"ocid":"0","decision":null,"score":1}]',
    );
    const { changes, counts } = compareRows(list, before, after, false);
    expect(counts).toEqual({ added: 2, changed: 1, removed: 1 });
    expect(changes).toEqual([
      { resource: 'tenders', key: '0', change: 'added', row: after[3] },
      { resource: 'tenders', key: 'b', change: 'added', row: after[0] },
      {
        resource: 'tenders',
        key: 'c',
        change: 'changed',
        fields: { decision: { from: null, to: 'BID' }, score: { from: 52, to: 40 } },
        row: after[1],
      },
      { resource: 'tenders', key: 'z', change: 'removed', row: before[2] },
    ]);
    // Keys in the object are in the order of docs/exports.md.
    expect(Object.keys(changes[2]!)).toEqual(['resource', 'key', 'change', 'fields', 'row']);
  });

  it('null is not missing: a field that appears or goes has only the side it has', () => {
    const { changes } = compareRows(
      list,
      rows('[{"ocid":"a","decision":null,"gone":1}]'),
      rows('[{"ocid":"a","decision":null,"new":null}]'),
      false,
    );
    expect(changes).toEqual([
      {
        resource: 'tenders',
        key: 'a',
        change: 'changed',
        fields: { new: { to: null }, gone: { from: 1 } },
        row: { ocid: 'a', decision: null, new: null },
      },
    ]);
    expect(compareRows(list, rows('[{"ocid":"a","x":null}]'), rows('[{"ocid":"a"}]'), false).counts.changed).toBe(1);
  });

  it('numbers by exact value (1.50 is 1.5; two 20-digit ids one apart differ), arrays by value, objects in any key order; the output keeps each side as written', () => {
    const before = rows('[{"id":"a","amount":1250000.00,"n":12345678901234567890,"tags":["x","y"],"o":{"p":1,"q":2}}]');
    const after = rows('[{"id":"a","amount":1250000.0,"n":12345678901234567891,"tags":["x","y"],"o":{"q":2,"p":1.0}}]');
    const { changes, counts } = compareRows({ name: 'obligations', key: 'id' }, before, after, false);
    expect(counts).toEqual({ added: 0, changed: 1, removed: 0 });
    expect(Object.keys((changes[0] as { fields: object }).fields)).toEqual(['n']);
    expect(changesText(changes)).toBe(
      '{"resource":"obligations","key":"a","change":"changed","fields":{"n":{"from":12345678901234567890,"to":12345678901234567891}},"row":{"id":"a","amount":1250000.0,"n":12345678901234567891,"tags":["x","y"],"o":{"q":2,"p":1.0}}}\n',
    );
    expect(
      compareRows(
        { name: 'x', key: 'id' },
        rows('[{"id":"a","t":["x","y"]}]'),
        rows('[{"id":"a","t":["y","x"]}]'),
        false,
      ).counts.changed,
    ).toBe(1);
  });

  it('a computed field (runwayDays) is not compared: alone it is no change, and it is left out of a change', () => {
    const before = rows(
      '[{"ocid":"a","runwayDays":5,"closesOn":"2026-12-01"},{"ocid":"b","runwayDays":9,"closesOn":"2026-12-05"}]',
    );
    const after = rows(
      '[{"ocid":"a","runwayDays":4,"closesOn":"2026-12-01"},{"ocid":"b","runwayDays":11,"closesOn":"2026-12-08"}]',
    );
    const { changes } = compareRows(list, before, after, false);
    expect(changes).toEqual([
      {
        resource: 'tenders',
        key: 'b',
        change: 'changed',
        fields: { closesOn: { from: '2026-12-05', to: '2026-12-08' } },
        row: after[1],
      },
    ]);
  });

  it('a truncated list reports no removals (removed: null), but still what was added and changed', () => {
    const { changes, counts } = compareRows(
      list,
      rows('[{"ocid":"a","s":1},{"ocid":"b","s":1}]'),
      rows('[{"ocid":"c","s":1},{"ocid":"a","s":2}]'),
      true,
    );
    expect(counts).toEqual({ added: 1, changed: 1, removed: null });
    expect(changes.map((c) => `${c.change} ${c.key}`)).toEqual(['added c', 'changed a']);
  });

  it('rows whose key is missing, null or not a string, and a second row of a key, are left out', () => {
    const before = rows('[{"ocid":"a","s":1},{"ocid":null,"s":1},{"s":1},{"ocid":7,"s":1}]');
    const after = rows('[{"ocid":"a","s":1},{"ocid":"a","s":2},{"ocid":null,"s":2},{"ocid":8,"s":1}]');
    expect(compareRows(list, before, after, false)).toEqual({
      changes: [],
      counts: { added: 0, changed: 0, removed: 0 },
    });
  });

  it('a field or key named __proto__ is an ordinary one', () => {
    const { changes } = compareRows(
      list,
      rows('[{"ocid":"__proto__","__proto__":1}]'),
      rows('[{"ocid":"__proto__","__proto__":2}]'),
      false,
    );
    expect(changesText(changes)).toBe(
      '{"resource":"tenders","key":"__proto__","change":"changed","fields":{"__proto__":{"from":1,"to":2}},"row":{"ocid":"__proto__","__proto__":2}}\n',
    );
  });

  it('nothing changed: no changes, zero counts; nothing before or after: every row added or removed', () => {
    const same = rows('[{"ocid":"a","s":1}]');
    expect(compareRows(list, same, rows('[{"ocid":"a","s":1.0}]'), false)).toEqual({
      changes: [],
      counts: { added: 0, changed: 0, removed: 0 },
    });
    expect(compareRows(list, [], same, false).counts).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(compareRows(list, same, [], false).counts).toEqual({ added: 0, changed: 0, removed: 1 });
  });
});
