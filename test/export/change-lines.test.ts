// What `cdata changes` prints for a changed record (src/export/change-lines.ts): a field a line,
// `field: from → to`, and beside a field its list keeps together with another (obligations: an
// amount and its currency), the other as it is now, when it did not change itself.
import { describe, expect, it } from 'vitest';
import { changeLines } from '../../src/export/change-lines.js';
import type { Change } from '../../src/export/changes.js';
import { parseJson } from '../../src/core/json.js';
import type { JsonObject } from '../../src/core/json-value.js';

/** A record of `resource` changed: `fields` what differs (JSON text), `row` the record now. */
function changed(resource: string, key: string, fields: string, row: string): Change {
  return { resource, key, change: 'changed', fields: parseJson(fields) as never, row: parseJson(row) as JsonObject };
}

/** An obligation changed: `fields` what differs, `row` the record now (each a JSON text). */
const obligation = (fields: string, row: string) =>
  changed('obligations', '4424dfa8-0000-4000-8000-000000000000', fields, row);

describe('changed fields, as lines', () => {
  it('an amount with its currency beside it, as the row has it now, when only the amount changed', () => {
    const [line] = changeLines([
      obligation(
        '{"amount":{"from":40000.00,"to":45977.42},"dueOn":{"from":"2027-03-01","to":"2027-03-16"}}',
        '{"title":"Performance guarantee","amount":45977.42,"currency":"EUR","dueOn":"2027-03-16"}',
      ),
    ]);
    expect(line!.fields).toEqual(['amount: 40000.00 → 45977.42 (currency: EUR)', 'dueOn: 2027-03-01 → 2027-03-16']);
  });

  it('both changed: each its own line, nothing beside', () => {
    const [line] = changeLines([
      obligation(
        '{"amount":{"from":100.00,"to":200.00},"currency":{"from":"ZAR","to":"EUR"}}',
        '{"title":"Pay","amount":200.00,"currency":"EUR"}',
      ),
    ]);
    expect(line!.fields).toEqual(['amount: 100.00 → 200.00', 'currency: ZAR → EUR']);
  });

  it('the currency beside a changed amount whatever it is: null as —, and absent not at all', () => {
    const changed = '{"amount":{"from":1.00,"to":2.00}}';
    const [nullCurrency, noCurrency] = changeLines([
      obligation(changed, '{"title":"Pay","amount":2.00,"currency":null}'),
      obligation(changed, '{"title":"Pay","amount":2.00}'),
    ]);
    expect(nullCurrency!.fields).toEqual(['amount: 1.00 → 2.00 (currency: —)']);
    expect(noCurrency!.fields).toEqual(['amount: 1.00 → 2.00']);
  });

  it('a list that keeps nothing together: the field alone', () => {
    const [line] = changeLines([
      changed(
        'agents',
        'bid-preparer',
        '{"budget":{"from":1.00,"to":2.00}}',
        '{"name":"bid-preparer","budget":2.00,"currency":"EUR"}',
      ),
    ]);
    expect(line!.fields).toEqual(['budget: 1.00 → 2.00']);
  });
});
