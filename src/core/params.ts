// The API's query parameters (docs/api-reference.md section 4), each declared once: what values it takes,
// what it means for the rows (the sandbox filters by this), and its face on the command line (the
// options that set it and how their values become the query). The endpoint table lists which
// endpoints take which; commands, the sandbox, completions and the docs all read it from here.
import { UsageError, hintOf } from './errors.js';
import { flag, value, type Values } from './option.js';
import { didYouMean } from './similar.js';

export const TIERS = ['RECOMMENDED', 'WORTH_A_LOOK', 'STRETCH'] as const;
export type Tier = (typeof TIERS)[number];

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 200;
/** What the CLI sends when --limit is not given (the command table in README.md). */
export const CLI_DEFAULT_LIMIT = 100;

export interface Limit {
  value: number;
  /** Set when the value was clamped into range, for a note on stderr. */
  clampedFrom?: string;
  /** Set when --limit was not given: a lookup by key refuses a typed one. */
  byDefault?: true;
}

/** A whole number, clamped into 1..200 as the server clamps it (the note says so). */
export function parseLimit(raw: string, flag = '--limit'): Limit {
  const text = raw.trim();
  if (!/^[+-]?\d+$/.test(text))
    throw new UsageError(`${flag} must be a whole number from ${LIMIT_MIN} to ${LIMIT_MAX} (got '${raw}')`);
  const n = BigInt(text);
  if (n < BigInt(LIMIT_MIN)) return { value: LIMIT_MIN, clampedFrom: text };
  if (n > BigInt(LIMIT_MAX)) return { value: LIMIT_MAX, clampedFrom: text };
  return { value: Number(n) };
}

/** The note for a clamped limit, as a sentence, or undefined when it was in range. */
export function clampNote(limit: Limit, flag = '--limit'): string | undefined {
  if (limit.clampedFrom === undefined) return undefined;
  return limit.value === LIMIT_MAX
    ? `${flag} ${limit.clampedFrom} is more than the API returns, so cdata asks for ${LIMIT_MAX}, the most.`
    : `${flag} ${limit.clampedFrom} is less than ${LIMIT_MIN}, so cdata asks for ${LIMIT_MIN}.`;
}

/** What --limit says in a list's help: which rows it keeps, as the API orders them. */
export function limitDescription(firstRows: 'newest' | 'best'): string {
  return `rows to return, ${firstRows === 'best' ? 'best tier first' : 'newest first'} (${LIMIT_MIN} to ${LIMIT_MAX}; others are clamped)`;
}

/** Any case, `-` for `_` (`worth-a-look`). */
export function parseTier(raw: string): Tier {
  // ASCII case only: toUpperCase() also turns `ſtretch` (long s) and `ﬆretch` (ligature) into STRETCH.
  const tier = raw
    .trim()
    .replace(/[a-z]/g, (c) => c.toUpperCase())
    .replace(/-/g, '_');
  if (!(TIERS as readonly string[]).includes(tier))
    throw new UsageError(`--tier must be one of ${TIERS.join(', ')} (got '${raw}')`, hintOf(didYouMean(tier, TIERS)));
  return tier as Tier;
}

/** Every option an API parameter can be set by: the endpoint commands take those of their parameters. */
export const PARAM_OPTIONS = {
  tier: value('--tier <tier>', `only this tier: ${TIERS.join(', ')} (any case; - for _)`, parseTier, {
    complete: { kind: 'values', values: TIERS },
  }),
  decided: flag('--decided', 'only tenders a person has decided on', { conflicts: ['undecided'] }),
  undecided: flag('--undecided', 'only tenders nobody has decided on yet'),
  // Each list's help says which rows it keeps (src/commands/resource/command.ts): limitDescription.
  limit: value('-l, --limit <n>', limitDescription('newest'), parseLimit, {
    default: { value: CLI_DEFAULT_LIMIT, byDefault: true },
    defaultText: String(CLI_DEFAULT_LIMIT),
  }),
};
export type ParamOptionName = keyof typeof PARAM_OPTIONS;
/** The values of the options an endpoint command declares: those of its own parameters. */
export type ParamValues = Partial<Values<typeof PARAM_OPTIONS>>;

interface ParamBase {
  /** The query parameter's name. */
  name: string;
  /** The options that set it (keys of PARAM_OPTIONS). */
  options: readonly ParamOptionName[];
  /** The query value those options' values give; undefined: not sent. */
  query(values: ParamValues): string | undefined;
}

/** A parameter and what it means, as the reference states it. */
export type Param =
  /** Rows to return, 1..200, clamped; `serverDefault` when not sent. */
  | (ParamBase & { kind: 'limit'; serverDefault: number })
  /** Only rows whose `field` equals the value; another value is a 400. */
  | (ParamBase & { kind: 'enum'; values: readonly string[]; field: string })
  /** true: only rows whose `field` is set (not null); false: only rows where it is null. */
  | (ParamBase & { kind: 'presence'; field: string });

export function limitParam(serverDefault: number): Param {
  return {
    name: 'limit',
    kind: 'limit',
    serverDefault,
    options: ['limit'],
    query: (values) => values.limit && String(values.limit.value),
  };
}

export const TIER_PARAM: Param = {
  name: 'tier',
  kind: 'enum',
  values: TIERS,
  field: 'tier',
  options: ['tier'],
  query: (values) => values.tier,
};

export const DECIDED_PARAM: Param = {
  name: 'decided',
  kind: 'presence',
  field: 'decision',
  options: ['decided', 'undecided'],
  // Both at once is refused while the options parse (their declarations say so).
  query({ decided, undecided }) {
    return decided ? 'true' : undecided ? 'false' : undefined;
  },
};

/** The query the parameters make of the options' values. */
export function paramQuery(params: readonly Param[], values: ParamValues): Record<string, string> {
  const query: Record<string, string> = {};
  for (const param of params) {
    const value = param.query(values);
    if (value !== undefined) query[param.name] = value;
  }
  return query;
}

/**
 * The field a parameter picks rows by having set (`decision` under --decided), which then tells
 * them apart: a narrow table keeps it longest. Else undefined.
 */
export function choosingField(param: Param, values: ParamValues): string | undefined {
  return param.kind === 'presence' && param.query(values) === 'true' ? param.field : undefined;
}

/**
 * The field a parameter's value makes the same in every row, or undefined: `tier` under --tier,
 * `decision` (null) under --undecided. A table leaves such a column out.
 */
export function fixedField(param: Param, values: ParamValues): string | undefined {
  const query = param.query(values);
  if (param.kind === 'enum' && query !== undefined) return param.field;
  if (param.kind === 'presence' && query === 'false') return param.field;
  return undefined;
}
