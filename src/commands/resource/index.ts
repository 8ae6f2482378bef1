// The nine endpoint commands: flags checked, one GET, the answer printed to stdout or --out; with
// a KEY, one record of the list (lookup.ts).
import { clampNote, fixedField, LIMIT_MAX, paramQuery, type ParamValues } from '../../core/params.js';
import type { Endpoint, View } from '../../core/endpoints.js';
import { asRows } from '../../output/cells.js';
import type { Handler } from '../../command-kit/command.js';
import { getData } from '../shared/api.js';
import { queryOutput } from '../shared/query.js';
import type { KeyArgs, RESOURCE_OPTIONS } from './command.js';

export function resource(endpoint: Endpoint): Handler<Partial<typeof RESOURCE_OPTIONS>, KeyArgs> {
  return async (context) => {
    const [key] = context.args;
    if (key !== undefined) return (await import('./lookup.js')).lookup(endpoint, key, context);
    const { options, io } = context;
    // Everything the user typed is checked before any request is sent.
    const query = paramQuery(endpoint.params, options);
    const output = await queryOutput(context, tableView(endpoint, options), options.query);
    const note = options.limit && clampNote(options.limit);
    if (note) context.note(note);

    const data = await getData(context, endpoint, query);
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

/** The endpoint less the default columns a flag made the same in every row (tier under --tier). */
function tableView(endpoint: Endpoint, options: ParamValues): View {
  const fixed = new Set(endpoint.params.flatMap((param) => fixedField(param, options) ?? []));
  return fixed.size === 0 ? endpoint : { ...endpoint, columns: endpoint.columns.filter((column) => !fixed.has(column)) };
}
