// The endpoint commands, one per entry of the endpoint table: its summary and examples, the
// options of its query parameters (src/core/params.ts), which the handler turns into the query,
// and --query. A list with a key field takes an optional KEY: that one record, in full.
import { ENDPOINTS, LIMIT_MAX, type Endpoint } from '../../core/endpoints.js';
import { limitDescription, PARAM_OPTIONS, type ParamOptionName } from '../../core/params.js';
import type { ArgSpec, OptionMap } from '../../core/option.js';
import { defineCommand, type AnyCommand } from '../../command-kit/command.js';
import { QUERY_OPTIONS } from '../shared/query-options.js';

/** Every option an endpoint command may have: those its parameters bring, and --query. */
export const RESOURCE_OPTIONS = { ...PARAM_OPTIONS, ...QUERY_OPTIONS };

/**
 * A list's optional KEY (none for `me`). Completions offer nothing: keys come only from the API,
 * up to 200 of them, and completing never calls it.
 */
export type KeyArgs = readonly ArgSpec[];

function endpointOptions(endpoint: Endpoint): OptionMap {
  const names = endpoint.params.flatMap((param) => param.options);
  // --limit says which rows it keeps: the best tier first for tenders, the newest for the others.
  const option = (name: ParamOptionName) =>
    name === 'limit'
      ? { ...PARAM_OPTIONS.limit, description: limitDescription(endpoint.firstRows ?? 'newest') }
      : PARAM_OPTIONS[name];
  return { ...Object.fromEntries(names.map((name: ParamOptionName) => [name, option(name)])), ...QUERY_OPTIONS };
}

function keyArgs(endpoint: Endpoint): KeyArgs {
  if (endpoint.key === undefined) return [];
  return [
    {
      name: 'key',
      description: `show one record in full: its ${endpoint.key}, or a unique prefix of 6 or more characters`,
    },
  ];
}

/** What KEY does, in help: where the record is looked for, and what the filters and --limit do. */
function keyHelp(endpoint: Endpoint): string {
  if (endpoint.key === undefined) return '';
  const filters = endpoint.params
    .filter((param) => param.kind !== 'limit')
    .flatMap((param) => param.options.map((name) => `--${name}`));
  const narrowed = filters.length > 0 ? `, after ${filters.join(', ')} (which narrow the search)` : '';
  const limit = endpoint.params.some((param) => param.kind === 'limit') ? ' --limit does not apply.' : '';
  return (
    `\n\nWith KEY, one record in full: cdata asks for the ${LIMIT_MAX} rows the API returns${narrowed}, and shows the one whose ` +
    `${endpoint.key} is KEY or, for 6 or more characters, starts with it.${limit} --query sees the one record. Not found: exit 8.`
  );
}

export const RESOURCE_COMMANDS: readonly AnyCommand[] = ENDPOINTS.map((endpoint) =>
  defineCommand({
    name: endpoint.name,
    aliases: endpoint.aliases,
    summary: endpoint.summary,
    description: `GET ${endpoint.path} (scope ${endpoint.scope}).${keyHelp(endpoint)}`,
    args: keyArgs(endpoint),
    options: endpointOptions(endpoint),
    examples: endpoint.examples,
    view: endpoint,
    usesApi: true,
    writesOutput: true,
  }),
);
