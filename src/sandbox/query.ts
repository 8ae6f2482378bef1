// Query parameters as the reference states them (part 4), from what the endpoint table says each
// parameter means: a value that is not allowed is a 400; `limit` out of range is clamped, not
// rejected; parameters an endpoint does not take are ignored.
import { LIMIT_MAX, LIMIT_MIN, type Endpoint, type Param } from '../core/endpoints.js';
import type { JsonObject } from '../core/json-value.js';

const INTEGER = /^[+-]?\d+$/;

export function queryError(endpoint: Endpoint, query: URLSearchParams): string | undefined {
  // A repeated parameter (`tier=STRETCH&tier=bogus`) is checked in every value; the first is used.
  for (const param of endpoint.params) {
    for (const value of query.getAll(param.name)) {
      const problem = valueError(param, value);
      if (problem) return problem;
    }
  }
  return undefined;
}

function valueError(param: Param, value: string): string | undefined {
  if (param.kind === 'limit' && !INTEGER.test(value))
    return `limit must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}; got '${value}'.`;
  if (param.kind === 'enum' && !param.values.includes(value))
    return `${param.name} must be one of ${param.values.join(', ')}; got '${value}'.`;
  if (param.kind === 'presence' && value !== 'true' && value !== 'false')
    return `${param.name} must be true or false; got '${value}'.`;
  return undefined;
}

/** The rows a valid query selects: filtered, then the newest `limit` (rows are stored in order). */
export function selectRows(endpoint: Endpoint, rows: readonly JsonObject[], query: URLSearchParams): JsonObject[] {
  let selected = rows;
  let limit = LIMIT_MAX;
  for (const param of endpoint.params) {
    const value = query.get(param.name);
    if (param.kind === 'limit') limit = clampLimit(value, param.serverDefault);
    else if (value !== null) selected = selected.filter((row) => matches(param, row, value));
  }
  return selected.slice(0, limit);
}

function matches(param: Exclude<Param, { kind: 'limit' }>, row: JsonObject, value: string): boolean {
  const field = row[param.field];
  if (param.kind === 'enum') return field === value;
  return (field !== null && field !== undefined) === (value === 'true');
}

export function clampLimit(value: string | null, fallback: number): number {
  if (value === null) return fallback;
  // BigInt keeps huge values ("99999999999999999999") ordered correctly before clamping.
  const n = BigInt(value);
  if (n < BigInt(LIMIT_MIN)) return LIMIT_MIN;
  if (n > BigInt(LIMIT_MAX)) return LIMIT_MAX;
  return Number(n);
}
