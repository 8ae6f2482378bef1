// dist/query.cjs: a --query evaluated in a worker thread (./thread.ts starts it). The main thread
// stays free to answer Ctrl-C and SIGTERM at once, and the worker's heap has a cap: a query that
// grows past it ends the worker, not the machine. It gets the expression and the answer as JSON
// text (numbers as the API wrote them), and posts back the result as JSON text, or the error's
// message and hint.
import { parentPort } from 'node:worker_threads';
import { compile } from '@jmespath-community/jmespath';
import { CliError } from '../../core/errors.js';
import { parseJson } from '../../core/json.js';
import { evaluate } from './evaluate.js';

export interface QueryRequest {
  expression: string;
  data: string;
}

export type QueryReply =
  | { ok: true; json: string; records: boolean; emptiedBy: string[] }
  | { ok: false; message: string; hint: string | undefined };

parentPort?.once('message', ({ expression, data }: QueryRequest) => {
  let reply: QueryReply;
  try {
    // The answer was parsed within the caps already; its text holds nothing new.
    reply = {
      ok: true,
      ...evaluate(compile(expression), parseJson(data, { maxDepth: Infinity, maxValues: Infinity })),
    };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    reply = { ok: false, message: error.message, hint: error.hint };
  }
  parentPort!.postMessage(reply);
});
