// docs/output.md documents, for each list, its key, its main text column and the order a narrow
// terminal leaves columns out in: that table is the endpoint table's, so a change to one shows here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINTS } from '../../src/core/endpoints.js';

const doc = readFileSync(new URL('../../docs/output.md', import.meta.url), 'utf8');

describe('docs/output.md, "Tables at a terminal"', () => {
  it('names each list`s key, main text column and drop order as the endpoint table has them', () => {
    const rows = [...doc.matchAll(/^\| (\w+) \| `(\w+)` \| `(\w+)` \| ([\w, ]+) \|$/gm)].map(
      ([, list, key, main, drop]) => ({ list, key, main, drop: drop!.split(', ') }),
    );
    const byName = (a: { list?: string }, b: { list?: string }) => a.list!.localeCompare(b.list!);
    expect(rows.sort(byName)).toEqual(
      LIST_ENDPOINTS.map((e) => ({ list: e.name, key: e.key, main: e.main, drop: [...(e.drop ?? [])] })).sort(byName),
    );
  });

  it('names the columns each list keeps together', () => {
    const groups = LIST_ENDPOINTS.flatMap((e) => (e.together ?? []).map((group) => ({ list: e.name, group })));
    expect(groups.length).toBeGreaterThan(0);
    for (const { list, group } of groups)
      expect(doc).toContain(`${list}: ${group.map((field) => `\`${field}\``).join(' and ')} go and come back together`);
  });

  it('every default column is the key, the main column, or in the drop order: nothing else could give way', () => {
    for (const endpoint of LIST_ENDPOINTS) {
      expect(endpoint.columns[0], endpoint.name).toBe(endpoint.key);
      const others = endpoint.columns.filter((field) => field !== endpoint.key && field !== endpoint.main);
      expect([...(endpoint.drop ?? [])].sort(), endpoint.name).toEqual(others.sort());
      // A group kept together is of columns that may give way: a misspelt one would hold nothing.
      for (const group of endpoint.together ?? []) {
        expect(group.length, endpoint.name).toBeGreaterThan(1);
        for (const field of group) expect(others, `${endpoint.name}.${field}`).toContain(field);
      }
    }
  });
});
