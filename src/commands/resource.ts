// The nine endpoint commands: flags checked, one GET, the answer rendered to stdout or --out.
import { CLI_DEFAULT_LIMIT, hasParam, LIMIT_MAX, type Endpoint } from '../endpoints.js';
import { InternalError } from '../errors.js';
import { colorLevel } from '../output/color.js';
import { asRows } from '../output/cells.js';
import { render } from '../output/render.js';
import { outputFormat } from '../output/format.js';
import { writeOutput } from '../output/sink.js';
import { openClient } from './api.js';
import { parseDecided, parseFields, parseLimit, parseTier, type Limit } from './flags.js';
import type { CommandContext, Handler } from './spec.js';

export const resource: Handler = async (context) => {
  const endpoint = context.spec.endpoint;
  if (!endpoint) throw new InternalError('resource handler run without an endpoint');
  const { options, io } = context;
  // Everything the user typed is checked before any request is sent.
  const limit = hasParam(endpoint, 'limit') ? parseLimit(options.limit === undefined ? String(CLI_DEFAULT_LIMIT) : String(options.limit)) : undefined;
  const query = buildQuery(endpoint, context, limit);
  const fields = parseFields(endpoint, options.fields);
  const format = outputFormat(context);
  if (limit?.clampedFrom !== undefined) context.note(`--limit ${limit.clampedFrom} is outside ${1}..${LIMIT_MAX}; using ${limit.value}`);

  const client = openClient(context);
  let data;
  try {
    ({ data } = await client.get(endpoint, query));
  } finally {
    await client.close();
  }

  const settings = context.settings();
  const text = await render({
    endpoint,
    data,
    format,
    fields,
    header: options.header !== false,
    bom: options.bom === true,
    color: options.out === undefined ? colorLevel(io.stdout, settings.color, io.env) : 0,
    width: options.out === undefined ? terminalWidth(io) : undefined,
    terminal: options.out === undefined && io.stdout.isTTY === true,
  });
  await writeOutput(context, text);

  const count = asRows(data).length;
  if (endpoint.shape === 'list' && count === 0 && format === 'table') context.note(`No ${endpoint.name} found.`);
  if (limit && count >= limit.value && io.stderr.isTTY) {
    const [first, rest] = endpoint.firstRows === 'best' ? ['best-matched', 'lower-ranked'] : ['newest', 'older'];
    context.note(
      limit.value >= LIMIT_MAX
        ? `showing ${count} ${endpoint.name}, the most the API returns: ${rest} rows cannot be listed (the API has no paging)`
        : `showing the ${first} ${count} ${endpoint.name}; more may exist (--limit up to ${LIMIT_MAX})`,
    );
  }
};

/** The terminal's width; a pseudo-terminal of unknown size reports 0, then COLUMNS or none. */
function terminalWidth(io: CommandContext['io']): number | undefined {
  if (!io.stdout.isTTY) return undefined;
  if (io.stdout.columns) return io.stdout.columns;
  const columns = Number(io.env.COLUMNS);
  return columns > 0 ? columns : undefined;
}

function buildQuery(endpoint: Endpoint, context: CommandContext, limit: Limit | undefined): Record<string, string> {
  const { options } = context;
  const query: Record<string, string> = {};
  if (hasParam(endpoint, 'tier') && options.tier !== undefined) query.tier = parseTier(String(options.tier));
  if (hasParam(endpoint, 'decided')) {
    const decided = parseDecided(options.decided as boolean | undefined, options.undecided as boolean | undefined);
    if (decided !== undefined) query.decided = decided;
  }
  if (limit) query.limit = String(limit.value);
  return query;
}
