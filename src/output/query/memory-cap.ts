// The memory a --query may take (its worker's heap), and what cdata says past it: also when the
// result would be a string longer than V8 allows, which on Node 22 and 24 comes before the heap
// runs out.
import { UsageError } from '../../core/errors.js';

/**
 * The worker's heap, in MiB: room for the largest answer (16 MiB) parsed and copied for the query
 * and a result at its cap (32 MiB as JSON), with a margin (docs/limits.md#a---query-expression).
 */
export const QUERY_HEAP_MIB = 384;

/** The error for a query that needed more than the cap. */
export function outOfMemory(): UsageError {
  return new UsageError(
    `--query needed more than ${QUERY_HEAP_MIB} MiB of memory, cdata's cap for a query (docs/limits.md#a---query-expression)`,
    {
      hint: 'A query that builds very long strings (pad_left, join) or refers to a list inside a projection over it multiplies its size: filter first, or select fewer fields.',
    },
  );
}
