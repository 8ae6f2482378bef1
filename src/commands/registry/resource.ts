// The endpoint commands, one per entry of the endpoint table: its summary and examples, the
// options of its query parameters (src/core/params.ts), which the handler turns into the query,
// and --query.
import { ENDPOINTS, type Endpoint } from '../../core/endpoints.js';
import { PARAM_OPTIONS, type ParamOptionName } from '../../core/params.js';
import type { OptionMap } from '../../core/option.js';
import { defineCommand, type AnyCommand } from '../../spec/command.js';
import { QUERY_OPTIONS } from './query.js';

/** Every option an endpoint command may have: those its parameters bring, and --query. */
export const RESOURCE_OPTIONS = { ...PARAM_OPTIONS, ...QUERY_OPTIONS };

function endpointOptions(endpoint: Endpoint): OptionMap {
  const names = endpoint.params.flatMap((param) => param.options);
  return { ...Object.fromEntries(names.map((name: ParamOptionName) => [name, PARAM_OPTIONS[name]])), ...QUERY_OPTIONS };
}

export const RESOURCE_COMMANDS: readonly AnyCommand[] = ENDPOINTS.map((endpoint) =>
  defineCommand({
    name: endpoint.name,
    aliases: endpoint.aliases,
    summary: endpoint.summary,
    description: `GET ${endpoint.path} (scope ${endpoint.scope}).`,
    options: endpointOptions(endpoint),
    examples: endpoint.examples,
    view: endpoint,
    usesApi: true,
    writesOutput: true,
    load: async () => (await import('../resource.js')).resource(endpoint),
  }),
);
