// Query parameters as the reference states them (part 4): a value that is not allowed is a 400;
// `limit` out of range is clamped, not rejected; parameters an endpoint does not take are ignored.
import { LIMIT_MAX, LIMIT_MIN, hasParam, type Endpoint } from '../endpoints.js';
import type { JsonObject } from '../json.js';

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

function valueError(param: Endpoint['params'][number], value: string): string | undefined {
  if (param.kind === 'limit' && !INTEGER.test(value)) return `limit must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}; got '${value}'.`;
  if (param.kind === 'enum' && !param.values.includes(value)) return `${param.name} must be one of ${param.values.join(', ')}; got '${value}'.`;
  if (param.kind === 'boolean' && value !== 'true' && value !== 'false') return `${param.name} must be true or false; got '${value}'.`;
  return undefined;
}

/** The rows a valid query selects: filtered, then the newest `limit` (rows are stored in order). */
export function selectRows(endpoint: Endpoint, rows: readonly JsonObject[], query: URLSearchParams): JsonObject[] {
  let selected = rows;
  const tier = query.get('tier');
  if (tier !== null && hasParam(endpoint, 'tier')) selected = selected.filter((r) => r.tier === tier);
  const decided = query.get('decided');
  if (decided !== null && hasParam(endpoint, 'decided')) {
    selected = selected.filter((r) => (r.decision !== null) === (decided === 'true'));
  }
  const limitParam = endpoint.params.find((p) => p.kind === 'limit');
  if (!limitParam) return selected.slice(0, LIMIT_MAX);
  return selected.slice(0, clampLimit(query.get('limit'), limitParam.serverDefault));
}

export function clampLimit(value: string | null, fallback: number): number {
  if (value === null) return fallback;
  // BigInt keeps huge values ("99999999999999999999") ordered correctly before clamping.
  const n = BigInt(value);
  if (n < BigInt(LIMIT_MIN)) return LIMIT_MIN;
  if (n > BigInt(LIMIT_MAX)) return LIMIT_MAX;
  return Number(n);
}
