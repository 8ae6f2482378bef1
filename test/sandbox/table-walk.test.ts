// One test that walks the endpoint table (src/core/endpoints.ts): every entry has a sandbox route
// answering 200 with the all-scopes key, and its rows carry exactly the declared fields (so
// every default column), each value of its declared type or null.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, fieldNames, type Endpoint, type FieldType } from '../../src/core/endpoints.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getJson, TIMESTAMP, type Row } from './http.js';

const sandbox = useSandbox();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function conforms(value: unknown, type: FieldType): boolean {
  switch (type.kind) {
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'string':
      return typeof value === 'string';
    case 'word':
      return typeof value === 'string' && !/\s/.test(value);
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
    case 'date-time':
      return typeof value === 'string' && TIMESTAMP.test(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'enum':
      return typeof value === 'string' && type.values.includes(value);
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

describe('the endpoint table', () => {
  it('walks every entry: route, 200, exactly the declared fields, default columns, types', async () => {
    const walked: string[] = [];
    for (const endpoint of ENDPOINTS as readonly Endpoint[]) {
      const body = await getJson<Row | Row[]>(sandbox.current, endpoint.path);
      const rows = endpoint.shape === 'list' ? (body as Row[]) : [body as Row];
      expect(Array.isArray(body), endpoint.name).toBe(endpoint.shape === 'list');
      expect(rows.length, endpoint.name).toBeGreaterThan(0);
      // `me` never carries email for a key (docs/api-reference.md section 2, Identity).
      const expected = fieldNames(endpoint).filter((name) => !(endpoint.name === 'me' && name === 'email'));
      for (const column of endpoint.columns) expect(expected, `${endpoint.name} column ${column}`).toContain(column);
      for (const row of rows) {
        expect(Object.keys(row).sort(), endpoint.name).toEqual([...expected].sort());
        for (const field of endpoint.fields) {
          if (!(field.name in row) || row[field.name] === null) continue;
          expect(
            conforms(row[field.name], field.type),
            `${endpoint.name}.${field.name} = ${JSON.stringify(row[field.name])}`,
          ).toBe(true);
        }
      }
      // Every declared field carries a value somewhere, so the demo shows each column filled.
      for (const name of expected)
        expect(
          rows.some((r) => r[name] !== null),
          `${endpoint.name}.${name} never set`,
        ).toBe(true);
      walked.push(endpoint.name);
    }
    expect(walked).toEqual([
      'me',
      'workspaces',
      'companies',
      'documents',
      'obligations',
      'persons',
      'sites',
      'tenders',
      'agents',
    ]);
  });

  it('me has no email key at all, not even null', async () => {
    const me = await getJson<Row>(sandbox.current, '/api/v1/me');
    expect('email' in me).toBe(false);
  });
});
