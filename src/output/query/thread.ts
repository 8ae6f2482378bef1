// A --query evaluated in a worker thread (dist/query.cjs, ./worker.ts), for the built cdata. The
// main thread only waits, so Ctrl-C and SIGTERM end cdata at once however long the query would
// run (bin/cdata.js exits; the worker goes with the process). The worker's heap has a cap: a
// query whose values grow past it ends the worker, and cdata says so (exit 2), long before the
// machine runs short.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { UsageError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json-value.js';
import { stringifyJson } from '../../core/json.js';
import type { Evaluated } from './evaluate.js';
import type { QueryReply, QueryRequest } from './worker.js';

/**
 * The worker's heap, in MiB: room for the largest answer (16 MiB) parsed and copied for the query
 * and a result at its cap (32 MiB as JSON), with a margin (docs/limits.md#a---query-expression).
 */
export const QUERY_HEAP_MIB = 384;

export function evaluateInWorker(expression: string, data: JsonValue): Promise<Evaluated> {
  const worker = new Worker(join(__dirname, 'query.cjs'), {
    resourceLimits: { maxOldGenerationSizeMb: QUERY_HEAP_MIB, maxYoungGenerationSizeMb: 32 },
    // The worker writes nothing; what it would is not cdata's output.
    stdout: true,
    stderr: true,
  });
  return new Promise<Evaluated>((resolve, reject) => {
    worker.once('message', (reply: QueryReply) => {
      void worker.terminate();
      if (reply.ok) resolve({ json: reply.json, records: reply.records });
      else reject(new UsageError(reply.message, reply.hint === undefined ? {} : { hint: reply.hint }));
    });
    worker.once('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        reject(
          new UsageError(`--query needed more than ${QUERY_HEAP_MIB} MiB of memory, cdata's cap for a query (docs/limits.md#a---query-expression)`, {
            hint: 'A query that builds very long strings (pad_left, join) or refers to a list inside a projection over it multiplies its size: filter first, or select fewer fields.',
          }),
        );
      } else reject(error);
    });
    worker.once('exit', (code) => reject(new Error(`the --query worker ended (exit ${code}) without a result`)));
    worker.postMessage({ expression, data: stringifyJson(data) } satisfies QueryRequest);
  });
}
