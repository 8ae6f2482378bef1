// `cdata tenders OCID`, `cdata agents NAME`, `cdata companies ID`: one record of a list, by its key
// field. The API has no endpoint for one record, so cdata asks for the list (200 rows, the most it
// returns, with the filters given) and picks the one whose key is KEY, or starts with KEY when it
// is 6 characters or more. Not there: exit 8, saying that only those 200 can be found. --query
// sees the one record's object.
import { LIMIT_MAX, rowsNoun, type Endpoint } from '../../core/endpoints.js';
import { NotFoundError, UsageError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json-value.js';
import { paramQuery } from '../../core/params.js';
import { asRows } from '../../output/cells.js';
import type { CommandContext } from '../../command-kit/command.js';
import { getData } from '../shared/api.js';
import { queryOutput } from '../shared/query.js';
import type { KeyArgs, RESOURCE_OPTIONS } from './command.js';

/** The shortest prefix a key is matched by: shorter, only the whole key. */
export const MIN_PREFIX = 6;
/** The matches an ambiguous prefix's error names. */
const SHOWN_MATCHES = 10;

export async function lookup(
  endpoint: Endpoint,
  typed: string,
  context: CommandContext<Partial<typeof RESOURCE_OPTIONS>, KeyArgs>,
): Promise<void> {
  const { options } = context;
  const field = endpoint.key ?? 'id';
  const wanted = typed.trim();
  if (wanted === '')
    throw new UsageError(
      `KEY is empty: give the ${field} of one of the ${rowsNoun(endpoint)}, or leave it out for the list`,
    );
  if (options.limit && !options.limit.byDefault) {
    throw new UsageError(
      `--limit does not apply to a lookup by ${field}: cdata looks among the ${LIMIT_MAX} rows the API returns, the most it can`,
    );
  }
  // Everything typed is checked before the request: the filters, --fields against the record.
  const query = paramQuery(endpoint.params, { ...options, limit: { value: LIMIT_MAX } });
  const output = await queryOutput(context, { ...endpoint, shape: 'object' }, options.query);
  const { data, surplus } = await getData(context, endpoint, query);
  await output.print(pick(asRows(data), field, wanted, endpoint, query));
  if (surplus) context.note(surplus);
}

/** The one row whose `field` is `wanted`, or starts with it; a usage error when several do. */
export function pick(
  rows: readonly JsonObject[],
  field: string,
  wanted: string,
  endpoint: Endpoint,
  query: Record<string, string>,
): JsonObject {
  const exact = rows.filter((row) => keyOf(row, field) === wanted);
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1) throw ambiguous(exact, field, wanted, endpoint);
  // A prefix, in any case: ids are UUIDs, which may be typed in capitals.
  const folded = wanted.toLowerCase();
  const matches = rows.filter((row) => keyOf(row, field).toLowerCase().startsWith(folded));
  if (matches.length === 0) throw notFound(rows.length, field, wanted, endpoint, query);
  if (wanted.length < MIN_PREFIX) {
    throw new UsageError(
      `'${wanted}' is not a whole ${field} of the ${rowsNoun(endpoint)}, and too short to pick one by its start (${matches.length} ${matches.length === 1 ? 'starts' : 'start'} with it)`,
      {
        hint: filterMeant(endpoint, wanted) ?? `Type the whole ${field}, or at least ${MIN_PREFIX} characters of it.`,
      },
    );
  }
  if (matches.length > 1) throw ambiguous(matches, field, wanted, endpoint);
  return matches[0]!;
}

function keyOf(row: JsonObject, field: string): string {
  const value = row[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function ambiguous(matches: readonly JsonObject[], field: string, wanted: string, endpoint: Endpoint): UsageError {
  const shown = matches.slice(0, SHOWN_MATCHES).map((row) => keyOf(row, field));
  const more = matches.length > shown.length ? ` and ${matches.length - shown.length} more` : '';
  return new UsageError(`'${wanted}' matches ${matches.length} ${rowsNoun(endpoint)}: ${shown.join(', ')}${more}`, {
    hint: `Type more of the ${field}, to pick one.`,
  });
}

function notFound(
  count: number,
  field: string,
  wanted: string,
  endpoint: Endpoint,
  query: Record<string, string>,
): NotFoundError {
  const filters = Object.entries(query)
    .filter(([name]) => name !== 'limit')
    .map(([name, value]) => `${name}=${value}`);
  const among = `among the ${count} ${rowsNoun(endpoint)} the API returned${filters.length > 0 ? ` for ${filters.join(', ')}` : ''}`;
  const prefix = wanted.length >= MIN_PREFIX ? ' (or starting with it)' : '';
  const which =
    endpoint.firstRows === 'best'
      ? `best-matched ${LIMIT_MAX} ${rowsNoun(endpoint)} (best tier first)`
      : `newest ${LIMIT_MAX} ${rowsNoun(endpoint)}`;
  const narrowing = endpoint.params.flatMap((param) =>
    param.kind === 'limit' ? [] : param.options.map((name) => `--${name}`),
  );
  const hint =
    count < LIMIT_MAX
      ? `The API returns only the ${which}; it returned ${count}, every one there is${filters.length > 0 ? ' with these filters' : ''}.`
      : `The API returns only the ${which}, and has no paging: one outside them cannot be shown.${narrowing.length > 0 ? ` ${narrowing.join(', ')} narrow the list, and may bring it within the ${LIMIT_MAX}.` : ''}`;
  const filter = filterMeant(endpoint, wanted);
  return new NotFoundError(`nothing with ${field} '${wanted}'${prefix} ${among}`, {
    hint: filter ?? hint,
  });
}

/**
 * `cdata tenders RECOMMENDED`, `cdata companies 20`: a word meant for a filter, taken as a key (a
 * word after the list's name is one record's key). Said first when the word is a value of one of
 * the list's filters, or a number where it takes --limit.
 */
function filterMeant(endpoint: Endpoint, wanted: string): string | undefined {
  const folded = wanted.toUpperCase().replaceAll('-', '_');
  for (const param of endpoint.params) {
    const value =
      param.kind === 'enum' && param.values.includes(folded)
        ? folded
        : param.kind === 'limit' && /^\d{1,3}$/.test(wanted)
          ? wanted
          : undefined;
    if (value !== undefined)
      return `Did you mean --${param.options[0]} ${value}? A word after '${endpoint.name}' is the ${endpoint.key ?? 'id'} of one record.`;
  }
  return undefined;
}
