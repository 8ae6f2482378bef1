// The nine endpoint commands: flags checked, one GET, the answer printed to stdout or --out.
import { clampNote, LIMIT_MAX, type ParamValues } from '../core/params.js';
import type { Endpoint } from '../core/endpoints.js';
import { asRows } from '../output/cells.js';
import type { Handler } from '../spec/command.js';
import { openClient } from './api.js';
import { queryOutput } from './query.js';
import type { RESOURCE_OPTIONS } from './registry/resource.js';

export function resource(endpoint: Endpoint): Handler<Partial<typeof RESOURCE_OPTIONS>> {
  return async (context) => {
    const { options, io } = context;
    // Everything the user typed is checked before any request is sent.
    const query = queryOf(endpoint, options);
    const output = await queryOutput(context, endpoint, options.query);
    const note = options.limit && clampNote(options.limit);
    if (note) context.note(note);

    const client = await openClient(context);
    let data;
    try {
      ({ data } = await client.get(endpoint, query));
    } finally {
      await client.close();
    }
    await output.print(data);

    const count = asRows(data).length;
    if (endpoint.shape === 'list' && count === 0 && output.format === 'table') context.note(`No ${endpoint.name} found.`);
    const limit = options.limit?.value;
    if (limit !== undefined && count >= limit && io.stderr.isTTY) {
      const [first, rest] = endpoint.firstRows === 'best' ? ['best-matched', 'lower-ranked'] : ['newest', 'older'];
      context.note(
        limit >= LIMIT_MAX
          ? `showing ${count} ${endpoint.name}, the most the API returns: ${rest} rows cannot be listed (the API has no paging)`
          : `showing the ${first} ${count} ${endpoint.name}; more may exist (--limit up to ${LIMIT_MAX})`,
      );
    }
  };
}

/** The query the endpoint's parameters make of the options (src/core/params.ts). */
function queryOf(endpoint: Endpoint, options: ParamValues): Record<string, string> {
  const query: Record<string, string> = {};
  for (const param of endpoint.params) {
    const value = param.query(options);
    if (value !== undefined) query[param.name] = value;
  }
  return query;
}
