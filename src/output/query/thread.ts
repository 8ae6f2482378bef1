// A --query evaluated in a worker thread (dist/query.cjs, ./worker.ts), for the built cdata. The
// main thread only waits, so Ctrl-C and SIGTERM end cdata at once however long the query would
// run (bin/cdata.js exits; the worker goes with the process). The worker's heap has a cap: a
// query whose values grow past it ends the worker, and cdata says so (exit 2), long before the
// machine runs short.
//
// The worker is started when the expression has compiled, before the request is sent: starting a
// thread and loading the library in it (~0.15 s of CPU on a loaded machine) then overlaps the
// request. Until the answer is handed to it, it keeps nothing alive: a command that fails first
// exits as it would without it.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { UsageError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json-value.js';
import { stringifyJson } from '../../core/json.js';
import type { Evaluated } from './evaluate.js';
import { outOfMemory, QUERY_HEAP_MIB } from './memory-cap.js';
import type { QueryReply, QueryRequest } from './worker.js';

export { QUERY_HEAP_MIB } from './memory-cap.js';

export interface QueryWorker {
  /** Hands the answer over; the result, or the query's error (a usage error, exit 2). */
  evaluate(data: JsonValue): Promise<Evaluated>;
}

export function startQueryWorker(expression: string): QueryWorker {
  const worker = new Worker(join(__dirname, 'query.cjs'), {
    resourceLimits: { maxOldGenerationSizeMb: QUERY_HEAP_MIB, maxYoungGenerationSizeMb: 32 },
    // The worker writes nothing; what it would is not cdata's output.
    stdout: true,
    stderr: true,
  });
  const reply = new Promise<Evaluated>((resolve, reject) => {
    worker.once('message', (answer: QueryReply) => {
      void worker.terminate();
      if (answer.ok) resolve({ json: answer.json, records: answer.records, emptiedBy: answer.emptiedBy });
      else reject(new UsageError(answer.message, answer.hint === undefined ? {} : { hint: answer.hint }));
    });
    worker.once('error', (error: Error & { code?: string }) =>
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory() : error),
    );
    worker.once('exit', (code) => reject(new Error(`the --query worker ended (exit ${code}) without a result`)));
  });
  // Not awaited until the answer is in: a failure before that is reported then. Unreferenced
  // after its listeners are added (adding one references the worker again).
  reply.catch(() => undefined);
  worker.unref();
  return {
    evaluate(data) {
      worker.ref();
      worker.postMessage({ expression, data: stringifyJson(data) } satisfies QueryRequest);
      return reply;
    },
  };
}
