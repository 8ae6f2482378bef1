// The nine endpoint commands: flags checked, one GET, the answer printed to stdout or --out; with
// a KEY, one record of the list (lookup.ts).
import { choosingField, clampNote, fixedField, LIMIT_MAX, paramQuery, type ParamValues } from '../../core/params.js';
import { rowsNoun, type Endpoint, type View } from '../../core/endpoints.js';
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

    const { data, surplus } = await getData(context, endpoint, query);
    await output.print(data);
    if (surplus) context.note(surplus);

    const count = asRows(data).length;
    // An empty table says why it is empty; a query's answer (`0`, `[]`) says it itself.
    if (endpoint.shape === 'list' && count === 0 && output.format === 'table' && options.query === undefined)
      context.note(`No ${rowsNoun(endpoint)} found.`);
    const limit = options.limit?.value;
    // The rows a filter chose are named by it: `the 5 best-matched STRETCH tenders`.
    const chosen = endpoint.params.flatMap((param) => (param.kind === 'enum' ? (param.query(options) ?? []) : []));
    if (limit !== undefined && count >= limit && io.stderr.isTTY)
      context.note(moreNote(endpoint, count, limit, chosen.join(' ')));
  };
}

/** The note for a list as long as its limit, as a sentence: more may exist, or cannot be listed. */
export function moreNote(endpoint: Endpoint, count: number, limit: number, chosen = ''): string {
  const [best, rest] = endpoint.firstRows === 'best' ? ['best-matched', 'lower-ranked'] : ['newest', 'older'];
  const first = chosen ? `${best} ${chosen}` : best;
  const rows =
    count === 1
      ? `This is the ${first} ${singular(endpoint.name)}`
      : `These are the ${count} ${first} ${rowsNoun(endpoint)}`;
  return limit >= LIMIT_MAX
    ? `${rows}, the most the API returns: ${rest} ones cannot be listed (the API has no paging).`
    : `${rows}; more may exist (--limit takes up to ${LIMIT_MAX}).`;
}

/** `tender` for tenders, `company` for companies. */
function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

/** The endpoint less the default columns a flag made the same in every row (tier under --tier). */
function tableView(endpoint: Endpoint, options: ParamValues): View {
  const fixed = new Set(endpoint.params.flatMap((param) => fixedField(param, options) ?? []));
  // `--decided`: the decisions are what was asked for, so they are the last to go at a narrow width.
  const chosen = new Set(endpoint.params.flatMap((param) => choosingField(param, options) ?? []));
  if (fixed.size === 0 && chosen.size === 0) return endpoint;
  const drop = endpoint.drop ?? [];
  return {
    ...endpoint,
    columns: endpoint.columns.filter((column) => !fixed.has(column)),
    drop: [...drop.filter((field) => !chosen.has(field)), ...drop.filter((field) => chosen.has(field))],
  };
}
